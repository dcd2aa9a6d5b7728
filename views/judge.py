"""The judge: POST /api/grade, the 詩伯's dashboard of a round, the results page and the history.

Views validate input and call poetry.grading; every measurement is the grading module's.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from poetry.errors import PoetryError

bp = Blueprint("judge", __name__)

MAX_TEXT = 2000
MAX_TITLE = 100
GRADE_FIELDS = frozenset({"title", "text", "thresholds", "hand"})


class BadRequest(ValueError):
    """A request the API refuses, with the Chinese message shown to the user."""


def _bad(message: str, status: int = 400):
    return jsonify(error="Bad Request", detail=message), status


def _parse_grade_request() -> tuple[str, str | None, dict | None, str | None]:
    payload = request.get_json(silent=True)
    if not isinstance(payload, dict):
        raise BadRequest('請以 JSON 物件送出，例如 {"title": "春望", "text": "國破山河在……"}。')
    unknown = sorted(set(payload) - GRADE_FIELDS)
    if unknown:
        raise BadRequest(f"不認得的欄位：{'、'.join(map(str, unknown))[:100]}（只收 title、text、thresholds、hand）。")
    text = payload.get("text")
    if not isinstance(text, str) or not text.strip():
        raise BadRequest("「text」須是一段文字（字串），放入要評的詩。")
    if len(text) > MAX_TEXT:
        raise BadRequest(f"詩稿太長：{len(text)} 字，上限 {MAX_TEXT} 字。")
    title = payload.get("title")
    if title is not None and not isinstance(title, str):
        raise BadRequest("「title」須是文字（字串）或省略。")
    if title and len(title) > MAX_TITLE:
        raise BadRequest(f"題目太長：上限 {MAX_TITLE} 字。")
    thresholds = payload.get("thresholds")
    if thresholds is not None and not isinstance(thresholds, dict):
        raise BadRequest("「thresholds」須是物件，例如 {\"中品\": 0.5}。")
    if thresholds:
        from poetry.grading import merge_thresholds

        try:
            merge_thresholds(thresholds)
        except ValueError as exc:
            raise BadRequest(str(exc)) from None
    hand = payload.get("hand")
    if isinstance(hand, list) and all(isinstance(c, str) for c in hand):
        hand = "".join(hand)
    if hand is not None and not isinstance(hand, str):
        raise BadRequest("「hand」須是一串字或字的清單。")
    return text, title, thresholds, hand


@bp.post("/api/grade")
def api_grade():
    """Grade a poem: {"title"?, "text", "thresholds"?, "hand"?} → the Grade as JSON.

    :raise 400: not a JSON object, wrong field types, text too long or unreadable as a poem.
    """
    from poetry.grading import grade_poem, grade_to_dict

    try:
        text, title, thresholds, hand = _parse_grade_request()
        result = grade_poem(text, title=title, thresholds=thresholds, hand=hand)
    except BadRequest as exc:
        return _bad(str(exc))
    except PoetryError as exc:
        return _bad(exc.message)
    return jsonify(grade_to_dict(result))
