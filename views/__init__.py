"""Blueprints of the web layer, one per feature. Each view parses input, calls poetry, renders or answers JSON."""
