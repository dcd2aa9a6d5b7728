"""The 詩牌 web app: create_app() wires config, blueprints, error handlers and the script switch.

This is the only place (with views/) that imports Flask; all poetry logic lives in the poetry package.
Run it with `python app.py [--host H] [--port P] [--workers N]` (127.0.0.1:5000, serve.py) or `flask --app app run`.
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path

from flask import Flask, Response, current_app, g, jsonify, make_response, render_template, request
from flask.json.provider import DefaultJSONProvider
from sqlalchemy.exc import DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from werkzeug.exceptions import BadRequest, HTTPException, RequestEntityTooLarge
from werkzeug.middleware.proxy_fix import ProxyFix

import live
from poetry.errors import CompositionError, PoetryError
from poetry.store import Store
from views import check, club, judge, limiting, pages, rounds, script, themes
from views.script import error_for_reader, reader_wants_simplified


def _instance_secret(instance_path: str) -> str:
    """A random secret kept in instance/, so a fresh clone is safe without any setting."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
    return path.read_text().strip()


def default_config(instance_path: str) -> dict[str, object]:
    """Every setting with its default: a fresh clone runs with none set (FLASK_* and test_config override)."""
    return {
        # SQLite in instance/; PostgreSQL by URL (DATABASE_URL or FLASK_DATABASE_URL).
        "DATABASE_URL": "sqlite:///" + os.path.join(instance_path, "shipai.sqlite3"),
        "SECRET_KEY": None,  # None: a random key kept in instance/secret_key
        "MAX_CONTENT_LENGTH": 1 * 1024 * 1024,
        "JSON_AS_ASCII": False,
        # True: `alembic upgrade head` at start, under a lock (PostgreSQL advisory lock, a file lock beside an
        # SQLite file) so that workers take turns; `python app.py` migrates once before its workers start.
        "AUTO_MIGRATE": True,
        # Live updates (live.py, docs/LIVE_UPDATES.md)
        "EVENT_STREAM_SECONDS": 300,  # a live event stream ends after this; EventSource reconnects
        "EVENT_POLL_SECONDS": 0.4,  # SQLite: how often one shared poll per process looks for other processes' events
        "LIVE_STREAMS_PER_CLIENT": 20,  # open event streams per client address (429 past it)
        "LIVE_STREAMS_PER_ROUND": 50,  # open event streams per round (429 past it)
        # Redis, e.g. redis://localhost:6379/0: live events cross processes by pub/sub, and the limits below
        # are counted there; None: NOTIFY on PostgreSQL (a shared poll on SQLite), limits in the database
        "REDIS_URL": None,
        # Limits (README: "Limits and proxies"): Flask-Limiter strings, counted per client in storage every
        # worker shares
        "TRUSTED_PROXIES": 0,  # reverse-proxy hops whose X-Forwarded-For/-Proto to trust (werkzeug's ProxyFix)
        "CREATE_ROUND_LIMIT": "60 per 10 minutes",  # new rounds per client: a club never meets it
        "JOIN_LIMIT": 20,  # join attempts per client in JOIN_WINDOW_SECONDS (wrong codes too)
        "JOIN_WINDOW_SECONDS": 600,
        "WRONG_CODE_LIMIT": "30 per 10 minutes",  # answers 404 (unknown round, bad private link) per client
        "WRITE_LIMIT": "240 per minute",  # writes per seat (drafts are saved as one types)
        "MAX_JSON_DEPTH": 32,  # nesting of a JSON body; deeper is a 400 (a round's bodies need 3)
        "WARM_UP": None,  # None: load the theme and grading models at start unless TESTING
    }


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app: embedded defaults, then FLASK_* / DATABASE_URL / SECRET_KEY, then test_config."""
    app = Flask(__name__, instance_relative_config=True)
    app.json = _GuardedJSONProvider(app)
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(default_config(app.instance_path))
    app.config.from_prefixed_env()
    for name in ("DATABASE_URL", "SECRET_KEY", "REDIS_URL"):
        if os.environ.get(name):
            app.config[name] = os.environ[name]
    if test_config:
        app.config.update(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(app.instance_path)
    if app.config["WARM_UP"] is None:
        app.config["WARM_UP"] = not app.testing
    app.json.ensure_ascii = False
    app.extensions["poetry_store"] = Store(app.config["DATABASE_URL"], migrate=bool(app.config["AUTO_MIGRATE"]))
    hops = int(app.config["TRUSTED_PROXIES"])
    if hops > 0:  # the client is the address the nearest trusted proxy saw, not the proxy's own
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)

    live.init_app(app)

    for module in (pages, check, rounds, themes, judge, club):
        app.register_blueprint(module.bp)
    app.before_request(_refuse_oversized_stream)
    limiting.install(app)
    _register_error_handlers(app)
    _register_security_headers(app)
    script.register_script_switch(app)
    if app.config["WARM_UP"]:
        warm_up()
    return app


def warm_up() -> None:
    """Load the theme and grading models (~1.5 s, once per process) before serving, so no player waits.

    Done here, in the thread that builds the app, not in a background thread: numpy's loader and
    werkzeug's rule compiler both parse Python ASTs, and CPython 3.11 fails ("AST constructor
    recursion depth mismatch") when two threads do that at once (see poetry.data.load_arrays).
    """
    import gc

    from poetry import grading, themes

    themes.warm_up()
    grading.warm_up()
    # the models live as long as the process: left to the collector, each full collection walks their ~300,000
    # objects (up to ~100 ms inside whichever poem is being graded; docs/BENCHMARKS.md, speed15)
    gc.collect()
    gc.freeze()


class _GuardedJSONProvider(DefaultJSONProvider):
    """JSON both ways without a 500: bodies nested too deep are a 400; answers UTF-8 can always carry."""

    def dumps(self, obj, **kwargs) -> str:
        """A lone surrogate echoed from a request becomes U+FFFD."""
        return _encodable(super().dumps(obj, **kwargs))

    def loads(self, s, **kwargs):
        """Parse a body; BadRequest (400, in Chinese) when it nests deeper than MAX_JSON_DEPTH.

        The parser recurses once per level and would raise RecursionError near 1,000 levels: a 2 KB
        body. Catching that and bounding the depth of what did parse makes either case a 400.
        """
        limit = int(self._app.config["MAX_JSON_DEPTH"])
        try:
            value = super().loads(s, **kwargs)
        except RecursionError:
            raise BadRequest(f"JSON 巢狀太深：最多 {limit} 層。") from None
        if _nesting_exceeds(value, limit):
            raise BadRequest(f"JSON 巢狀太深：最多 {limit} 層。")
        return value


def _nesting_exceeds(value: object, limit: int) -> bool:
    """Whether ``value`` holds lists or objects more than ``limit`` deep (without recursing).

    >>> _nesting_exceeds({"chars": ["山", "水"]}, 2), _nesting_exceeds([[["山"]]], 2)
    (False, True)
    """
    stack = [(value, 1)] if isinstance(value, (dict, list)) else []
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def _refuse_oversized_stream() -> None:
    """A chunked body (no Content-Length) longer than MAX_CONTENT_LENGTH is a 413, like a declared one.

    Werkzeug stops reading such a stream at the limit and hands back what it read, which would
    parse as broken JSON (a 400); the body read here is cached for the view.
    """
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    if request.content_length is None and limit and request.environ.get("wsgi.input_terminated"):
        if len(request.get_data(cache=True)) >= limit:
            raise RequestEntityTooLarge()


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def _register_error_handlers(app: Flask) -> None:
    """The one error path: views raise, these answer (JSON for the API, an HTML page otherwise)."""
    app.register_error_handler(PoetryError, _poetry_error)
    app.register_error_handler(HTTPException, _http_error)
    for storage_error in STORAGE_ERRORS:
        app.register_error_handler(storage_error, _storage_error)
    app.register_error_handler(Exception, _unexpected_error)


def _poetry_error(exc: PoetryError):
    """Input that cannot be judged: the error's own status (400, 403 … 422, 429) and Chinese message."""
    violations = exc.violations if isinstance(exc, CompositionError) else None
    return _error_response(exc.status, type(exc).__name__, exc.message, violations)


def _http_error(exc: HTTPException):
    """An HTTP error keeps its code; the view's own (Chinese) description, else ours, never Werkzeug's English.

    Flask answers an exception raised outside the view (an after_request function, say) as a 500 wrapping
    it; when that exception is the database's, it is answered as the database's (503, Retry-After).
    """
    if isinstance(getattr(exc, "original_exception", None), STORAGE_ERRORS):
        return _storage_error(exc.original_exception)
    custom = exc.description if isinstance(exc.description, str) else ""
    if custom == type(exc).description:
        custom = ""
    status = exc.code or 500
    response = _error_response(status, exc.name, custom or _CHINESE_HTTP.get(status)
                               or _CHINESE_HTTP[400 if status < 500 else 500])
    for name, value in exc.get_headers():  # a 405 keeps its Allow
        if name.lower() != "content-type":
            response.headers[name] = value
    return response


#: The database cannot be reached or written (down, restarting, disk full, locked, pool exhausted).
STORAGE_ERRORS = (OperationalError, InterfaceError, DisconnectionError, PoolTimeoutError)


def _storage_error(exc: Exception):
    """The database cannot be reached or written (down, disk full, locked): a 503 that claims nothing saved.

    Pages keep what was typed in the browser and send it again after Retry-After seconds.
    """
    current_app.logger.warning("storage unavailable: %s", exc)
    detail = _STORAGE_WRITE if request.method in ("POST", "PUT", "PATCH", "DELETE") else _STORAGE_READ
    response = _error_response(503, "Service Unavailable", detail)
    response.headers["Retry-After"] = str(STORAGE_RETRY_SECONDS)
    return response


def _unexpected_error(exc: Exception):
    """A bug: logged, and a 500 that claims nothing about what was saved."""
    current_app.logger.exception("unhandled error")
    return _error_response(500, "Internal Server Error", _CHINESE_HTTP[500])


def _error_response(status: int, error: str, detail: str, violations: list | None = None) -> Response:
    """Every error in one shape: JSON {error, detail[, violations]} for the API, error.html for a page.

    A 简体 reader gets the detail in 简体 (a page through the HTML conversion), except where it quotes what
    they sent, which stays as typed (views.script.error_for_reader).
    """
    detail = _encodable(detail)
    if not _wants_json():
        return make_response(render_template("error.html", status=status, error=error, detail=detail), status)
    if reader_wants_simplified():
        detail, violations = error_for_reader(detail, violations)
    body = {"error": error, "detail": detail}
    if violations is not None:
        body["violations"] = violations
    return make_response(jsonify(body), status)


def _encodable(text: str) -> str:
    r"""A message that echoes user input, with lone surrogates (which UTF-8 cannot carry) shown as U+FFFD.

    >>> _encodable("不是單字：「\ud800」")
    '不是單字：「\ufffd」'
    """
    return _SURROGATES.sub("\ufffd", text) if text else text


_SURROGATES = re.compile("[\ud800-\udfff]")

_CHINESE_HTTP = {
    400: "請求有誤，無法處理。",
    401: "請先入座（用私人連結）再試。",
    403: "沒有權限做這件事。",
    404: "找不到這個頁面或資料。",
    405: "不支援這種請求方法。",
    413: "內容太長了。",
    415: "請以 JSON 送出。",
    429: "操作太頻繁，請稍候再試。",
    500: "伺服器出錯了，請稍後再試。",
}
#: How long a client waits before sending a write again when the database is unavailable.
STORAGE_RETRY_SECONDS = 5
_STORAGE_WRITE = "資料庫暫時無法寫入：尚未儲存，稍後自動重試。"
_STORAGE_READ = "資料庫暫時無法使用，請稍後再試。"


def _register_security_headers(app: Flask) -> None:
    """Every answer says how a browser may use it: CSP with a per-request nonce, no framing, no sniffing.

    Inline scripts carry ``nonce="{{ csp_nonce() }}"``; style attributes (the width of a bar) are allowed,
    and cannot run script. Every answer but the static files is ``Cache-Control: no-store``: a hand, a
    draft, a seat page or the 詩伯's dashboard must never stay in a shared or back-button cache.
    """

    @app.context_processor
    def nonce_context():
        return {"csp_nonce": _csp_nonce}

    @app.after_request
    def security_headers(response: Response) -> Response:
        nonce = g.get("csp_nonce")
        script_src = f"'self' 'nonce-{nonce}'" if nonce else "'self'"
        response.headers.setdefault("Content-Security-Policy", (
            f"default-src 'self'; script-src {script_src}; style-src 'self'; style-src-attr 'unsafe-inline'; "
            "img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"))
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        if request.endpoint != "static" and "Cache-Control" not in response.headers:
            response.headers["Cache-Control"] = "no-store"
        return response


def _csp_nonce() -> str:
    """This request's script nonce (one per request, made when a template first asks)."""
    if "csp_nonce" not in g:
        g.csp_nonce = secrets.token_urlsafe(16)
    return g.csp_nonce


if __name__ == "__main__":
    # `python app.py [--host H] [--port P] [--workers N]`: gunicorn's gevent worker (serve.py, docs/LIVE_UPDATES.md)
    import serve

    raise SystemExit(serve.main())
