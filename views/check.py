"""The live draft checker: the /check page and POST /api/check, both over poetry.checker.check_poem.

The view only validates the request and hands the text to the checker; every prosodic judgement is
the checker's. Bad input answers 400 with a Chinese ``detail`` and never reaches the checker.
"""

from __future__ import annotations

import dataclasses
import unicodedata

from flask import Blueprint, current_app, jsonify, render_template, request

from poetry.checker import check_poem
from poetry.errors import PoetryError
from poetry.text import detect_script, to_simplified
from views.pages import simplify_quoting

bp = Blueprint("check", __name__)

#: Longest draft the API reads (characters, punctuation included).
MAX_TEXT = 2000
#: Longest hand (a player holds 150 tiles; a custom set may be larger, never more than 600).
MAX_HAND = 600
RHYME_BOOKS = ("pingshui", "xinyun", "tongyun")
#: The round's composition rule: rhyme feet from the hand, or 集字 (every character from the hand).
RULES = ("rhyme", "jizi")
FIELDS = ("text", "rhyme_book", "hand", "rule")
#: Control characters a pasted poem may carry harmlessly (they count as line breaks or spaces).
ALLOWED_CONTROLS = frozenset("\t\n\r")


class BadRequest(ValueError):
    """A request the API refuses, with the Chinese message shown to the user."""


@bp.get("/check")
def check_page():
    """The draft page: type or paste a poem and see its tones, faults and fixes as you type."""
    return render_template("check.html", max_text=MAX_TEXT)


@bp.post("/api/check")
def api_check():
    """Check a poem: {"text", "rhyme_book"?, "hand"?, "rule"?} → the checker's report as JSON.

    With ``rule: "jizi"`` (集字) and a hand, fixes are suggested only from the hand.

    :raise 400: not a JSON object, a field of the wrong type, an unknown rhyme book, a text or hand
        too long, control characters, or a text the checker cannot read (MalformedPoemError).
    :raise 422: the checker failed on this draft (logged; a bug to fix, never a 5xx to the poet).
    """
    reader_hans = request.cookies.get("script") == "hans"
    try:
        text, rhyme_book, hand, rule = _parse_request()
    except BadRequest as exc:
        return _refusal("Bad Request", str(exc), 400, reader_hans)
    try:
        report = check_poem(text, rhyme_book=rhyme_book, hand=hand, hand_only=bool(hand) and rule == "jizi")
    except PoetryError as exc:
        return _refusal(type(exc).__name__, exc.message, exc.status, reader_hans)
    except Exception:
        # A checker fault on some odd draft must not read as a dead server to a poet mid-line: log it,
        # answer 422 so the editor shows the message and keeps the text, and let the tests catch it.
        current_app.logger.exception("check_poem failed on a draft of %d characters", len(text))
        detail = "這份詩稿暫時無法檢查（檢查器出錯，已記錄）。您的詩稿仍在。"
        return _refusal("Unprocessable", detail, 422, reader_hans)
    return jsonify(_for_reader(dataclasses.asdict(report), reader_hans))


def _refusal(error: str, detail: str, status: int, reader_hans: bool):
    return jsonify(error=error, detail=to_simplified(detail) if reader_hans else detail), status


def _for_reader(report: dict, reader_hans: bool) -> dict:
    """The report in the reader's script: explanations in 简体 for a 简体 reader, fixes in the draft's script.

    Characters of the poem stay as typed (the editor maps them back onto the draft, and the messages
    quote its lines as written); only the words around them follow the reader's 繁/简 choice, and
    suggested characters follow the draft's script, so that clicking 「风」 into a simplified draft does
    not drop a 「風」 into it.
    """
    poem = "\n".join(line["text"] for line in report["lines"])
    draft_hans = detect_script(poem) == "hans"
    for violation in report["violations"]:
        if draft_hans:
            violation["suggestions"] = _unique(to_simplified(c) for c in violation["suggestions"])
        if reader_hans:
            violation["message"] = simplify_quoting(violation["message"], poem)
    if reader_hans:
        for key in ("form", "pattern", "rhyme_group"):
            if isinstance(report.get(key), str):
                report[key] = to_simplified(report[key])
        if isinstance(report.get("summary"), str):
            report["summary"] = simplify_quoting(report["summary"], poem)
        report["notes"] = [simplify_quoting(note, poem) for note in report["notes"]]
        for line in report["lines"]:  # rhyme-group names shown beside each character (上平一東 → 上平一东)
            for cell in line["chars"]:
                cell["groups"] = [to_simplified(group) for group in cell.get("groups") or ()]
    return report


def _unique(chars) -> list[str]:
    """Distinct items in their first order (two traditional fixes may simplify to one character)."""
    return list(dict.fromkeys(chars))


def json_object(fields: tuple[str, ...], example: str) -> dict:
    """The request body as a JSON object with only the given fields, or BadRequest naming what is wrong."""
    payload = request.get_json(silent=True)
    if not isinstance(payload, dict):
        raise BadRequest(f"請以 JSON 物件送出，例如 {example}。")
    unknown = sorted(set(payload) - set(fields))
    if unknown:
        raise BadRequest(f"不認得的欄位：{'、'.join(unknown)[:100]}（只收 {'、'.join(fields)}）。")
    return payload


def _parse_request() -> tuple[str, str, str | None, str | None]:
    """The request's (text, rhyme_book, hand, rule), or BadRequest with a message a poet can act on."""
    payload = json_object(FIELDS, '{"text": "床前明月光……"}')

    text = payload.get("text")
    if not isinstance(text, str):
        raise BadRequest("「text」須是一段文字（字串），放入要檢查的詩。")
    if len(text) > MAX_TEXT:
        raise BadRequest(f"詩稿太長：{len(text)} 字，上限 {MAX_TEXT} 字。")
    refuse_controls(text, "詩稿")

    rhyme_book = payload.get("rhyme_book", "pingshui")
    if rhyme_book is None:
        rhyme_book = "pingshui"
    if not isinstance(rhyme_book, str) or rhyme_book not in RHYME_BOOKS:
        raise BadRequest("「rhyme_book」只可為 pingshui（平水韻）、xinyun（中華新韻）或 tongyun（中華通韻）。")

    rule = payload.get("rule")
    if rule is not None and rule not in RULES:
        raise BadRequest("「rule」只可為 rhyme（韻腳用己牌）或 jizi（集字：全詩用己牌）。")
    return text, rhyme_book, _parse_hand(payload.get("hand")), rule


def _parse_hand(hand: object) -> str | None:
    """A hand given as a string or as a list of single characters, as one string; None for no hand."""
    if hand is None:
        return None
    if isinstance(hand, list):
        if len(hand) > MAX_HAND:
            raise BadRequest(f"手牌太多：{len(hand)} 張，上限 {MAX_HAND} 張。")
        if not all(isinstance(tile, str) and len(tile) == 1 for tile in hand):
            raise BadRequest("「hand」的每一張牌須是單一個字。")
        hand = "".join(hand)
    elif isinstance(hand, str):
        if len(hand) > MAX_HAND:
            raise BadRequest(f"手牌太多：{len(hand)} 字，上限 {MAX_HAND} 字。")
    else:
        raise BadRequest("「hand」須是一串字或一列單字，例如 \"山峰江湖\" 或 [\"山\", \"峰\"]。")
    refuse_controls(hand, "手牌")
    return hand


def refuse_controls(value: str, what: str) -> None:
    """Control characters (NUL …) and lone surrogates are no part of a poem: refuse them by name."""
    for char in value:
        category = unicodedata.category(char)
        if (category == "Cc" and char not in ALLOWED_CONTROLS) or category == "Cs":
            raise BadRequest(f"{what}含有無法辨識的控制字元（U+{ord(char):04X}），請刪去後再送出。")
