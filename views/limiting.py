"""Limits on every door: creating rounds, joining, writing, and guessing round codes or private links.

Flask-Limiter counts per client in storage every worker shares: the store's own database
(poetry.store.ratelimit, one atomic statement per count) or Redis when ``REDIS_URL`` is set; never
one process's memory. A client is the address the request came from, as werkzeug's ProxyFix gives
it behind ``TRUSTED_PROXIES`` hops; a write is counted per seat (its token), so players behind one
address do not share a budget. A refused request is a 429 with ``Retry-After`` and a Chinese message,
answered by app.py's one error path like every other error.
"""

from __future__ import annotations

from flask import Flask, Response, current_app, request
from flask_limiter import ApplicationLimit, Limiter
from sqlalchemy.exc import SQLAlchemyError

from poetry.store import hash_token
from views.seats import WRITE_METHODS, seat_token

#: The views with a limit of their own (endpoint → setting); every other door is limited below.
ROUTE_LIMITS = {
    "rounds.api_create_round": "CREATE_ROUND_LIMIT",
    "rounds.api_join": "JOIN_LIMIT",
}
TOO_MANY = "操作太頻繁，請稍候再試（Retry-After 秒後）。"
TOO_MANY_JOINS = "加入嘗試太頻繁，請稍後再試。"
TOO_MANY_WRONG = "找不到的牌局或連結太多次，請稍後再試。"


def client_address() -> str:
    """Who is asking, for a limit: the client's address (behind trusted proxies, the one they saw)."""
    return request.remote_addr or "unknown"


def seat_or_address() -> str:
    """A write's budget: the seat's token (hashed) when the request carries one, else the address."""
    code = (request.view_args or {}).get("code")
    token = seat_token(code) if code else None
    return "seat:" + hash_token(token) if token else client_address()


def limit_setting(name: str) -> str:
    """A limit from the config as Flask-Limiter reads it (JOIN_LIMIT is a count per JOIN_WINDOW_SECONDS)."""
    config = current_app.config
    if name == "JOIN_LIMIT":
        return f"{int(config['JOIN_LIMIT'])} per {int(config['JOIN_WINDOW_SECONDS'])} seconds"
    return str(config[name])


def _not_a_round_write() -> bool:
    return request.method not in WRITE_METHODS or "code" not in (request.view_args or {}) \
        or request.endpoint == "rounds.api_join"


def _static() -> bool:
    return request.endpoint == "static"


def _not_found(response: Response) -> bool:
    return response.status_code == 404


def install(app: Flask) -> Limiter:
    """Limit this app's doors (after its blueprints are registered); the Limiter is app.extensions'."""
    redis_url = app.config["REDIS_URL"]
    options = {} if redis_url else {"engine": app.extensions["poetry_store"].engine}
    limiter = Limiter(
        client_address, app=app, storage_uri=redis_url or "shipai+sqlalchemy://", storage_options=options,
        strategy="fixed-window", headers_enabled=True, swallow_errors=False, key_prefix="shipai",
        application_limits=[
            ApplicationLimit(lambda: limit_setting("WRONG_CODE_LIMIT"), key_function=client_address,
                             scope="wrong-code", exempt_when=_static, deduct_when=_not_found,
                             error_message=TOO_MANY_WRONG),
            ApplicationLimit(lambda: limit_setting("WRITE_LIMIT"), key_function=seat_or_address, scope="writes",
                             exempt_when=_not_a_round_write, error_message=TOO_MANY),
        ],
    )
    for endpoint, setting in ROUTE_LIMITS.items():
        message = TOO_MANY_JOINS if setting == "JOIN_LIMIT" else TOO_MANY
        app.view_functions[endpoint] = limiter.limit(
            lambda setting=setting: limit_setting(setting), key_func=client_address, error_message=message,
        )(app.view_functions[endpoint])
    _guard_limit_headers(app, limiter)
    return limiter


def _guard_limit_headers(app: Flask, limiter: Limiter) -> None:
    """After the view, the limiter reads its counts again for the X-RateLimit headers: never fail the answer then.

    The check before the view fails closed (a storage error there is app.py's 503, nothing done). But the
    headers are read after the view has answered, perhaps after a draft was saved: if the database went
    away in between, Flask would turn the whole answer into a 500. So the answer goes out without them
    (a warning is logged), and a 503 keeps its own Retry-After, not the end of the limit's window (the
    page waits that long before it saves again).
    """
    functions = app.after_request_funcs.setdefault(None, [])
    index = next(i for i, function in enumerate(functions)  # functools.partial(Limiter.__inject_headers, limiter)
                 if limiter in (getattr(function, "__self__", None), *getattr(function, "args", ())))
    inject_headers = functions[index]

    def limit_headers(response: Response) -> Response:
        own_retry_after = response.headers.get("Retry-After") if response.status_code == 503 else None
        try:
            response = inject_headers(response)
        except (SQLAlchemyError, *_redis_errors()) as exc:
            current_app.logger.warning("rate-limit headers left out, storage unavailable: %s", exc)
        if own_retry_after is not None:
            response.headers["Retry-After"] = own_retry_after
        return response

    functions[index] = limit_headers


def _redis_errors() -> tuple[type[Exception], ...]:
    """Redis's connection errors when the redis client is installed (REDIS_URL), else none."""
    try:
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeoutError
    except ImportError:
        return ()
    return RedisConnectionError, RedisTimeoutError

