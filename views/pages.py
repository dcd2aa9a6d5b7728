"""Home page and the 繁/简 switch: pages are written in traditional characters and converted on the way out."""

from __future__ import annotations

from flask import Blueprint, Flask, Response, current_app, redirect, render_template, request, url_for

from poetry.text import to_simplified

bp = Blueprint("pages", __name__)

SCRIPT_COOKIE = "script"


@bp.get("/")
def index():
    """The home page: what the app does and where to start."""
    return render_template("index.html")


@bp.get("/script/<choice>")
def set_script(choice: str):
    """Remember the reader's script (hant = 繁體, hans = 简体) and go back where they were."""
    if choice not in ("hant", "hans"):
        choice = "hant"
    target = request.referrer or url_for("pages.index")
    if not target.startswith(request.host_url):
        target = url_for("pages.index")
    response = redirect(target)
    response.set_cookie(SCRIPT_COOKIE, choice, max_age=365 * 24 * 3600, samesite="Lax")
    return response


def register_script_switch(app: Flask) -> None:
    """Template helpers, and HTML converted to simplified characters for readers who chose 简体."""

    @app.context_processor
    def script_context():
        return {
            "script": request.cookies.get(SCRIPT_COOKIE, "hant"),
            "has_endpoint": lambda name: name in current_app.view_functions,
        }

    @app.after_request
    def convert_script(response: Response) -> Response:
        if (
            request.cookies.get(SCRIPT_COOKIE) == "hans"
            and response.mimetype == "text/html"
            and not response.direct_passthrough
        ):
            response.set_data(to_simplified(response.get_data(as_text=True)))
        return response
