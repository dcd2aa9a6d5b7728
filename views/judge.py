"""The judge: POST /api/grade, the 詩伯's dashboard of a round, the results page and the history.

Views validate input and call poetry.grading; every measurement is the grading module's. Errors are
raised (werkzeug's BadRequest, the store's and the grading module's PoetryErrors); app.py answers them.
poetry.grading is imported inside the views: it loads numpy, which nothing else in the app needs at start.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, render_template, request
from werkzeug.exceptions import BadRequest

from poetry.checker import MARKS
from poetry.errors import NotAllowed, WrongPhase
from poetry.store import GRADES, Seat
from poetry.text import LIMITS, MAX_LENGTH, MAX_TITLE_LENGTH
from views.openapi import ERROR, TEXT, documented, json_body, ok, round_operation
from views.seats import (
    cookie_name,
    csrf_token_for,
    current_seat,
    get_store,
    json_object,
    refuse_controls,
    remembered_seats,
    round_code,
)

bp = Blueprint("judge", __name__)

GRADE_FIELDS = ("title", "text", "thresholds", "hand")
SET_GRADE_FIELDS = ("seat", "grade", "comment", "confirm")
#: Rounds listed on the history page at most.
HISTORY_LIMIT = 50


# --- one poem ------------------------------------------------------------------------------------


@bp.post("/api/grade")
@documented({
    "summary": "評一首詩：各項評分與建議品第（上品、中品、下品、荒牌）",
    "requestBody": json_body({"type": "object", "required": ["text"], "properties": {
        "title": {"type": "string", "maxLength": MAX_TITLE_LENGTH}, "text": {"type": "string", "maxLength": MAX_LENGTH},
        "thresholds": {"type": "object"},
        "hand": {"oneOf": [{"type": "string"}, {"type": "array", "items": TEXT}]}}}),
    "responses": {"200": ok({"type": "object"}), "400": ERROR},
})
def api_grade():
    """Grade a poem: {"title"?, "text", "thresholds"?, "hand"?} → the Grade as JSON.

    :raise 400: not a JSON object, wrong field types, text too long or unreadable as a poem.
    """
    from poetry.grading import grade_poem, grade_to_dict

    text, title, thresholds, hand = _parse_grade_request()
    return jsonify(grade_to_dict(grade_poem(text, title=title, thresholds=thresholds, hand=hand)))


def _parse_grade_request() -> tuple[str, str | None, dict | None, str | None]:
    """The request's (text, title, thresholds, hand), or BadRequest with a message a poet can act on."""
    payload = json_object(GRADE_FIELDS, '{"title": "春望", "text": "國破山河在……"}')
    text = payload.get("text")
    if not isinstance(text, str) or not text.strip():
        raise BadRequest("「text」須是一段文字（字串），放入要評的詩。")
    if len(text) > MAX_LENGTH:
        raise BadRequest(f"詩稿太長：{len(text)} 字，上限 {MAX_LENGTH} 字。")
    title = payload.get("title")
    if title is not None and not isinstance(title, str):
        raise BadRequest("「title」須是文字（字串）或省略。")
    if title and len(title) > MAX_TITLE_LENGTH:
        raise BadRequest(f"題目太長：上限 {MAX_TITLE_LENGTH} 字。")
    refuse_controls(text, "詩稿")
    if title:
        refuse_controls(title, "題目")
    return text, title, _parse_thresholds(payload.get("thresholds")), _parse_hand(payload.get("hand"))


def _parse_thresholds(thresholds: object) -> dict | None:
    """The 詩伯's own 品 thresholds, checked against the rubric's names and range."""
    if thresholds is not None and not isinstance(thresholds, dict):
        raise BadRequest("「thresholds」須是物件，例如 {\"中品\": 0.5}。")
    if thresholds:
        from poetry.grading import merge_thresholds

        merge_thresholds(thresholds)  # InvalidThresholdError (400) names the bad threshold
    return thresholds


def _parse_hand(hand: object) -> str | None:
    """A hand given as a string or as a list of characters, as one string; None for no hand."""
    if isinstance(hand, list) and all(isinstance(c, str) for c in hand):
        hand = "".join(hand)
    if hand is not None and not isinstance(hand, str):
        raise BadRequest("「hand」須是一串字或字的清單。")
    if hand:
        refuse_controls(hand, "手牌")
    return hand


# --- the 詩伯's dashboard, the results page, the history ----------------------------------------


def _thresholds_from_args() -> dict[str, float] | None:
    """Thresholds the 詩伯 set for this round (query string, e.g. ?中品=0.55); bad values are ignored."""
    from poetry.grading.rubric import THRESHOLD_LABELS

    out = {}
    for key in THRESHOLD_LABELS:
        raw = request.args.get(key)
        if raw is None:
            continue
        try:
            value = float(raw)
        except ValueError:
            continue
        if 0 <= value <= 1:
            out[key] = value
    return out or None


def _require_judge(code: str) -> Seat:
    """The seat asking, if it is the 詩伯 of this round; NotAllowed (403) otherwise."""
    seat = current_seat(code)
    if seat is None:
        raise NotAllowed("請先以詩伯的私人連結入座：只有詩伯能評品。")
    if not seat.is_host:
        raise NotAllowed("只有詩伯能評品。")
    return seat


@bp.get("/r/<code>/judge")
def dashboard_page(code: str):
    """The 詩伯's dashboard: every poem side by side with its marks, faults, tiles, criteria and 品."""
    from poetry.grading.rubric import THRESHOLD_LABELS, THRESHOLD_SWITCHES
    from poetry.standings import round_dashboard

    code = round_code(code)
    seat = _require_judge(code)
    data = round_dashboard(get_store(), code, seat, _thresholds_from_args())
    token = request.cookies.get(cookie_name(code))
    csrf = csrf_token_for(token) if token else ""
    return render_template("judge_dashboard.html", data=data, info=data["round"], csrf=csrf,
                           threshold_labels=THRESHOLD_LABELS,
                           threshold_switches=THRESHOLD_SWITCHES, marks=MARKS)


@bp.get("/api/rounds/<code>/judge")
@documented(round_operation(
    "詩伯評品面板的資料：每首詩的平仄、病、用牌、各項評分與建議品第", {
        "200": ok({"type": "object", "description": "entries[].poem：form（所宣之體，未宣則依詩形）、violations"
                   "（[{line, pos, kind, severity, message}]，與 POST /api/check 同一文字、體裁、手牌、韻書所得相同）、"
                   "tiles_count（用牌數，題目計入，與編輯器、成績同一數）"}),
        "403": ERROR, "404": ERROR}))
def api_dashboard(code: str):
    """The dashboard's data as JSON (詩伯 only)."""
    from poetry.standings import round_dashboard

    code = round_code(code)
    seat = _require_judge(code)
    return jsonify(round_dashboard(get_store(), code, seat, _thresholds_from_args()))


@bp.post("/api/rounds/<code>/grades")
@documented(round_operation(
    "詩伯定一首詩的品第與評語；回傳名次", {"200": ok({"type": "object", "properties": {
        "saved": {"type": "object"}, "ranking": {"type": "array"}}}),
        "400": ERROR, "403": ERROR, "404": ERROR, "409": ERROR},
    body={"type": "object", "required": ["seat", "grade"], "properties": {
        "seat": {"type": "integer"}, "grade": {"enum": list(GRADES)},
        "comment": {"type": "string", "maxLength": LIMITS["comment"]},
        "confirm": {"type": "boolean", "description": "after publication: true to change a 品 (else 409)"}}}))
def api_set_grade(code: str):
    """The 詩伯 sets the final 品 of one seat's poem: {"seat", "grade", "comment"?} → the grade and the ranking.

    :raise 403: not the 詩伯 (or a cookie request without the CSRF header).
    :raise 400: a field of the wrong type, an unknown 品, a seat out of range.
    """
    from poetry.standings import ranking_of, round_results

    code = round_code(code)
    _require_judge(code)
    payload = json_object(SET_GRADE_FIELDS, '{"seat": 1, "grade": "上品", "comment": ""}')
    comment = payload.get("comment") or ""
    if not isinstance(comment, str):
        raise BadRequest("「comment」須是文字。")
    store = get_store()
    saved = store.set_grade(code, payload.get("seat"), payload.get("grade"), comment, payload.get("confirm"))
    info = store.round_info(code)
    try:
        ranking = round_results(store, code)["ranking"]
    except WrongPhase:  # not yet published: rank from the grades so far
        graded = {g["seat"]: g["grade"] for g in store.list_grades(code)}
        elapsed = store.elapsed_of(code)
        ranking = ranking_of(info, [{"seat": s["seat"], "name": s["name"], "submitted": s["submitted"],
                                     "grade": graded.get(s["seat"]), "elapsed_seconds": elapsed.get(s["seat"])}
                                    for s in info["seats"] if s["plays"]])
    return jsonify(saved=saved, ranking=ranking)


@bp.get("/r/<code>/results")
def results_page(code: str):
    """The printable results of a published round: poems, 品, comments, winners and losers."""
    from poetry.standings import round_results

    code = round_code(code)
    store = get_store()
    results = round_results(store, code)
    seat = current_seat(code)  # the 詩伯 is offered 同桌再來一局 here
    token = request.cookies.get(cookie_name(code))
    return render_template("judge_results.html", results=results, is_host=bool(seat and seat.is_host),
                           csrf=csrf_token_for(token) if seat and token else "",
                           last_event=store.round_info(code)["last_event"])


@bp.get("/rounds/history")
def history_page():
    """The rounds played on this device (the seat cookies it holds), newest first, with their results."""
    from poetry.standings import round_history

    return render_template("judge_history.html", rounds=round_history(get_store(), remembered_seats(HISTORY_LIMIT)))
