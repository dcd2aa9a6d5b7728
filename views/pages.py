"""Home page and the 繁/简 switch: pages are written in traditional characters and converted on the way out."""

from __future__ import annotations

import json
import re

from flask import Blueprint, Flask, Response, current_app, redirect, render_template, request, url_for
from markupsafe import Markup, escape

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

    @app.template_filter("typed")
    def typed(value) -> Markup:
        """User text (names, titles, poems, comments, tiles) as typed: never converted to 简体.

        The 简体 reader's chrome is converted; a poem written in 繁體 stays the poet's own, as on the round
        page, and a comment in a textarea is saved back unchanged.
        """
        if isinstance(value, Markup):  # already escaped, e.g. by the join filter
            text = Markup(str.translate(value, _NO_MARKS))
        else:
            text = escape("" if value is None else str(value).translate(_NO_MARKS))
        if request.cookies.get(SCRIPT_COOKIE) != "hans":
            return text
        return Markup(f"{_TYPED_OPEN}{text}{_TYPED_CLOSE}")

    @app.after_request
    def convert_script(response: Response) -> Response:
        if request.cookies.get(SCRIPT_COOKIE) != "hans" or response.direct_passthrough:
            return response
        if response.mimetype == "text/html":
            response.set_data(simplify_html(response.get_data(as_text=True)))
        elif response.mimetype == "application/json" and response.status_code >= 400:
            # Error messages reach the reader through the pages' scripts (join, submit, grade …).
            data = response.get_json(silent=True)
            if isinstance(data, dict) and isinstance(data.get("detail"), str):
                data["detail"] = to_simplified(data["detail"])
                for violation in data.get("violations") or ():
                    if isinstance(violation, dict) and isinstance(violation.get("message"), str):
                        violation["message"] = to_simplified(violation["message"])
                response.set_data(json.dumps(data, ensure_ascii=False))
        return response


#: Left out of the 简体 conversion: a data block the scripts read as the server gave it (tiles, names, poems
#: as typed, like the JSON API), ``<script type="application/json" data-verbatim>…</script>``, and text the
#: ``typed`` filter wrapped in two private-use marks (removed on the way out; stripped from user text first).
_TYPED_OPEN, _TYPED_CLOSE = "\ue000", "\ue001"
_NO_MARKS = {ord(_TYPED_OPEN): None, ord(_TYPED_CLOSE): None}
_VERBATIM = re.compile(
    r'(<script type="application/json"[^>]*\bdata-verbatim\b[^>]*>.*?</script>)|\ue000(.*?)\ue001', re.S
)


def simplify_html(html: str) -> str:
    """The page in simplified characters, except its verbatim data blocks and typed text.

    >>> simplify_html('<p>詩牌</p><script type="application/json" data-verbatim>{"char": "車"}</script>')
    '<p>诗牌</p><script type="application/json" data-verbatim>{"char": "車"}</script>'
    >>> simplify_html('<p>詩題：\ue000春風\ue001</p>')
    '<p>诗题：春風</p>'
    """
    out, end = [], 0
    for match in _VERBATIM.finditer(html):
        out.append(to_simplified(html[end:match.start()]))
        out.append(match.group(1) if match.group(1) is not None else match.group(2))
        end = match.end()
    out.append(to_simplified(html[end:]))
    return "".join(out)
