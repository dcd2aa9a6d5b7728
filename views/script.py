"""The 繁/简 switch: pages are written in traditional characters and converted for a reader who chose 简体.

The app's own words follow the reader; what people typed (poems, titles, names, comments, tiles) stays
as written: the ``typed`` filter, ``data-verbatim`` JSON blocks, and quotations of the poem inside the
app's sentences (「…」, see ``simplify_quoting``). app.py's error handler uses ``error_for_reader``.
"""

from __future__ import annotations

import re

from flask import Flask, Response, current_app, request
from markupsafe import Markup, escape
from werkzeug.exceptions import HTTPException

from poetry.text import HAN_CLASS, to_simplified

#: The reader's choice: "hans" (简体) or "hant" (繁體, the default).
SCRIPT_COOKIE = "script"


def reader_wants_simplified() -> bool:
    """Whether the reader asking chose 简体."""
    return request.cookies.get(SCRIPT_COOKIE) == "hans"


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
        if not reader_wants_simplified():
            return text
        return _kept(text)

    @app.template_filter("quoting")
    def quoting(value, source) -> Markup:
        """The app's sentence ``value`` in the reader's script, the poem it quotes (from ``source``) as typed.

        For the faults and explanations that quote a line: 「湖下含士容」 stays as the poet wrote it in 简.
        """
        text = "" if value is None else str(value).translate(_NO_MARKS)
        if not reader_wants_simplified():
            return escape(text)
        spans = quoted_spans(text, source or "")
        return Markup("").join(_spliced(text, spans, escape, lambda quote: _kept(escape(quote))))

    @app.after_request
    def convert_script(response: Response) -> Response:
        if not reader_wants_simplified() or response.direct_passthrough:
            return response
        if response.mimetype == "text/html":  # JSON errors are converted by app.py's handler (error_for_reader)
            response.set_data(simplify_html(response.get_data(as_text=True)))
        return response


def error_for_reader(detail: str, violations: list | None) -> tuple[str, list | None]:
    """An error's ``detail`` and ``violations`` messages for a 简体 reader: the app's words converted, and
    what the user sent that the message quotes (「東坡」 already taken) as they typed it.
    """
    try:
        sent = "\n".join(_strings_in(request.get_json(silent=True)))
    except HTTPException:  # a body too large to read (413) quotes nothing
        sent = ""
    if violations:
        violations = [
            {**item, "message": simplify_quoting(item["message"], sent)}
            if isinstance(item, dict) and isinstance(item.get("message"), str) else item
            for item in violations
        ]
    return simplify_quoting(detail, sent), violations


def _strings_in(value, depth: int = 0):
    """The strings in a JSON value (a request body), depth-first, a few levels deep."""
    if isinstance(value, str):
        yield value
    elif depth < 4 and isinstance(value, dict):
        for item in value.values():
            yield from _strings_in(item, depth + 1)
    elif depth < 4 and isinstance(value, list):
        for item in value:
            yield from _strings_in(item, depth + 1)


#: A quotation in the app's sentences (「…」『…』（…）); the runs of Han characters in it are the candidates.
_QUOTE = re.compile(r"[「『（]([^「」『』（）]*)[」』）]")
_HAN_RUN = re.compile(f"[{HAN_CLASS}]+")


def quoted_spans(message: str, source: str) -> list[tuple[int, int]]:
    """Where ``message`` quotes ``source`` (a poem and its title): runs of Han characters inside 「」『』（）
    that occur in the source as written (punctuation and line breaks aside).

    >>> quoted_spans("首句「溪沆發通引」與末句前後呼應", "溪沆發通引，湖下含士容。")
    [(3, 8)]
    >>> quoted_spans("上下句不甚相屬（兩次）", "溪沆發通引")
    []
    """
    plain = "".join(_HAN_RUN.findall(source))
    spans = []
    for quote in _QUOTE.finditer(message):
        for run in _HAN_RUN.finditer(quote.group(1)):
            if run.group() in plain:
                spans.append((quote.start(1) + run.start(), quote.start(1) + run.end()))
    return spans


def simplify_quoting(message: str, source: str) -> str:
    """``message`` in simplified characters except where it quotes ``source`` (see quoted_spans).

    >>> simplify_quoting("第三句特拗（易桃淺賢鬢：平平仄平仄），屬可用。", "易桃淺賢鬢")
    '第三句特拗（易桃淺賢鬢：平平仄平仄），属可用。'
    >>> simplify_quoting("韻腳『酒』屬上聲二十五有", "入可軒忽酒")
    '韵脚『酒』属上声二十五有'
    """
    return "".join(_spliced(message, quoted_spans(message, source), to_simplified, str))


def _spliced(text: str, spans, outside, inside) -> list[str]:
    """``text`` cut at ``spans`` (sorted, not overlapping): ``inside`` applied to each span, ``outside`` to the rest."""
    out, end = [], 0
    for start, stop in spans:
        out.append(outside(text[end:start]))
        out.append(inside(text[start:stop]))
        end = stop
    out.append(outside(text[end:]))
    return out


#: Left out of the 简体 conversion: a data block the scripts read as the server gave it (tiles, names, poems
#: as typed, like the JSON API), ``<script type="application/json" data-verbatim>…</script>``, and text the
#: ``typed`` filter wrapped in two private-use marks (removed on the way out; stripped from user text first).
_TYPED_OPEN, _TYPED_CLOSE = "\ue000", "\ue001"
_NO_MARKS = {ord(_TYPED_OPEN): None, ord(_TYPED_CLOSE): None}


def _kept(escaped: Markup) -> Markup:
    """Already escaped text wrapped in the marks that keep it out of the 简体 conversion."""
    return Markup(f"{_TYPED_OPEN}{escaped}{_TYPED_CLOSE}")
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
    spans = [match.span() for match in _VERBATIM.finditer(html)]
    return "".join(_spliced(html, spans, to_simplified, _unmarked))


def _unmarked(kept: str) -> str:
    """A verbatim block as it is; typed text without its two marks."""
    return kept[1:-1] if kept.startswith(_TYPED_OPEN) else kept
