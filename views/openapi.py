"""The OpenAPI 3.1 document of the JSON API, assembled from the routes themselves.

Each API view carries its own operation (``@documented(...)`` under its route decorator);
``openapi_document(app)`` walks ``app.url_map`` and files every operation under its path and method.
A new route is documented where it is written, and an undocumented /api/ route fails
tests/test_qa_api.py, which checks every route is in the document.

    @bp.post("/api/check")
    @documented({"summary": "平仄檢查", "responses": {"200": ok({"type": "object"})}})
    def api_check(): ...
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import Flask

from poetry.forms import DECLARED_FORMS
from poetry.rules import COMPOSITIONS
from poetry.store import RHYME_BOOKS

Operation = dict[str, Any]

#: A JSON string, the commonest schema of all.
TEXT = {"type": "string"}


def documented(operation: Operation) -> Callable:
    """Attach an OpenAPI operation to a view function (put it under the route decorator)."""

    def attach(view: Callable) -> Callable:
        view.openapi = operation
        return view

    return attach


def ref(name: str) -> dict:
    """A reference to one of the document's component schemas (Error, Seat, Tile, Round)."""
    return {"$ref": f"#/components/schemas/{name}"}


def ok(schema: dict, description: str = "") -> dict:
    """A JSON response with ``schema`` (described "OK" unless told otherwise)."""
    return {"description": description or "OK", "content": {"application/json": {"schema": schema}}}


def json_body(schema: dict) -> dict:
    """A required JSON request body with ``schema``."""
    return {"required": True, "content": {"application/json": {"schema": schema}}}


#: Every error answer: {error, detail} with a Chinese detail (and a 422's violations).
ERROR = ok(ref("Error"), "錯誤：detail 為中文說明")
#: The optional declared form of a poem, as every endpoint that takes a poem documents it.
FORM = {"enum": list(DECLARED_FORMS), "description": "宣告的體裁：依所宣之體論，每處不合皆為病；古體不論平仄、只看押韻"}

_CODE_PARAMETER = {"name": "code", "in": "path", "required": True, "schema": TEXT,
                   "description": "牌局代碼（6 個字母或數字，不分大小寫）"}
_SEAT_AUTH = [{"bearer": []}, {"cookie": []}]


def round_operation(summary: str, responses: dict, *, body: dict | None = None, secured: bool = True,
                    description: str = "") -> Operation:
    """An operation on /api/rounds/{code}/…: the code parameter, and the seat's token unless ``secured=False``."""
    operation: Operation = {"summary": summary, "parameters": [_CODE_PARAMETER], "responses": responses}
    if description:
        operation["description"] = description
    if body is not None:
        operation["requestBody"] = json_body(body)
    if secured:
        operation["security"] = _SEAT_AUTH
    return operation


_INFO = {
    "title": "詩牌 rounds API",
    "version": "1",
    "description": (
        "Rounds of 詩牌. Seats and the 詩伯 get tokens at create/join; send them as "
        "`Authorization: Bearer <token>`. The pages use an HttpOnly cookie instead; cookie-authenticated "
        "writes must send the X-CSRF-Token header. Errors are JSON {error, detail} with a Chinese detail. "
        "Composition rules: rhyme_feet — the title's characters and the rhyme feet (last character of every "
        "even line, and of line 1 when it is 平) must be one's own tiles; jizi (集字) — every character of "
        "the poem from one's own tiles, each tile once, with up to `wildcards` blanks; the title from one's "
        "tiles. Live updates: GET /api/rounds/{code}/events (text/event-stream)."),
}


def _components() -> dict:
    return {
        "securitySchemes": {
            "bearer": {"type": "http", "scheme": "bearer"},
            "cookie": {"type": "apiKey", "in": "cookie", "name": "shipai_<CODE>"},
        },
        "schemas": {
            "Error": {"type": "object", "required": ["error", "detail"],
                      "properties": {"error": TEXT, "detail": TEXT,
                                     "violations": {"type": "array", "items": {"type": "object"}}}},
            "Seat": {"type": "object", "properties": {
                "seat": {"type": "integer", "description": "1–4; 0 is a 詩伯 who only judges"},
                "name": TEXT, "is_host": {"type": "boolean"}, "plays": {"type": "boolean"},
                "submitted": {"type": "boolean"}}},
            "Tile": {"type": "object", "properties": {"char": TEXT, "tone": {"enum": ["平", "仄"]}, "rhyme": TEXT,
                                                      "strokes": {"type": "integer"}}},
            "Round": {"type": "object", "properties": {
                "code": TEXT, "title": TEXT, "phase": {"enum": ["lobby", "dealt", "published"]},
                "rhyme_book": {"enum": list(RHYME_BOOKS)}, "penalty": TEXT,
                "composition": {"enum": list(COMPOSITIONS)}, "wildcards": {"type": "integer"},
                "host_plays": {"type": "boolean"}, "seats": {"type": "array", "items": ref("Seat")},
                "commitment": {"type": ["string", "null"]},
                "count_tile": {"type": ["object", "null"]}, "first_seat": {"type": ["integer", "null"]},
                "turn_order": {"type": ["array", "null"]}, "last_event": {"type": "integer"},
                "me": {"type": ["object", "null"]}}},
        },
    }


def openapi_document(app: Flask) -> dict:
    """The OpenAPI document: every /api/ route's operation, by path and method, from ``app.url_map``."""
    paths: dict[str, dict[str, Operation]] = {}
    for rule in app.url_map.iter_rules():
        operation = getattr(app.view_functions[rule.endpoint], "openapi", None)
        if not rule.rule.startswith("/api/") or operation is None:
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)  # /api/rounds/<code> → /api/rounds/{code}
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            paths.setdefault(path, {})[method.lower()] = operation
    return {"openapi": "3.1.0", "info": _INFO, "components": _components(), "paths": paths}
