"""Theme suggestions: POST /api/themes and the standalone page GET /themes, over poetry.themes.

The view validates the request and makes one call, suggest_themes(); the themes panel
(templates/themes_panel.html + static/themes.js) renders the answer on this page and on the round page.
Refusals are raised (BadRequest, or suggest_themes' MalformedPoemError); app.py answers them.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, render_template, request
from werkzeug.exceptions import BadRequest, UnprocessableEntity

from poetry.errors import PoetryError
from poetry.text import to_simplified
from poetry.themes import MAX_CHARS, suggest_themes, themes_to_json
from poetry.tiles import load_tile_set
from views.openapi import ERROR, TEXT, documented, json_body, ok
from views.script import reader_wants_simplified
from views.seats import refuse_controls

bp = Blueprint("themes", __name__)

#: Longest raw "chars" string or list the API reads (separators included); the Chinese limit is MAX_CHARS.
MAX_RAW = 8 * MAX_CHARS


@bp.get("/themes")
def themes_page():
    """Paste a hand's characters and see the themes it can carry."""
    sample = "".join(tile.char for tile in load_tile_set())  # the 試一手隨機牌 button deals 150 of these
    return render_template("themes.html", max_chars=MAX_CHARS, sample=sample)


@bp.post("/api/themes")
@documented({
    "summary": "手牌題材：把一手牌的字歸成題材，附可押之韻與題目",
    "requestBody": json_body({"type": "object", "required": ["chars"], "properties": {
        "chars": {"oneOf": [{"type": "string"}, {"type": "array", "items": TEXT}]}}}),
    "responses": {"200": ok({"type": "object", "properties": {"themes": {"type": "array"}}}),
                  "400": ERROR, "422": ERROR},
})
def api_themes():
    """Group a hand into themes: {"chars": "山峰…" | ["山", "峰", …]} → {"themes": [...]}.

    :raise 400: not a JSON object, "chars" missing or not a string / list of strings, more than
        MAX_CHARS Chinese characters, or no Chinese at all.
    :raise 422: suggest_themes failed on this hand (logged; a bug to fix, never a 5xx).
    """
    chars = _parse_chars()
    try:
        suggestions = suggest_themes(chars)
    except PoetryError:
        raise
    except Exception:  # a fault of ours must not read as a dead server; the hand stays on the page
        current_app.logger.exception("suggest_themes failed on %d characters", len(chars))
        raise UnprocessableEntity("這手牌暫時無法歸類（程式出錯，已記錄）。") from None
    result = themes_to_json(suggestions)
    if reader_wants_simplified():  # names in the reader's script; the characters and the titles stay as
        # given (they match the tiles: 以此起稿 puts a title in the draft, made of one's own tiles)
        for theme in result["themes"]:
            for key in ("name", "description"):
                theme[key] = to_simplified(theme[key])
            for rhyme in theme["rhymes"]:
                rhyme["group"] = to_simplified(rhyme["group"])
    return jsonify(result)


def _parse_chars() -> str | list[str]:
    """The request's "chars", a string or a list of strings, or BadRequest saying what is wrong."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or "chars" not in body:
        raise BadRequest("請以 JSON 物件送出手牌，例如 {\"chars\": \"山峰洞石\"}。")
    chars = body["chars"]
    if not isinstance(chars, (str, list)) or (isinstance(chars, list) and not all(isinstance(c, str) for c in chars)):
        raise BadRequest("「chars」須為文字，或由字組成的清單。")
    if sum(len(c) for c in chars) > MAX_RAW:
        raise BadRequest(f"手牌太長了：最多 {MAX_CHARS} 字。")
    for piece in [chars] if isinstance(chars, str) else chars:
        refuse_controls(piece, "手牌")
    return chars
