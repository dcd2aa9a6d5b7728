"""Rounds on the web: the JSON API (documented at /api/openapi.json), the pages and the live event stream.

Thin views: parse the request, find the seat the request speaks for (views.seats), make one call to
poetry.store.Store, answer JSON or a page. Errors are raised, never answered here: app.py gives every
one the same shape. Live updates are server-sent events read from the store's event table
(docs/LIVE_UPDATES.md says why).
"""

from __future__ import annotations

from flask import (
    Blueprint,
    Response,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.exceptions import BadRequest, NotFound, TooManyRequests

import live
from poetry.errors import WrongPhase
from poetry.forms import DECLARED_FORMS
from poetry.prosody import get_rhyme_book
from poetry.rules import COMPOSITIONS, MAX_WILDCARDS
from poetry.store import GRADES, RHYME_BOOKS, normalise_code
from poetry.text import LIMITS, to_simplified
from views.club import CLUB_SETTINGS
from views.openapi import ERROR, FORM, TEXT, documented, json_body, ok, openapi_document, ref, round_operation
from views.seats import (
    check_form_csrf,
    cookie_name,
    csrf_token_for,
    current_seat,
    get_store,
    json_object,
    remember_seat,
    round_code,
    seat_token,
)

bp = Blueprint("rounds", __name__)

#: The request body of a draft and of a submission.
POEM_BODY = {"type": "object", "properties": {
    "title": {"type": "string", "maxLength": LIMITS["poem_title"]},
    "text": {"type": "string", "maxLength": LIMITS["text"]},
    "form": FORM}}
#: The round's rule on a draft (PUT draft's answer), by the submission's own function (poetry.rules).
RULE_VERDICT = {"type": "object", "description": "本局作詩規則對此稿的判定（與交卷同一函式）", "properties": {
    "violations": {"type": "array", "items": {"type": "object"}}, "tiles_used": {"type": "integer"}}}


# --- the JSON API --------------------------------------------------------------------------------


@bp.post("/api/rounds")
@documented({
    "summary": "詩伯開局",
    "requestBody": json_body({"type": "object", "required": ["title", "host_name"], "properties": {
        "title": {"type": "string", "maxLength": LIMITS["title"]},
        "host_name": {"type": "string", "maxLength": LIMITS["host_name"]},
        "host_plays": {"type": "boolean", "default": True},
        "rhyme_book": {"enum": list(RHYME_BOOKS), "default": "pingshui"},
        "penalty": {"type": "string", "maxLength": LIMITS["penalty"]},
        "composition": {"enum": list(COMPOSITIONS), "default": "rhyme_feet"},
        "wildcards": {"type": "integer", "minimum": 0, "maximum": MAX_WILDCARDS},
        "tile_set": {"description": "custom set: JSON or CSV text, or a list; 600 distinct, 300/300",
                     "oneOf": [{"type": "string"}, {"type": "array"}]},
        **CLUB_SETTINGS}}),
    "responses": {
        "201": ok({"type": "object", "properties": {
            "code": TEXT, "host_token": TEXT, "seat": {"type": "integer"}, "host_link": TEXT,
            "round_url": TEXT}}, "開局成功；host_token 只給這一次"),
        "400": ERROR, "422": ERROR},
})
def api_create_round():
    """Open a round; the 詩伯's token is returned once and set as a cookie."""
    data = json_object()
    tile_set = data.get("tile_set")
    if tile_set is not None:
        if not isinstance(tile_set, (str, list)):
            raise BadRequest("「tile_set」須是 JSON 或 CSV 文字，或字的列表。")
        from poetry.tiles import validate_tile_set

        tile_set = validate_tile_set(tile_set)  # InvalidHandError → 422 with the offending characters
    created = get_store().create_round(
        title=data.get("title"), host_name=data.get("host_name"), host_plays=data.get("host_plays"),
        rhyme_book=data.get("rhyme_book"), penalty=data.get("penalty"), composition=data.get("composition"),
        wildcards=data.get("wildcards"), tile_set=tile_set,
        cups=data.get("cups"), minutes=data.get("minutes"), rhyme_draw=data.get("rhyme_draw"),
    )
    created["host_link"] = url_for("rounds.seat_link", code=created["code"], token=created["host_token"],
                                    _external=True)
    created["round_url"] = url_for("rounds.round_page", code=created["code"], _external=True)
    return remember_seat(jsonify(created), created["code"], created["host_token"]), 201


@bp.post("/api/rounds/<code>/join")
@documented(round_operation(
    "以名號入座", {"201": ok({"type": "object", "properties": {
        "seat": {"type": "integer"}, "token": TEXT, "code": TEXT, "link": TEXT}}),
        "400": ERROR, "404": ERROR, "409": ok(ref("Error"), "座位已滿或已抽牌"),
        "429": ok(ref("Error"), "加入嘗試太頻繁")},
    body={"type": "object", "required": ["name"],
          "properties": {"name": {"type": "string", "maxLength": LIMITS["name"]}}}, secured=False))
def api_join(code: str):
    """Take a seat with a name; 409 when the table is full."""
    code = round_code(code)
    if get_store().authenticate(code, seat_token(code)) is not None:
        raise WrongPhase("你已經在這局入座了。")
    data = json_object()
    joined = get_store().join(code, data.get("name"))
    joined["link"] = url_for("rounds.seat_link", code=joined["code"], token=joined["token"], _external=True)
    return remember_seat(jsonify(joined), joined["code"], joined["token"]), 201


@bp.get("/api/rounds/<code>")
@documented(round_operation("牌局的公開狀態", {"200": ok(ref("Round")), "404": ERROR}, secured=False))
def api_round(code: str):
    """The public state of a round (seats, phase, commitment …) and who is asking."""
    code = round_code(code)
    return jsonify(get_store().round_info(code, current_seat(code)))


@bp.post("/api/rounds/<code>/deal")
@documented(round_operation(
    "詩伯抽牌：洗牌、承諾、數筆畫、輪抽", {"200": ok({"type": "object", "properties": {
        "commitment": TEXT, "count_tile": {"type": "object"}, "first_seat": {"type": "integer"},
        "turn_order": {"type": "array"}, "hand_size": {"type": "integer"}}}),
        "403": ERROR, "404": ERROR, "409": ERROR}))
def api_deal(code: str):
    """The 詩伯's 抽牌."""
    code = round_code(code)
    return jsonify(get_store().deal(code, current_seat(code)))


@bp.get("/api/rounds/<code>/hand")
@documented(round_operation(
    "自己的 150 張牌（抽牌順序）", {"200": ok({"type": "object", "properties": {
        "seat": {"type": "integer"}, "tiles": {"type": "array", "items": ref("Tile")},
        "wildcards": {"type": "integer"}}}), "403": ERROR, "404": ERROR, "409": ERROR}))
def api_hand(code: str):
    """One's own 150 tiles, in draw order."""
    code = round_code(code)
    return jsonify(get_store().hand(code, current_seat(code)))


@bp.get("/api/rounds/<code>/hands")
@documented(round_operation(
    "所有人的牌（詩伯；公佈後人人可看）", {"200": ok({"type": "object"}), "403": ERROR, "404": ERROR,
                                "409": ERROR}))
def api_hands(code: str):
    """Every hand: the 詩伯's record (403 for others until publication)."""
    code = round_code(code)
    return jsonify(get_store().hands(code, current_seat(code)))


@bp.get("/api/rounds/<code>/draft")
@documented(round_operation("自己的詩稿", {"200": ok({"type": "object"}), "403": ERROR, "404": ERROR}))
def api_get_draft(code: str):
    """One's own draft (or the submitted poem, while locked)."""
    code = round_code(code)
    return jsonify(get_store().get_draft(code, current_seat(code)))


@bp.put("/api/rounds/<code>/draft")
@documented(round_operation(
    "儲存詩稿（邊寫邊存）", {"200": ok({"type": "object", "properties": {
        "saved": {"type": "boolean"}, "revision": {"type": "integer"}, "updated_at": TEXT,
        "form": {"type": ["string", "null"]}, "rule": RULE_VERDICT}}),
        "400": ERROR, "403": ERROR, "404": ERROR, "409": ERROR}, body=POEM_BODY))
def api_save_draft(code: str):
    """Save one's draft as one types."""
    code = round_code(code)
    seat = current_seat(code)
    data = json_object()
    return jsonify(get_store().save_draft(code, seat, data.get("title"), data.get("text"), data.get("form")))


@bp.post("/api/rounds/<code>/submit")
@documented(round_operation(
    "交卷（鎖定）；回傳檢查報告", {"200": ok({"type": "object"}), "400": ERROR, "403": ERROR,
                       "404": ERROR, "409": ERROR, "422": ok(ref("Error"), "不合作詩規則；violations 列出各字")},
    body=POEM_BODY))
def api_submit(code: str):
    """Hand in title and poem (locked; 422 when the composition rule is broken)."""
    code = round_code(code)
    seat = current_seat(code)
    data = json_object()
    return jsonify(get_store().submit(code, seat, data.get("title"), data.get("text"), data.get("form")))


@bp.post("/api/rounds/<code>/reopen")
@documented(round_operation(
    "詩伯重開某座的交卷", {"200": ok({"type": "object"}), "400": ERROR, "403": ERROR, "404": ERROR,
                   "409": ERROR},
    body={"type": "object", "required": ["seat"], "properties": {"seat": {"type": "integer"}}}))
def api_reopen(code: str):
    """The 詩伯 unlocks one seat's submission."""
    code = round_code(code)
    seat = current_seat(code)
    data = json_object()
    return jsonify(get_store().reopen(code, seat, data.get("seat")))


@bp.post("/api/rounds/<code>/publish")
@documented(round_operation(
    "詩伯公佈：詩、牌與洗牌結果", {"200": ok({"type": "object"}), "403": ERROR, "404": ERROR, "409": ERROR}))
def api_publish(code: str):
    """The 詩伯 publishes the round."""
    code = round_code(code)
    return jsonify(get_store().publish(code, current_seat(code)))


@bp.get("/api/rounds/<code>/results")
@documented(round_operation(
    "公佈後的結果：詩、牌、品第與名次、reveal {salt, order}", {"200": ok({"type": "object", "properties": {
        "poems": {"type": "array"}, "hands": {"type": "array"}, "commitment": TEXT, "penalty": TEXT,
        "ranking": {"type": "object", "properties": {
            "ranking": {"type": "array"}, "winners": {"type": "array"}, "losers": {"type": "array"},
            "complete": {"type": "boolean"}, "summary": TEXT}},
        "reveal": {"type": "object", "properties": {
            "salt": TEXT, "order": {"type": "array", "items": TEXT, "minItems": 600}}}}}),
        "404": ERROR, "409": ERROR}, secured=False))
def api_results(code: str):
    """After publication: poems, hands, grades, the ranking with who drinks, and the reveal (salt, order)."""
    from poetry.standings import round_results  # loads the grading models only when results are asked for

    code = round_code(code)
    return jsonify(round_results(get_store(), code))


@bp.get("/api/rounds/<code>/events")
@documented(round_operation(
    "即時事件（server-sent events）", {"200": {"description": "text/event-stream",
                                        "content": {"text/event-stream": {"schema": TEXT}}},
                                "404": ERROR, "429": ERROR}, secured=False,
    description="Events: seats, dealt, submitted, reopened, published, graded. Payloads are "
                "public; clients fetch what their seat may see. Resume with Last-Event-ID. "
                "429 past LIVE_STREAMS_PER_CLIENT open streams of one address or LIVE_STREAMS_PER_ROUND of one round."))
def api_events(code: str):
    """Server-sent events: every change of the round, public data only; clients then fetch what they may see."""
    code = round_code(code)
    after = request.headers.get("Last-Event-ID") or request.args.get("after") or "0"
    try:
        after_id = min(max(0, int(after)), 2**31 - 1)  # an id, whatever a client sends
    except ValueError:
        raise BadRequest("「after」必須是整數。") from None
    try:  # 404 for an unknown round before the stream starts
        stream = live.EventStream(current_app.extensions["live_broker"], code, request.remote_addr or "", after_id,
                                  float(current_app.config["EVENT_STREAM_SECONDS"]))
    except live.TooManyStreams as exc:
        raise TooManyRequests(exc.message) from None
    response = Response(stream, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


@bp.get("/api/openapi.json")
@documented({"summary": "這份文件", "responses": {"200": ok({"type": "object"})}})
def openapi():
    """The API described as OpenAPI 3.1, assembled from the routes (views.openapi)."""
    return jsonify(openapi_document(current_app))


# --- pages ---------------------------------------------------------------------------------------


@bp.get("/r/new")
def new_round_page():
    """Open a round (the 詩伯), or join one by its code."""
    return render_template("round_new.html", limits=LIMITS, rhyme_books=RHYME_BOOKS, compositions=COMPOSITIONS,
                           max_wildcards=MAX_WILDCARDS)


@bp.get("/r/join")
def join_by_code():
    """The join-by-code form: go to the round's page."""
    code = normalise_code(request.args.get("code", ""))
    if not code:
        return redirect(url_for("rounds.new_round_page"))
    return redirect(url_for("rounds.round_page", code=round_code(code)))


@bp.get("/r/<code>")
def round_page(code: str):
    """The round: lobby, deal, hand, drafting, submissions, results: one page, updated live."""
    code = round_code(code)
    store = get_store()
    token = request.cookies.get(cookie_name(code))
    seat = store.authenticate(code, token)
    info = store.round_info(code, seat)
    csrf = csrf_token_for(token) if seat is not None else ""
    return render_template("round.html", info=info, csrf=csrf, limits=LIMITS, grades=GRADES, forms=DECLARED_FORMS,
                           rhyme_books=RHYME_BOOKS, compositions=COMPOSITIONS,
                           rhyme_names=_rhyme_names(info["rhyme_book"]))


def _rhyme_names(rhyme_book: str) -> dict[str, str]:
    """For a 简体 reader, the rhyme groups the tiles carry (上平一東) as the page shows them (上平一东).

    The tiles and hands come from the API as stored; the round page labels them with these names.
    """
    if request.cookies.get("script") != "hans":
        return {}
    names = {}
    for book in dict.fromkeys(("pingshui", rhyme_book)):
        names.update((group, to_simplified(group)) for group in get_rhyme_book(book).groups)
    return names


@bp.route("/r/<code>/k/<token>", methods=["GET", "POST"])
def seat_link(code: str, token: str):
    """A private link (the 詩伯's host link, a player's own link): sets the seat cookie on this device.

    When this browser already holds another seat of the round, it asks first: the switch is a POST
    carrying the current seat's CSRF token, so another player's link cannot move a browser silently.
    """
    code = round_code(code)
    store = get_store()
    target = store.authenticate(code, token)
    if target is None:
        raise NotFound("這個私人連結無效。")
    held = request.cookies.get(cookie_name(code))
    current = store.authenticate(code, held)
    if current is not None and current.seat != target.seat:
        if request.method == "GET":
            return render_template("seat_switch.html", info=store.round_info(code), current=current,
                                   target=target, csrf=csrf_token_for(held))
        check_form_csrf(held)
    response = redirect(url_for("rounds.round_page", code=code), code=303 if request.method == "POST" else 302)
    response.headers["Referrer-Policy"] = "no-referrer"
    return remember_seat(response, code, token)


@bp.get("/r/<code>/verify")
def verify_page(code: str):
    """How anyone can check the deal against the commitment, with a check that runs in the browser."""
    code = round_code(code)
    info = get_store().round_info(code)
    return render_template("verify.html", info=info, rhyme_record=get_store().rhyme_record(code))
