"""The live draft checker: the /check page and POST /api/check, both over poetry.checker.check_poem.

The view only validates the request and hands the text to the checker; every prosodic judgement is
the checker's. Bad input raises BadRequest (400) with a Chinese description and never reaches the
checker; app.py answers it.
"""

from __future__ import annotations

import dataclasses

from flask import Blueprint, current_app, jsonify, render_template, request
from werkzeug.exceptions import BadRequest, UnprocessableEntity

from poetry.checker import check_poem
from poetry.errors import PoetryError
from poetry.forms import DECLARED_FORMS, declared_form
from poetry.rules import MAX_WILDCARDS, tile_marks
from poetry.text import MAX_LENGTH, MAX_TITLE_LENGTH, detect_script, to_simplified
from views.openapi import ERROR, FORM, TEXT, documented, json_body, ok
from views.script import reader_wants_simplified, simplify_quoting
from views.seats import json_object, refuse_controls

bp = Blueprint("check", __name__)

#: Longest hand (a player holds 150 tiles; a custom set may be larger, never more than 600).
MAX_HAND = 600
RHYME_BOOKS = ("pingshui", "xinyun", "tongyun")
#: The round's composition rule: rhyme feet from the hand, or 集字 (every character from the hand).
RULES = ("rhyme", "jizi")
FIELDS = ("text", "rhyme_book", "hand", "rule", "title", "wildcards", "form", "gu_ping")
#: Whose 孤平 a 七言 line is judged by (poetry.checker.report.LonePing).
GU_PING = ("wangli", "lenient")


@bp.get("/check")
def check_page():
    """The draft page: type or paste a poem and see its tones, faults and fixes as you type."""
    return render_template("check.html", max_text=MAX_LENGTH, forms=DECLARED_FORMS)


@bp.post("/api/check")
@documented({
    "summary": "平仄檢查：逐字平仄、格律、押韻、病與改字建議",
    "requestBody": json_body({"type": "object", "required": ["text"], "properties": {
        "text": {"type": "string", "maxLength": MAX_LENGTH},
        "rhyme_book": {"enum": list(RHYME_BOOKS), "default": "pingshui"},
        "hand": {"description": "手牌：一串字或單字的列表（改字建議先取手牌）",
                 "oneOf": [{"type": "string"}, {"type": "array", "items": TEXT}]},
        "rule": {"enum": list(RULES), "description": "本局作詩規則：rhyme 韻腳用己牌，jizi 集字"},
        "title": {"type": "string", "maxLength": MAX_TITLE_LENGTH, "description": "詩題（計入用牌）"},
        "wildcards": {"type": "integer", "minimum": 0, "maximum": MAX_WILDCARDS, "description": "集字的白板張數"},
        "form": FORM,
        "gu_ping": {"enum": list(GU_PING), "default": "wangli",
                    "description": "七言孤平的判法：wangli 依王力《漢語詩律學》，第一字不論、亦不能救（預設）；"
                                   "lenient 第一字平聲亦算"}}}),
    "responses": {"200": ok({"type": "object", "properties": {
        "form": {"type": "string", "description": "所宣之體裁（有宣告時）或依詩形所判之體裁"},
        "tiles": {"type": "object", "description": "有手牌時：每字所用之牌（tiles.lines，白板或 null）與用牌數 used"
                                                   "（題目計入；與交卷、詩伯評詩同一規則）"}}}, "檢查報告"),
        "400": ERROR, "422": ERROR},
})
def api_check():
    """Check a poem: {"text", "rhyme_book"?, "hand"?, "rule"?} → the checker's report as JSON.

    With ``rule: "jizi"`` (集字) and a hand, fixes are suggested only from the hand; with ``form`` (a
    declared form: 七言絕句 … 古體) the poem is judged as declared.

    :raise 400: not a JSON object, a field of the wrong type, an unknown rhyme book, a text or hand
        too long, control characters, or a text the checker cannot read (MalformedPoemError).
    :raise 422: the checker failed on this draft (logged; a bug to fix, never a 5xx to the poet).
    """
    text, rhyme_book, hand, rule, title, wildcards, form = _parse_request()
    gu_ping = _parse_gu_ping()
    try:
        report = check_poem(text, rhyme_book=rhyme_book, hand=hand, hand_only=bool(hand) and rule == "jizi",
                            form=form, lone_ping=gu_ping)
    except PoetryError:
        raise
    except Exception:
        # A checker fault on some odd draft must not read as a dead server to a poet mid-line: log it,
        # answer 422 so the editor shows the message and keeps the text, and let the tests catch it.
        current_app.logger.exception("check_poem failed on a draft of %d characters", len(text))
        raise UnprocessableEntity("這份詩稿暫時無法檢查（檢查器出錯，已記錄）。您的詩稿仍在。") from None
    answer = dataclasses.asdict(report)
    if hand is not None:  # which tile each character uses, by the round's one rule (poetry.rules)
        typed = ["".join(cell["char"] for cell in line["chars"]) for line in answer["lines"]]
        answer["tiles"] = tile_marks(title, typed, hand, "jizi" if rule == "jizi" else "rhyme_feet", wildcards)
    return jsonify(_for_reader(answer, reader_wants_simplified()))


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


def _parse_gu_ping() -> str:
    """The request's 孤平 setting ("wangli" when absent), or BadRequest naming the two."""
    gu_ping = (request.get_json(silent=True) or {}).get("gu_ping") or "wangli"
    if gu_ping not in GU_PING:
        raise BadRequest("「gu_ping」只可為 wangli（王力：七言第一字不論）或 lenient（第一字平聲亦算）。")
    return gu_ping


def _unique(chars) -> list[str]:
    """Distinct items in their first order (two traditional fixes may simplify to one character)."""
    return list(dict.fromkeys(chars))


def _parse_request() -> tuple[str, str, str | None, str | None, str, int, str | None]:
    """The request's (text, rhyme_book, hand, rule, title, wildcards, form), or BadRequest with a message a
    poet can act on (an unknown form: UnsupportedFormError, 400, naming the accepted ones)."""
    payload = json_object(FIELDS, '{"text": "床前明月光……"}')

    text = payload.get("text")
    if not isinstance(text, str):
        raise BadRequest("「text」須是一段文字（字串），放入要檢查的詩。")
    if len(text) > MAX_LENGTH:
        raise BadRequest(f"詩稿太長：{len(text)} 字，上限 {MAX_LENGTH} 字。")
    refuse_controls(text, "詩稿")

    rhyme_book = payload.get("rhyme_book", "pingshui")
    if rhyme_book is None:
        rhyme_book = "pingshui"
    if not isinstance(rhyme_book, str) or rhyme_book not in RHYME_BOOKS:
        raise BadRequest("「rhyme_book」只可為 pingshui（平水韻）、xinyun（中華新韻）或 tongyun（中華通韻）。")

    rule = payload.get("rule")
    if rule is not None and rule not in RULES:
        raise BadRequest("「rule」只可為 rhyme（韻腳用己牌）或 jizi（集字：全詩用己牌）。")
    title = payload.get("title") or ""
    if not isinstance(title, str) or len(title) > MAX_TITLE_LENGTH:
        raise BadRequest(f"「title」須是一段文字，至多 {MAX_TITLE_LENGTH} 字。")
    refuse_controls(title, "詩題")
    wildcards = payload.get("wildcards") or 0
    if isinstance(wildcards, bool) or not isinstance(wildcards, int) or not 0 <= wildcards <= MAX_WILDCARDS:
        raise BadRequest(f"「wildcards」須是 0 到 {MAX_WILDCARDS} 的整數（白板張數）。")
    form = declared_form(payload.get("form"))
    return text, rhyme_book, _parse_hand(payload.get("hand")), rule, title, wildcards, form


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
