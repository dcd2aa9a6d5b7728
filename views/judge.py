"""The judge: POST /api/grade, the 詩伯's dashboard of a round, the results page and the history.

Views validate input and call poetry.grading; every measurement is the grading module's.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from poetry.errors import PoetryError
from views.check import BadRequest, json_object, refuse_controls

bp = Blueprint("judge", __name__)

MAX_TEXT = 2000
MAX_TITLE = 100
GRADE_FIELDS = ("title", "text", "thresholds", "hand")


def _bad(message: str, status: int = 400):
    return jsonify(error="Bad Request", detail=message), status


def _parse_grade_request() -> tuple[str, str | None, dict | None, str | None]:
    payload = json_object(GRADE_FIELDS, '{"title": "春望", "text": "國破山河在……"}')
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
    refuse_controls(text, "詩稿")
    if title:
        refuse_controls(title, "題目")
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
    if hand:
        refuse_controls(hand, "手牌")
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


# --- the 詩伯's dashboard, the results page, the history ----------------------------------------

HISTORY_LIMIT = 50
THRESHOLD_KEYS = ("上品", "中品", "荒牌", "上品_floor", "貫理_floor", "form_floor")


def _round_code(code: str) -> str:
    from poetry.store import RoundNotFound, normalise_code

    code = normalise_code(code)
    if not code.isalnum() or len(code) > 12:
        raise RoundNotFound("牌局代碼只含字母與數字。")
    return code


def _thresholds_from_args() -> dict[str, float] | None:
    """Thresholds the 詩伯 set for this round (query string, e.g. ?中品=0.55); bad values are ignored."""
    out = {}
    for key in THRESHOLD_KEYS:
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


def _require_judge(code: str):
    """The seat asking, if it is the 詩伯 of this round; NotAllowed (403) otherwise."""
    from poetry.store import NotAllowed
    from views.rounds import current_seat

    seat = current_seat(code)
    if seat is None:
        raise NotAllowed("請先以詩伯的私人連結入座：只有詩伯能評品。")
    if not seat.is_host:
        raise NotAllowed("只有詩伯能評品。")
    return seat


@bp.get("/r/<code>/judge")
def dashboard_page(code: str):
    """The 詩伯's dashboard: every poem side by side with its marks, faults, tiles, criteria and 品."""
    from flask import render_template

    from poetry.checker import MARKS
    from poetry.standings import round_dashboard
    from views.rounds import cookie_name, csrf_token_for, get_store

    code = _round_code(code)
    seat = _require_judge(code)
    data = round_dashboard(get_store(), code, seat, _thresholds_from_args())
    csrf = csrf_token_for(request.cookies.get(cookie_name(code), "")) if request.cookies.get(cookie_name(code)) else ""
    return render_template("judge_dashboard.html", data=data, info=data["round"], csrf=csrf,
                           threshold_keys=THRESHOLD_KEYS, marks=MARKS)


@bp.get("/api/rounds/<code>/judge")
def api_dashboard(code: str):
    """The dashboard's data as JSON (詩伯 only)."""
    from poetry.standings import round_dashboard
    from views.rounds import get_store

    code = _round_code(code)
    seat = _require_judge(code)
    return jsonify(round_dashboard(get_store(), code, seat, _thresholds_from_args()))


@bp.post("/api/rounds/<code>/grades")
def api_set_grade(code: str):
    """The 詩伯 sets the final 品 of one seat's poem: {"seat", "grade", "comment"?} → the grade and the ranking.

    :raise 403: not the 詩伯 (or a cookie request without the CSRF header).
    :raise 400: a field of the wrong type, an unknown 品, a seat out of range.
    """
    from poetry.standings import rank_round, round_results
    from poetry.store import WrongPhase
    from views.rounds import get_store

    code = _round_code(code)
    _require_judge(code)
    payload = request.get_json(silent=True)
    if not isinstance(payload, dict):
        return _bad('請以 JSON 物件送出，例如 {"seat": 1, "grade": "上品", "comment": ""}。')
    unknown = sorted(set(payload) - {"seat", "grade", "comment"})
    if unknown:
        return _bad(f"不認得的欄位：{'、'.join(map(str, unknown))[:100]}（只收 seat、grade、comment）。")
    comment = payload.get("comment") or ""
    if not isinstance(comment, str):
        return _bad("「comment」須是文字。")
    store = get_store()
    saved = store.set_grade(code, payload.get("seat"), payload.get("grade"), comment)
    info = store.round_info(code)
    try:
        ranking = round_results(store, code)["ranking"]
    except WrongPhase:  # not yet published: rank from the grades so far
        graded = {g["seat"]: g["grade"] for g in store.list_grades(code)}
        ranking = rank_round([{"seat": s["seat"], "name": s["name"], "submitted": s["submitted"],
                               "grade": graded.get(s["seat"])} for s in info["seats"] if s["plays"]],
                             info.get("penalty", ""))
    return jsonify(saved=saved, ranking=ranking)


@bp.get("/r/<code>/results")
def results_page(code: str):
    """The printable results of a published round: poems, 品, comments, winners and losers."""
    from flask import render_template

    from poetry.standings import round_results
    from views.rounds import get_store

    code = _round_code(code)
    results = round_results(get_store(), code)
    return render_template("judge_results.html", results=results)


@bp.get("/rounds/history")
def history_page():
    """The rounds played on this device (the seat cookies it holds), newest first, with their results."""
    from flask import render_template

    from poetry.standings import round_history
    from views.rounds import COOKIE_PREFIX, get_store

    store = get_store()
    seats = []
    for name, token in request.cookies.items():
        if name.startswith(COOKIE_PREFIX) and len(seats) < HISTORY_LIMIT:
            seat = store.authenticate(name[len(COOKIE_PREFIX):], token)
            if seat is not None:
                seats.append(seat)
    return render_template("judge_history.html", rounds=round_history(store, seats))

