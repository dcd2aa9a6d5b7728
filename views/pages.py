"""Home page and the 繁/简 switch: pages are written in traditional characters and converted on the way out.

The conversion itself (filters, the after-request hook, the quoting rule) lives in views.script.
"""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for

from views.script import SCRIPT_COOKIE

bp = Blueprint("pages", __name__)


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
