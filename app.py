"""The 詩牌 web app: create_app() wires config, blueprints, error handlers and the script switch.

This is the only place (with views/) that imports Flask; all poetry logic lives in the poetry package.
Run it with `python app.py [--host H] [--port P] [--workers N]` (127.0.0.1:5000, serve.py) or `flask --app app run`.
"""

from __future__ import annotations

import os
import re
import secrets
from datetime import timedelta
from pathlib import Path

from flask import Flask, current_app, jsonify, render_template, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import HTTPException

import live
from poetry.errors import CompositionError, PoetryError
from poetry.store import Store
from views import check, judge, pages, rounds, script, themes
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
        # True: `alembic upgrade head` at start. With several workers on PostgreSQL, migrate once before
        # starting them (alembic -c migrations/alembic.ini upgrade head) and set FLASK_AUTO_MIGRATE=false.
        "AUTO_MIGRATE": True,
        "JOIN_LIMIT": 20,  # join attempts per client (IP) in the window; wrong codes count too
        "JOIN_WINDOW_SECONDS": 600,
        "EVENT_STREAM_SECONDS": 300,  # a live event stream ends after this; EventSource reconnects
        "EVENT_POLL_SECONDS": 0.4,  # SQLite: how often one shared poll per process looks for other processes' events
        "LIVE_STREAMS_PER_CLIENT": 20,  # open event streams per client address (429 past it)
        "LIVE_STREAMS_PER_ROUND": 50,  # open event streams per round (429 past it)
        "REDIS_URL": None,  # set (or env REDIS_URL): events reach other processes by Redis pub/sub (live.py)
        "WARM_UP": None,  # None: load the theme and grading models at start unless TESTING
    }


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app: embedded defaults, then FLASK_* / DATABASE_URL / SECRET_KEY, then test_config."""
    app = Flask(__name__, instance_relative_config=True)
    app.json = _EncodableJSONProvider(app)
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(default_config(app.instance_path))
    app.config.from_prefixed_env()
    for name in ("DATABASE_URL", "SECRET_KEY"):
        if os.environ.get(name):
            app.config[name] = os.environ[name]
    if test_config:
        app.config.update(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(app.instance_path)
    if app.config["WARM_UP"] is None:
        app.config["WARM_UP"] = not app.testing
    app.json.ensure_ascii = False
    app.extensions["poetry_store"] = Store(
        app.config["DATABASE_URL"],
        migrate=bool(app.config["AUTO_MIGRATE"]),
        join_limit=int(app.config["JOIN_LIMIT"]),
        join_window=timedelta(seconds=int(app.config["JOIN_WINDOW_SECONDS"])),
    )

    live.init_app(app)

    for module in (pages, check, rounds, themes, judge):
        app.register_blueprint(module.bp)
    _register_error_handlers(app)
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
    from poetry import grading, themes

    themes.warm_up()
    grading.warm_up()


class _EncodableJSONProvider(DefaultJSONProvider):
    """JSON that UTF-8 can always carry: a lone surrogate echoed from a request becomes U+FFFD, not a 500."""

    def dumps(self, obj, **kwargs) -> str:
        return _encodable(super().dumps(obj, **kwargs))


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def _register_error_handlers(app: Flask) -> None:
    """The one error path: views raise, these answer (JSON for the API, an HTML page otherwise)."""
    app.register_error_handler(PoetryError, _poetry_error)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected_error)


def _poetry_error(exc: PoetryError):
    """Input that cannot be judged: the error's own status (400, 403 … 422, 429) and Chinese message."""
    violations = exc.violations if isinstance(exc, CompositionError) else None
    return _error_response(exc.status, type(exc).__name__, exc.message, violations)


def _http_error(exc: HTTPException):
    """An HTTP error keeps its code; the view's own (Chinese) description, else ours, never Werkzeug's English."""
    custom = exc.description if isinstance(exc.description, str) else ""
    if custom == type(exc).description:
        custom = ""
    status = exc.code or 500
    return _error_response(status, exc.name, custom or _CHINESE_HTTP.get(status)
                           or _CHINESE_HTTP[400 if status < 500 else 500])


def _unexpected_error(exc: Exception):
    """A bug: logged, and a 500 that tells the reader their text is safe."""
    current_app.logger.exception("unhandled error")
    return _error_response(500, "Internal Server Error", _CHINESE_HTTP[500])


def _error_response(status: int, error: str, detail: str, violations: list | None = None):
    """Every error in one shape: JSON {error, detail[, violations]} for the API, error.html for a page.

    A 简体 reader gets the detail in 简体 (a page through the HTML conversion), except where it quotes what
    they sent, which stays as typed (views.script.error_for_reader).
    """
    detail = _encodable(detail)
    if not _wants_json():
        return render_template("error.html", status=status, error=error, detail=detail), status
    if reader_wants_simplified():
        detail, violations = error_for_reader(detail, violations)
    body = {"error": error, "detail": detail}
    if violations is not None:
        body["violations"] = violations
    return jsonify(body), status


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
    500: "伺服器出錯了，您的內容未遺失，請稍後再試。",
}


if __name__ == "__main__":
    # `python app.py [--host H] [--port P] [--workers N]`: gunicorn's gevent worker (serve.py, docs/LIVE_UPDATES.md)
    import serve

    raise SystemExit(serve.main())
