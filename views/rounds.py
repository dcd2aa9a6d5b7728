"""Rounds on the web: the JSON API (documented at /api/openapi.json), the pages and the live event stream.

Thin views: parse the request, find the seat the request speaks for (Bearer token or the round's
HttpOnly cookie), make one call to poetry.store.Store, answer JSON or a page. Live updates are
server-sent events read from the store's event table (docs/LIVE_UPDATES.md says why).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from datetime import timedelta

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)

from poetry.prosody import get_rhyme_book
from poetry.store import (
    COMPOSITIONS,
    GRADES,
    LIMITS,
    MAX_WILDCARDS,
    RHYME_BOOKS,
    CompositionError,
    RoundNotFound,
    Seat,
    Store,
    WrongPhase,
    normalise_code,
)
from poetry.text import to_simplified

bp = Blueprint("rounds", __name__)

COOKIE_PREFIX = "shipai_"
COOKIE_MAX_AGE = 60 * 24 * 3600
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


def init_app(app: Flask) -> None:
    """Open the store on DATABASE_URL (running the Alembic migrations) and map its composition errors."""
    app.config.setdefault("EVENT_STREAM_SECONDS", 300)  # a stream ends after this; EventSource reconnects
    app.config.setdefault("EVENT_POLL_SECONDS", 0.4)  # how often a stream looks for other workers' events
    app.config.setdefault("JOIN_LIMIT", 20)
    app.config.setdefault("JOIN_WINDOW_SECONDS", 600)
    # True: `alembic upgrade head` at start. With several workers on PostgreSQL, migrate once before
    # starting them (alembic -c migrations/alembic.ini upgrade head) and set FLASK_AUTO_MIGRATE=false.
    app.config.setdefault("AUTO_MIGRATE", True)
    store = Store(
        app.config["DATABASE_URL"],
        migrate=bool(app.config["AUTO_MIGRATE"]),
        join_limit=int(app.config["JOIN_LIMIT"]),
        join_window=timedelta(seconds=int(app.config["JOIN_WINDOW_SECONDS"])),
    )
    app.extensions["poetry_store"] = store

    @app.errorhandler(CompositionError)
    def composition_error(exc: CompositionError):
        return jsonify(error="CompositionError", detail=exc.message, violations=exc.violations), exc.status


def get_store() -> Store:
    """The app's Store (other blueprints, e.g. the judge dashboard, use it too)."""
    return current_app.extensions["poetry_store"]


# --- who is asking -------------------------------------------------------------------------------


def cookie_name(code: str) -> str:
    return COOKIE_PREFIX + normalise_code(code)


def csrf_token_for(token: str) -> str:
    """The CSRF token of a seat's session: an HMAC of its seat token, sent back in X-CSRF-Token."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, b"csrf:" + token.encode(), hashlib.sha256).hexdigest()[:32]


def current_seat(code: str) -> Seat | None:
    """The seat this request speaks for. Cookie-authenticated writes must carry the CSRF header."""
    header = request.headers.get("Authorization", "")
    if header[:7].lower() == "bearer ":
        return get_store().authenticate(code, header[7:].strip())
    token = request.cookies.get(cookie_name(code))
    seat = get_store().authenticate(code, token)
    if seat is not None and request.method in WRITE_METHODS:
        sent = request.headers.get("X-CSRF-Token", "")
        if not hmac.compare_digest(sent.encode(), csrf_token_for(token).encode()):
            abort(403, "缺少或錯誤的 CSRF 驗證碼：請重新整理頁面再試。")
    return seat


def _remember(response: Response, code: str, token: str) -> Response:
    response.set_cookie(cookie_name(code), token, max_age=COOKIE_MAX_AGE, httponly=True, samesite="Lax",
                        secure=request.is_secure, path="/")
    return response


def _body() -> dict:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        abort(400, "請以 JSON 物件送出（Content-Type: application/json）。")
    return data


def _code(code: str) -> str:
    code = normalise_code(code)
    if not code.isalnum() or len(code) > 12:
        raise RoundNotFound("牌局代碼只含字母與數字。")
    return code


# --- the JSON API --------------------------------------------------------------------------------


@bp.post("/api/rounds")
def api_create_round():
    """Open a round; the 詩伯's token is returned once and set as a cookie."""
    data = _body()
    tile_set = data.get("tile_set")
    if tile_set is not None:
        if not isinstance(tile_set, (str, list)):
            abort(400, "「tile_set」須是 JSON 或 CSV 文字，或字的列表。")
        from poetry.tiles import validate_tile_set

        tile_set = validate_tile_set(tile_set)  # InvalidHandError → 422 with the offending characters
    created = get_store().create_round(
        title=data.get("title"), host_name=data.get("host_name"), host_plays=data.get("host_plays"),
        rhyme_book=data.get("rhyme_book"), penalty=data.get("penalty"), composition=data.get("composition"),
        wildcards=data.get("wildcards"), tile_set=tile_set,
    )
    created["host_link"] = url_for("rounds.seat_link", code=created["code"], token=created["host_token"],
                                    _external=True)
    created["round_url"] = url_for("rounds.round_page", code=created["code"], _external=True)
    return _remember(jsonify(created), created["code"], created["host_token"]), 201


@bp.post("/api/rounds/<code>/join")
def api_join(code: str):
    """Take a seat with a name; 409 when the table is full."""
    code = _code(code)
    header = request.headers.get("Authorization", "")
    token = header[7:].strip() if header[:7].lower() == "bearer " else request.cookies.get(cookie_name(code))
    if get_store().authenticate(code, token) is not None:
        raise WrongPhase("你已經在這局入座了。")
    data = _body()
    joined = get_store().join(code, data.get("name"), client=request.remote_addr or "")
    joined["link"] = url_for("rounds.seat_link", code=joined["code"], token=joined["token"], _external=True)
    return _remember(jsonify(joined), joined["code"], joined["token"]), 201


@bp.get("/api/rounds/<code>")
def api_round(code: str):
    """The public state of a round (seats, phase, commitment …) and who is asking."""
    code = _code(code)
    return jsonify(get_store().round_info(code, current_seat(code)))


@bp.post("/api/rounds/<code>/deal")
def api_deal(code: str):
    """The 詩伯's 抽牌."""
    code = _code(code)
    return jsonify(get_store().deal(code, current_seat(code)))


@bp.get("/api/rounds/<code>/hand")
def api_hand(code: str):
    """One's own 150 tiles, in draw order."""
    code = _code(code)
    return jsonify(get_store().hand(code, current_seat(code)))


@bp.get("/api/rounds/<code>/hands")
def api_hands(code: str):
    """Every hand: the 詩伯's record (403 for others until publication)."""
    code = _code(code)
    return jsonify(get_store().hands(code, current_seat(code)))


@bp.get("/api/rounds/<code>/draft")
def api_get_draft(code: str):
    """One's own draft (or the submitted poem, while locked)."""
    code = _code(code)
    return jsonify(get_store().get_draft(code, current_seat(code)))


@bp.put("/api/rounds/<code>/draft")
def api_save_draft(code: str):
    """Save one's draft as one types."""
    code = _code(code)
    seat = current_seat(code)
    data = _body()
    return jsonify(get_store().save_draft(code, seat, data.get("title"), data.get("text")))


@bp.post("/api/rounds/<code>/submit")
def api_submit(code: str):
    """Hand in title and poem (locked; 422 when the composition rule is broken)."""
    code = _code(code)
    seat = current_seat(code)
    data = _body()
    return jsonify(get_store().submit(code, seat, data.get("title"), data.get("text")))


@bp.post("/api/rounds/<code>/reopen")
def api_reopen(code: str):
    """The 詩伯 unlocks one seat's submission."""
    code = _code(code)
    seat = current_seat(code)
    data = _body()
    return jsonify(get_store().reopen(code, seat, data.get("seat")))


@bp.post("/api/rounds/<code>/publish")
def api_publish(code: str):
    """The 詩伯 publishes the round."""
    code = _code(code)
    return jsonify(get_store().publish(code, current_seat(code)))


@bp.get("/api/rounds/<code>/results")
def api_results(code: str):
    """After publication: poems, hands, grades, the ranking with who drinks, and the reveal (salt, order)."""
    from poetry.standings import round_results  # loads the grading models only when results are asked for

    code = _code(code)
    return jsonify(round_results(get_store(), code))


@bp.get("/api/rounds/<code>/events")
def api_events(code: str):
    """Server-sent events: every change of the round, public data only; clients then fetch what they may see."""
    code = _code(code)
    store = get_store()
    store.round_info(code)  # 404 for an unknown round before the stream starts
    after = request.headers.get("Last-Event-ID") or request.args.get("after") or "0"
    try:
        after_id = min(max(0, int(after)), 2**31 - 1)  # an id, whatever a client sends
    except ValueError:
        abort(400, "「after」必須是整數。")
    seconds = float(current_app.config["EVENT_STREAM_SECONDS"])
    poll = float(current_app.config["EVENT_POLL_SECONDS"])

    def stream():
        last, deadline, quiet_since = after_id, time.monotonic() + seconds, time.monotonic()
        yield "retry: 1500\n\n"
        while True:
            batch = store.events_since(code, last)
            for item in batch:
                last = item["id"]
                payload = json.dumps(item["data"], ensure_ascii=False)
                yield f"id: {last}\nevent: {item['kind']}\ndata: {payload}\n\n"
            if time.monotonic() >= deadline:
                return
            if batch:
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since > 10:
                quiet_since = time.monotonic()
                yield ": ping\n\n"  # finds a closed connection, keeps proxies from timing out
            store.wait_for_event(min(poll, max(0.0, deadline - time.monotonic())))

    response = Response(stream_with_context(stream()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


@bp.get("/api/openapi.json")
def openapi():
    """The API described as OpenAPI 3.1."""
    return jsonify(openapi_spec())


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
    return redirect(url_for("rounds.round_page", code=_code(code)))


@bp.get("/r/<code>")
def round_page(code: str):
    """The round: lobby, deal, hand, drafting, submissions, results: one page, updated live."""
    code = _code(code)
    store = get_store()
    token = request.cookies.get(cookie_name(code))
    seat = store.authenticate(code, token)
    info = store.round_info(code, seat)
    csrf = csrf_token_for(token) if seat is not None else ""
    return render_template("round.html", info=info, csrf=csrf, limits=LIMITS, grades=GRADES,
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


@bp.get("/r/<code>/k/<token>")
def seat_link(code: str, token: str):
    """A private link (the 詩伯's host link, a player's own link): sets the seat cookie on this device."""
    code = _code(code)
    if get_store().authenticate(code, token) is None:
        abort(404, "這個私人連結無效。")
    response = redirect(url_for("rounds.round_page", code=code))
    response.headers["Referrer-Policy"] = "no-referrer"
    return _remember(response, code, token)


@bp.get("/r/<code>/verify")
def verify_page(code: str):
    """How anyone can check the deal against the commitment, with a check that runs in the browser."""
    code = _code(code)
    info = get_store().round_info(code)
    return render_template("verify.html", info=info)


# --- OpenAPI -------------------------------------------------------------------------------------


def _schema_ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict, description: str = "") -> dict:
    return {"description": description or "OK", "content": {"application/json": {"schema": schema}}}


def openapi_spec() -> dict:
    """The hand-written OpenAPI document (tests/test_rounds_api.py checks every route is in it)."""
    error = _json(_schema_ref("Error"), "錯誤：detail 為中文說明")
    code_param = {"name": "code", "in": "path", "required": True, "schema": {"type": "string"},
                  "description": "牌局代碼（6 個字母或數字，不分大小寫）"}
    auth = [{"bearer": []}, {"cookie": []}]

    def op(summary, responses, *, body=None, secured=True, description=""):
        operation = {"summary": summary, "parameters": [code_param], "responses": responses}
        if description:
            operation["description"] = description
        if body is not None:
            operation["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
        if secured:
            operation["security"] = auth
        return operation

    text = {"type": "string"}
    tile = {"type": "object", "properties": {"char": text, "tone": {"enum": ["平", "仄"]}, "rhyme": text,
                                             "strokes": {"type": "integer"}}}
    poem_body = {"type": "object", "properties": {
        "title": {"type": "string", "maxLength": LIMITS["poem_title"]},
        "text": {"type": "string", "maxLength": LIMITS["text"]}}}
    return {
        "openapi": "3.1.0",
        "info": {
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
        },
        "components": {
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"},
                "cookie": {"type": "apiKey", "in": "cookie", "name": "shipai_<CODE>"},
            },
            "schemas": {
                "Error": {"type": "object", "required": ["error", "detail"],
                          "properties": {"error": text, "detail": text,
                                         "violations": {"type": "array", "items": {"type": "object"}}}},
                "Seat": {"type": "object", "properties": {
                    "seat": {"type": "integer", "description": "1–4; 0 is a 詩伯 who only judges"},
                    "name": text, "is_host": {"type": "boolean"}, "plays": {"type": "boolean"},
                    "submitted": {"type": "boolean"}}},
                "Tile": tile,
                "Round": {"type": "object", "properties": {
                    "code": text, "title": text, "phase": {"enum": ["lobby", "dealt", "published"]},
                    "rhyme_book": {"enum": list(RHYME_BOOKS)}, "penalty": text,
                    "composition": {"enum": list(COMPOSITIONS)}, "wildcards": {"type": "integer"},
                    "host_plays": {"type": "boolean"}, "seats": {"type": "array", "items": _schema_ref("Seat")},
                    "commitment": {"type": ["string", "null"]},
                    "count_tile": {"type": ["object", "null"]}, "first_seat": {"type": ["integer", "null"]},
                    "turn_order": {"type": ["array", "null"]}, "last_event": {"type": "integer"},
                    "me": {"type": ["object", "null"]}}},
            },
        },
        "paths": {
            "/api/rounds": {"post": {
                "summary": "詩伯開局",
                "requestBody": {"required": True, "content": {"application/json": {"schema": {
                    "type": "object", "required": ["title", "host_name"], "properties": {
                        "title": {"type": "string", "maxLength": LIMITS["title"]},
                        "host_name": {"type": "string", "maxLength": LIMITS["host_name"]},
                        "host_plays": {"type": "boolean", "default": True},
                        "rhyme_book": {"enum": list(RHYME_BOOKS), "default": "pingshui"},
                        "penalty": {"type": "string", "maxLength": LIMITS["penalty"]},
                        "composition": {"enum": list(COMPOSITIONS), "default": "rhyme_feet"},
                        "wildcards": {"type": "integer", "minimum": 0, "maximum": MAX_WILDCARDS},
                        "tile_set": {"description": "custom set: JSON or CSV text, or a list; 600 distinct, 300/300",
                                     "oneOf": [{"type": "string"}, {"type": "array"}]}}}}}},
                "responses": {
                    "201": _json({"type": "object", "properties": {
                        "code": text, "host_token": text, "seat": {"type": "integer"}, "host_link": text,
                        "round_url": text}}, "開局成功；host_token 只給這一次"),
                    "400": error, "422": error},
            }},
            "/api/rounds/{code}": {"get": op("牌局的公開狀態", {"200": _json(_schema_ref("Round")), "404": error},
                                             secured=False)},
            "/api/rounds/{code}/join": {"post": op(
                "以名號入座", {"201": _json({"type": "object", "properties": {
                    "seat": {"type": "integer"}, "token": text, "code": text, "link": text}}),
                    "400": error, "404": error, "409": _json(_schema_ref("Error"), "座位已滿或已抽牌"),
                    "429": _json(_schema_ref("Error"), "加入嘗試太頻繁")},
                body={"type": "object", "required": ["name"],
                      "properties": {"name": {"type": "string", "maxLength": LIMITS["name"]}}}, secured=False)},
            "/api/rounds/{code}/deal": {"post": op(
                "詩伯抽牌：洗牌、承諾、數筆畫、輪抽", {"200": _json({"type": "object", "properties": {
                    "commitment": text, "count_tile": {"type": "object"}, "first_seat": {"type": "integer"},
                    "turn_order": {"type": "array"}, "hand_size": {"type": "integer"}}}),
                    "403": error, "404": error, "409": error})},
            "/api/rounds/{code}/hand": {"get": op(
                "自己的 150 張牌（抽牌順序）", {"200": _json({"type": "object", "properties": {
                    "seat": {"type": "integer"}, "tiles": {"type": "array", "items": _schema_ref("Tile")},
                    "wildcards": {"type": "integer"}}}), "403": error, "404": error, "409": error})},
            "/api/rounds/{code}/hands": {"get": op(
                "所有人的牌（詩伯；公佈後人人可看）", {"200": _json({"type": "object"}), "403": error, "404": error,
                                            "409": error})},
            "/api/rounds/{code}/draft": {
                "get": op("自己的詩稿", {"200": _json({"type": "object"}), "403": error, "404": error}),
                "put": op("儲存詩稿（邊寫邊存）", {"200": _json({"type": "object", "properties": {
                    "saved": {"type": "boolean"}, "revision": {"type": "integer"}, "updated_at": text}}),
                    "400": error, "403": error, "404": error, "409": error}, body=poem_body),
            },
            "/api/rounds/{code}/submit": {"post": op(
                "交卷（鎖定）；回傳檢查報告", {"200": _json({"type": "object"}), "400": error, "403": error,
                                    "404": error, "409": error,
                                    "422": _json(_schema_ref("Error"), "不合作詩規則；violations 列出各字")},
                body=poem_body)},
            "/api/rounds/{code}/reopen": {"post": op(
                "詩伯重開某座的交卷", {"200": _json({"type": "object"}), "400": error, "403": error, "404": error,
                                "409": error},
                body={"type": "object", "required": ["seat"], "properties": {"seat": {"type": "integer"}}})},
            "/api/rounds/{code}/publish": {"post": op(
                "詩伯公佈：詩、牌與洗牌結果", {"200": _json({"type": "object"}), "403": error, "404": error,
                                     "409": error})},
            "/api/rounds/{code}/results": {"get": op(
                "公佈後的結果：詩、牌、品第與名次、reveal {salt, order}", {"200": _json({"type": "object", "properties": {
                    "poems": {"type": "array"}, "hands": {"type": "array"}, "commitment": text, "penalty": text,
                    "ranking": {"type": "object", "properties": {
                        "ranking": {"type": "array"}, "winners": {"type": "array"}, "losers": {"type": "array"},
                        "complete": {"type": "boolean"}, "summary": text}},
                    "reveal": {"type": "object", "properties": {
                        "salt": text, "order": {"type": "array", "items": text, "minItems": 600}}}}}),
                    "404": error, "409": error}, secured=False)},
            "/api/rounds/{code}/events": {"get": {
                **op("即時事件（server-sent events）", {"200": {"description": "text/event-stream",
                                                       "content": {"text/event-stream": {"schema": text}}},
                                                 "404": error}, secured=False),
                "description": "Events: seats, dealt, submitted, reopened, published, graded. Payloads are "
                               "public; clients fetch what their seat may see. Resume with Last-Event-ID.",
            }},
            "/api/rounds/{code}/judge": {"get": op(
                "詩伯評品面板的資料：每首詩的平仄、病、用牌、各項評分與建議品第", {
                    "200": _json({"type": "object"}), "403": error, "404": error})},
            "/api/rounds/{code}/grades": {"post": op(
                "詩伯定一首詩的品第與評語；回傳名次", {"200": _json({"type": "object", "properties": {
                    "saved": {"type": "object"}, "ranking": {"type": "array"}}}),
                    "400": error, "403": error, "404": error, "409": error},
                body={"type": "object", "required": ["seat", "grade"], "properties": {
                    "seat": {"type": "integer"}, "grade": {"enum": list(GRADES)},
                    "comment": {"type": "string", "maxLength": LIMITS["comment"]}}})},
            "/api/check": {"post": {
                "summary": "平仄檢查：逐字平仄、格律、押韻、病與改字建議",
                "requestBody": {"required": True, "content": {"application/json": {"schema": {
                    "type": "object", "required": ["text"], "properties": {
                        "text": {"type": "string", "maxLength": 2000},
                        "rhyme_book": {"enum": list(RHYME_BOOKS), "default": "pingshui"},
                        "hand": {"description": "手牌：一串字或單字的列表（改字建議先取手牌）",
                                 "oneOf": [{"type": "string"}, {"type": "array", "items": text}]}}}}}},
                "responses": {"200": _json({"type": "object"}, "檢查報告"), "400": error, "422": error}}},
            "/api/themes": {"post": {
                "summary": "手牌題材：把一手牌的字歸成題材，附可押之韻與題目",
                "requestBody": {"required": True, "content": {"application/json": {"schema": {
                    "type": "object", "required": ["chars"], "properties": {
                        "chars": {"oneOf": [{"type": "string"}, {"type": "array", "items": text}]}}}}}},
                "responses": {"200": _json({"type": "object", "properties": {"themes": {"type": "array"}}}),
                              "400": error, "422": error}}},
            "/api/grade": {"post": {
                "summary": "評一首詩：各項評分與建議品第（上品、中品、下品、荒牌）",
                "requestBody": {"required": True, "content": {"application/json": {"schema": {
                    "type": "object", "required": ["text"], "properties": {
                        "title": {"type": "string", "maxLength": 100}, "text": {"type": "string", "maxLength": 2000},
                        "thresholds": {"type": "object"},
                        "hand": {"oneOf": [{"type": "string"}, {"type": "array", "items": text}]}}}}}},
                "responses": {"200": _json({"type": "object"}), "400": error}}},
            "/api/openapi.json": {"get": {"summary": "這份文件", "responses": {"200": _json({"type": "object"})}}},
        },
    }


__all__ = ["bp", "init_app", "get_store", "openapi_spec"]
