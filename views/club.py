"""A round as a club plays it, on the web: withdrawing a poem, a rematch with the same table, following it.

The settings a club adds at creation (``cups``, ``minutes``, ``rhyme_draw``) are read by
views.rounds.api_create_round and checked by poetry.store.fields; the clock's and the 韻牌's rules are
poetry.rules'. Views parse, call the store, answer; errors are raised (app.py answers them).
"""

from __future__ import annotations

from flask import Blueprint, jsonify, redirect, request, url_for
from werkzeug.exceptions import NotFound

from poetry.rules import MAX_MINUTES
from poetry.store import GRADES
from poetry.store.fields import MAX_CUPS
from views.openapi import ERROR, TEXT, documented, ok, round_operation
from views.seats import cookie_name, current_seat, get_store, json_object, remember_seat, round_code

bp = Blueprint("club", __name__)

#: The club's settings in the body of POST /api/rounds (documented there).
CLUB_SETTINGS = {
    "cups": {"type": "object", "description": "罰酒杯數 per 品; default 上品 0, 中品 0, 下品 1, 荒牌 2",
             "properties": {g: {"type": "integer", "minimum": 0, "maximum": MAX_CUPS} for g in GRADES},
             "additionalProperties": False},
    "minutes": {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_MINUTES,
                "description": "the clock: minutes to write after the deal (fractions allowed); absent: no clock"},
    "rhyme_draw": {"type": "boolean", "default": False,
                   "description": "韻牌: each seat draws a 平聲 rhyme with the deal; its feet must be of it"},
}


@bp.post("/api/rounds/<code>/withdraw")
@documented(round_operation(
    "撤回自己已交的詩（公佈前、詩伯評品前）；詩稿保留", {"200": ok({"type": "object", "properties": {
        "withdrawn": {"type": "boolean"}, "seat": {"type": "integer"}, "title": TEXT, "text": TEXT}}),
        "403": ERROR, "404": ERROR, "409": ERROR}))
def api_withdraw(code: str):
    """A player takes back their poem: it is a draft again, with its text; the others see 「撤回」."""
    code = round_code(code)
    seat = current_seat(code)
    json_object((), "{}")  # a JSON object body, as every write takes (a cross-site form cannot post one)
    return jsonify(get_store().withdraw(code, seat))


@bp.post("/api/rounds/<code>/rematch")
@documented(round_operation(
    "詩伯再開一局：同樣的人、同樣的座位、同樣的連結", {"201": ok({"type": "object", "properties": {
        "code": TEXT, "previous_code": TEXT, "round_url": TEXT}}),
        "403": ERROR, "404": ERROR, "409": ERROR}))
def api_rematch(code: str):
    """After publication, the 詩伯 opens the next round of the series with the same table."""
    code = round_code(code)
    seat = current_seat(code)
    json_object((), "{}")
    made = get_store().rematch(code, seat)
    made["round_url"] = url_for("rounds.round_page", code=made["code"], _external=True)
    return jsonify(made), 201


@bp.get("/api/rounds/<code>/poems")
@documented(round_operation(
    "詩伯讀已交的詩（同作的詩伯須先交自己的詩）", {"200": ok({"type": "object", "properties": {
        "poems": {"type": "array"}, "hidden": {"type": "boolean"}}}), "403": ERROR, "404": ERROR}))
def api_poems(code: str):
    """The poems handed in, for the 詩伯's round page (a playing 詩伯: only after handing in their own)."""
    code = round_code(code)
    return jsonify(get_store().poems_for_host(code, current_seat(code)))


@bp.get("/r/<code>/follow")
def follow(code: str):
    """Follow a rematch from the previous round's page: this device's seat there is its seat here."""
    code = round_code(code)
    store = get_store()
    previous = store.round_info(code)["previous_code"]
    token = request.cookies.get(cookie_name(previous)) if previous else None
    response = redirect(url_for("rounds.round_page", code=code))
    if token and store.authenticate(code, token) is not None:
        return remember_seat(response, code, token)
    if previous is None:
        raise NotFound("這局不是再開的一局。")
    return response  # a spectator of the previous round is a spectator here
