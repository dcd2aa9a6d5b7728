"""Blueprints of the web layer, one per feature. Each view parses input, calls poetry, renders or answers JSON.

Views raise on bad input and never answer an error themselves (app.py does). What several views share
lives in helper modules, never in another view: seats.py (the seat, CSRF, request bodies), openapi.py
(the API document, assembled from the views' @documented operations), script.py (the 繁/简 conversion).
"""
