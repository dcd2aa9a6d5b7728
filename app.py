"""The 詩牌 web app: create_app() wires config, blueprints, error handlers and the script switch.

This is the only place (with views/) that imports Flask; all poetry logic lives in the poetry package.
Run it with `python app.py` (127.0.0.1:5000) or `flask --app app run`.
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path

from flask import Flask, jsonify, render_template, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import HTTPException

from poetry.errors import PoetryError


def _instance_secret(instance_path: str) -> str:
    """A random secret kept in instance/, so a fresh clone is safe without any setting."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
    return path.read_text().strip()


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app: embedded defaults, then FLASK_* / DATABASE_URL / SECRET_KEY, then test_config."""
    app = Flask(__name__, instance_relative_config=True)
    app.json = _EncodableJSONProvider(app)
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        DATABASE_URL="sqlite:///" + os.path.join(app.instance_path, "shipai.sqlite3"),
        MAX_CONTENT_LENGTH=1 * 1024 * 1024,
        JSON_AS_ASCII=False,
    )
    app.config.from_prefixed_env()
    for name in ("DATABASE_URL", "SECRET_KEY"):
        if os.environ.get(name):
            app.config[name] = os.environ[name]
    if test_config:
        app.config.update(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(app.instance_path)
    app.json.ensure_ascii = False

    from views import check, judge, pages, rounds, themes

    for module in (pages, check, rounds, themes, judge):
        app.register_blueprint(module.bp)
        init = getattr(module, "init_app", None)
        if init is not None:
            init(app)

    _register_error_handlers(app)
    pages.register_script_switch(app)
    app.config.setdefault("WARM_UP", not app.testing)
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
    """PoetryError → 400/422, HTTP errors keep their code; the API answers JSON, pages answer HTML."""

    def respond(status: int, error: str, detail: str):
        detail = _encodable(detail)
        if _wants_json():
            return jsonify(error=error, detail=detail), status
        return render_template("error.html", status=status, error=error, detail=detail), status

    @app.errorhandler(PoetryError)
    def poetry_error(exc: PoetryError):
        return respond(exc.status, type(exc).__name__, exc.message)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        # The view's own (Chinese) message first; Werkzeug's English default gives way to ours.
        custom = exc.description if isinstance(exc.description, str) else ""
        if custom == type(exc).description:
            custom = ""
        status = exc.code or 500
        return respond(status, exc.name, custom or _CHINESE_HTTP.get(status) or _CHINESE_HTTP[400 if status < 500 else 500])

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        app.logger.exception("unhandled error")
        return respond(500, "Internal Server Error", "伺服器出錯了，您的內容未遺失，請稍後再試。")


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
    # The development server, threaded so that live event streams do not block other requests.
    # A club serves with gunicorn: see README.
    create_app().run(host="127.0.0.1", port=5000, threaded=True)
