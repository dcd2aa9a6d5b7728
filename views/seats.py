"""Who is asking, and what they sent: the seat a request speaks for, and the request-body checks every API shares.

A seat proves itself by its token, sent as ``Authorization: Bearer <token>`` (scripts) or in the round's
HttpOnly cookie (pages, set by a private link). A cookie may be sent by another site's form, so a write
that rides on the cookie must also carry the seat's CSRF token in ``X-CSRF-Token``.

The helpers only raise (werkzeug's HTTP errors with a Chinese description, or the store's errors);
app.py answers every error in one shape.
"""

from __future__ import annotations

import hashlib
import hmac
import unicodedata

from flask import Response, current_app, request
from werkzeug.exceptions import BadRequest, Forbidden

from poetry.errors import RoundNotFound
from poetry.store import Seat, Store, normalise_code
from poetry.store.fields import BIDI_CONTROLS

#: The seat cookie of round ABC234 is ``shipai_ABC234``.
COOKIE_PREFIX = "shipai_"
COOKIE_MAX_AGE = 60 * 24 * 3600
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: Control characters a pasted poem may carry harmlessly (they count as line breaks or spaces).
ALLOWED_CONTROLS = frozenset("\t\n\r")


def get_store() -> Store:
    """The app's Store, opened by create_app on DATABASE_URL."""
    return current_app.extensions["poetry_store"]


# --- the seat ------------------------------------------------------------------------------------


def cookie_name(code: str) -> str:
    """The name of a round's seat cookie."""
    return COOKIE_PREFIX + normalise_code(code)


def csrf_token_for(token: str) -> str:
    """The CSRF token of a seat's session: an HMAC of its seat token, sent back in X-CSRF-Token."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, b"csrf:" + token.encode(), hashlib.sha256).hexdigest()[:32]


def _bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    return header[7:].strip() if header[:7].lower() == "bearer " else None


def seat_token(code: str) -> str | None:
    """The token this request carries for round ``code``: the Bearer header, else the round's cookie."""
    token = _bearer_token()
    return token if token is not None else request.cookies.get(cookie_name(code))


def current_seat(code: str) -> Seat | None:
    """The seat this request speaks for; a write riding on the cookie must carry the CSRF header (403)."""
    bearer = _bearer_token()
    if bearer is not None:
        return get_store().authenticate(code, bearer)
    token = request.cookies.get(cookie_name(code))
    seat = get_store().authenticate(code, token)
    if seat is not None and request.method in WRITE_METHODS:
        _check_csrf(token)
    return seat


def check_form_csrf(token: str) -> None:
    """A form post (no script, so no header) carries the seat's CSRF token in its ``csrf`` field."""
    _check_csrf(token, request.form.get("csrf", ""))


def _check_csrf(token: str, sent: str | None = None) -> None:
    sent = request.headers.get("X-CSRF-Token", "") if sent is None else sent
    if not hmac.compare_digest(sent.encode(), csrf_token_for(token).encode()):
        raise Forbidden("缺少或錯誤的 CSRF 驗證碼：請重新整理頁面再試。")


def remember_seat(response: Response, code: str, token: str) -> Response:
    """Set the round's seat cookie on this device (HttpOnly, SameSite=Lax)."""
    response.set_cookie(cookie_name(code), token, max_age=COOKIE_MAX_AGE, httponly=True, samesite="Lax",
                        secure=request.is_secure, path="/")
    return response


def remembered_seats(limit: int) -> list[Seat]:
    """The seats whose cookies this device holds (at most ``limit``), in cookie order."""
    store, seats = get_store(), []
    for name, token in request.cookies.items():
        if name.startswith(COOKIE_PREFIX) and len(seats) < limit:
            seat = store.authenticate(name[len(COOKIE_PREFIX):], token)
            if seat is not None:
                seats.append(seat)
    return seats


def round_code(code: str) -> str:
    """A round code from a URL, normalised (upper case); RoundNotFound (404) for one that cannot be a code."""
    code = normalise_code(code)
    if not code.isalnum() or len(code) > 12:
        raise RoundNotFound("牌局代碼只含字母與數字。")
    return code


# --- the request body ----------------------------------------------------------------------------


def json_object(fields: tuple[str, ...] | None = None, example: str | None = None) -> dict:
    """The request body as a JSON object, with only ``fields`` when given; BadRequest naming what is wrong."""
    payload = request.get_json(silent=True)
    if not isinstance(payload, dict):
        if example is None:
            raise BadRequest("請以 JSON 物件送出（Content-Type: application/json）。")
        raise BadRequest(f"請以 JSON 物件送出，例如 {example}。")
    unknown = sorted(set(payload) - set(fields)) if fields is not None else ()
    if unknown:
        raise BadRequest(f"不認得的欄位：{'、'.join(unknown)[:100]}（只收 {'、'.join(fields)}）。")
    return payload


def refuse_controls(value: str, what: str) -> None:
    """Control characters (NUL, ESC …), bidi overrides (RLO …) and lone surrogates are no part of a poem:
    refuse them by name (every API that reads a poem or a hand asks this)."""
    for char in value:
        category = unicodedata.category(char)
        if (category == "Cc" and char not in ALLOWED_CONTROLS) or category == "Cs" or char in BIDI_CONTROLS:
            raise BadRequest(f"{what}含有無法辨識的控制字元（U+{ord(char):04X}），請刪去後再送出。")
