"""POST /api/check and the /check page: real poems, strict validation, hostile input (never a 5xx)."""

import json
import random
import re

import pytest

from poetry.checker import check_poem
from poetry.prosody import get_rhyme_book
from poetry.text import to_simplified

DENG_GAO = """登高
風急天高猿嘯哀，渚清沙白鳥飛回。
無邊落木蕭蕭下，不盡長江滾滾來。
萬里悲秋常作客，百年多病獨登臺。
艱難苦恨繁霜鬢，潦倒新停濁酒杯。"""

JING_YE_SI = "床前明月光，疑是地上霜。\n舉頭望明月，低頭思故鄉。"

CHINESE = re.compile(r"[\u4e00-\u9fff]")


def post(client, payload=None, **kwargs):
    if payload is not None:
        kwargs["json"] = payload
    return client.post("/api/check", **kwargs)


def assert_chinese_400(response):
    assert response.status_code == 400, response.get_data(as_text=True)
    body = response.get_json()
    assert set(body) >= {"error", "detail"}
    assert CHINESE.search(body["detail"]), body


def violations_at(report):
    return {(v["line"], v["pos"], v["kind"]) for v in report["violations"] if v["severity"] != "note"}


# --- real poems -----------------------------------------------------------------------------------


def test_deng_gao_is_a_regulated_seven_character_octave(client):
    response = post(client, {"text": DENG_GAO})
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    report = response.get_json()
    assert report["regulated"] is True
    assert report["form"] == "七言律詩"
    assert report["rhyme_book"] == "pingshui"
    assert [line["text"] for line in report["lines"]][:2] == ["風急天高猿嘯哀", "渚清沙白鳥飛回"]
    assert [len(line["chars"]) for line in report["lines"]] == [7] * 8
    tones = {c["tone"] for line in report["lines"] for c in line["chars"]}
    assert tones <= {"平", "仄", "可平可仄", "?"}
    qing = report["lines"][1]["chars"][1]
    assert (qing["char"], qing["tone"], qing["required"]) == ("清", "平", "平")


def test_planted_tone_error_is_flagged_at_its_position_with_fixes_of_the_right_tone(client):
    # 渚清沙白 → 渚淺沙白: 淺 is 仄 where line 2 needs 平 at its second character.
    planted = DENG_GAO.replace("渚清沙白", "渚淺沙白")
    report = post(client, {"text": planted}).get_json()
    assert report["regulated"] is False
    assert (2, 2) in {(line, pos) for line, pos, _ in violations_at(report)}
    cell = report["lines"][1]["chars"][1]
    assert cell["char"] == "淺" and cell["required"] == "平" and cell["status"] == "wrong"
    fault = next(v for v in report["violations"] if (v["line"], v["pos"]) == (2, 2))
    assert CHINESE.search(fault["message"])
    book = get_rhyme_book("pingshui")
    assert fault["suggestions"], "a wrong position offers candidate characters"
    for suggestion in fault["suggestions"]:
        assert book.tone_of(suggestion).value in ("平", "可平可仄"), suggestion


def test_simplified_input_gives_the_same_verdict(client):
    traditional = post(client, {"text": DENG_GAO}).get_json()
    simplified = post(client, {"text": to_simplified(DENG_GAO)}).get_json()
    assert simplified["regulated"] == traditional["regulated"]
    assert violations_at(simplified) == violations_at(traditional)


def test_fixes_follow_the_drafts_script_and_words_the_readers(client):
    planted = to_simplified(DENG_GAO.replace("渚清沙白", "渚淺沙白"))
    report = post(client, {"text": planted}).get_json()
    fault = next(v for v in report["violations"] if (v["line"], v["pos"]) == (2, 2))
    assert report["lines"][1]["chars"][1]["char"] == "浅"  # as typed
    assert fault["suggestions"] and all(s == to_simplified(s) for s in fault["suggestions"])

    # A traditional draft gets the checker's own fixes, untouched.
    traditional = post(client, {"text": DENG_GAO.replace("渚清沙白", "渚淺沙白")}).get_json()
    direct = check_poem(DENG_GAO.replace("渚清沙白", "渚淺沙白"))
    assert [v["suggestions"] for v in traditional["violations"]] == [list(v.suggestions) for v in direct.violations]

    client.set_cookie("script", "hans")
    hans = post(client, {"text": DENG_GAO.replace("渚清沙白", "渚淺沙白")}).get_json()
    assert hans["summary"] == to_simplified(traditional["summary"])
    # the words in 简体, the character the message quotes as typed (『淺』, as in the line shown above it)
    assert [v["message"] for v in hans["violations"]] == \
        [to_simplified(v["message"]).replace("『浅』", "『淺』") for v in traditional["violations"]]
    assert "『淺』" in hans["violations"][0]["message"]
    def chars(report):  # the poem's characters as typed, with their tones and statuses
        return [[{k: v for k, v in c.items() if k != "groups"} for c in line["chars"]] for line in report["lines"]]

    assert chars(hans) == chars(traditional)  # the poem's characters stay as typed
    assert hans["lines"][0]["chars"][0]["groups"] == ["上平一东"]  # rhyme-group names in the reader's script
    refused = post(client, {"text": "風急天高猿嘯哀"}).get_json()
    assert refused["detail"] == to_simplified(refused["detail"])


def test_jing_ye_si_is_not_a_regulated_quatrain(client):
    report = post(client, {"text": JING_YE_SI}).get_json()
    assert report["line_count"] == 4 and report["chars_per_line"] == 5
    assert report["regulated"] is False and report["verdict"] == "faults"
    assert "絕" in report["form"]


@pytest.mark.parametrize("book", ["xinyun", "tongyun"])
def test_modern_rhyme_books_are_honoured(client, book):
    report = post(client, {"text": DENG_GAO, "rhyme_book": book}).get_json()
    assert report["rhyme_book"] == book


def test_jizi_rule_suggests_only_from_the_hand(client):
    planted = DENG_GAO.replace("渚清", "渚淺")
    hand = "清明青春山"
    free = post(client, {"text": planted, "hand": hand, "rule": "rhyme"}).get_json()
    jizi = post(client, {"text": planted, "hand": hand, "rule": "jizi"}).get_json()
    fault = next(v for v in jizi["violations"] if (v["line"], v["pos"]) == (2, 2))
    assert fault["suggestions"] and set(fault["suggestions"]) <= set(hand)
    free_fault = next(v for v in free["violations"] if (v["line"], v["pos"]) == (2, 2))
    assert not set(free_fault["suggestions"]) <= set(hand), "without 集字 the fixes go beyond the hand"


def test_unknown_rule_is_refused(client):
    response = post(client, {"text": DENG_GAO, "hand": "山", "rule": "all"})
    assert response.status_code == 400 and "rule" in response.get_json()["detail"]


def test_hand_as_string_or_list_marks_the_same_characters(client):
    hand = "風天高哀回來臺杯"
    as_string = post(client, {"text": DENG_GAO, "hand": hand}).get_json()
    as_list = post(client, {"text": DENG_GAO, "hand": list(hand)}).get_json()
    assert as_string == as_list
    marked = {c["char"] for line in as_string["lines"] for c in line["chars"] if c["in_hand"]}
    assert marked == set(hand)


def test_null_optional_fields_mean_defaults(client):
    report = post(client, {"text": JING_YE_SI, "rhyme_book": None, "hand": None}).get_json()
    assert report["rhyme_book"] == "pingshui"


# --- refusals: a 400 with a Chinese detail ---------------------------------------------------------


@pytest.mark.parametrize(
    "payload",
    [
        [DENG_GAO],
        "風急天高猿嘯哀",
        42,
        None,
        {},
        {"text": 42},
        {"text": None},
        {"text": ["風急天高猿嘯哀", "渚清沙白鳥飛回"]},
        {"text": {"text": DENG_GAO}},
        {"text": True},
        {"text": DENG_GAO, "rhyme_book": "guangyun"},
        {"text": DENG_GAO, "rhyme_book": 1},
        {"text": DENG_GAO, "rhyme_book": ["pingshui"]},
        {"text": DENG_GAO, "hand": 150},
        {"text": DENG_GAO, "hand": {"山": 1}},
        {"text": DENG_GAO, "hand": ["山峰", "江"]},
        {"text": DENG_GAO, "hand": [["山"], "江"]},
        {"text": DENG_GAO, "hand": "山" * 601},
        {"text": DENG_GAO, "hand": ["山"] * 601},
        {"text": DENG_GAO, "hand": "山\x00峰"},
        {"text": DENG_GAO, "mode": "jizi"},
        {"text": "風" * 2001},
        {"text": "風急天高猿嘯哀，渚清沙白鳥飛回。" * 700},
        {"text": "風急天高\x00猿嘯哀，渚清沙白鳥飛回。"},
        {"text": "風急天高\x07猿嘯哀，渚清沙白鳥飛回。"},
        {"text": "風急天高\x1b[31m猿嘯哀，渚清沙白鳥飛回。"},
    ],
)
def test_bad_requests_are_refused_in_chinese(client, payload):
    response = client.post("/api/check", data=json.dumps(payload), content_type="application/json")
    assert_chinese_400(response)


@pytest.mark.parametrize(
    "text",
    ["", "   \n\t ", "hello world", "風急天高猿嘯哀", "，。！？", "<b></b>", "12345\n67890"],
)
def test_unreadable_text_is_a_400_from_the_checker(client, text):
    assert_chinese_400(post(client, {"text": text}))


def test_not_json_is_refused(client):
    assert_chinese_400(client.post("/api/check", data={"text": DENG_GAO}))
    assert_chinese_400(client.post("/api/check", data="{not json", content_type="application/json"))
    assert_chinese_400(client.post("/api/check", data=DENG_GAO.encode(), content_type="text/plain"))


def test_lone_surrogate_is_refused(client):
    body = '{"text": "風急天高猿嘯哀\\ud800，渚清沙白鳥飛回。"}'
    assert_chinese_400(client.post("/api/check", data=body, content_type="application/json"))


def test_get_is_not_allowed(client):
    response = client.get("/api/check")
    assert response.status_code == 405
    assert response.get_json()["detail"]


# --- hostile input the checker must survive ------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "<script>alert('詩')</script>\n" + DENG_GAO,
        DENG_GAO.replace("猿", "<img src=x onerror=alert(1)>"),
        "《登高》杜甫\n" + DENG_GAO.split("\n", 1)[1],
        DENG_GAO.replace("\n", "\r\n"),
        DENG_GAO.replace("，", "\t"),
        "風急天高猿嘯哀（一作：風急天高猿嘯悲）\n渚清沙白鳥飛回",
        "((((((((風急天高猿嘯哀\n渚清沙白鳥飛回))))",
        "風急天高猿嘯哀\u202e，渚清沙白鳥飛回\u200b。",
        "🌕🌕🌕🌕🌕，🌕🌕🌕🌕🌕。\n床前明月光，疑是地上霜。",
        "𠀋𠀋𠀋𠀋𠀋，𪚥𪚥𪚥𪚥𪚥。",
        "床前明月光\n" * 300,
        "□□□□□，□□□□□。",
    ],
    ids=["script", "img", "title", "crlf", "tabs", "note", "parens", "bidi", "emoji", "ext-b", "300-lines", "gaps"],
)
def test_hostile_text_never_breaks_the_server(client, text):
    response = post(client, {"text": text})
    assert response.status_code in (200, 400), response.get_data(as_text=True)[:300]
    assert response.mimetype == "application/json"
    if response.status_code == 200:
        report = response.get_json()
        assert report["lines"]


def test_random_drafts_never_break_the_server(client):
    """Half-typed drafts as a poet produces them: verse fragments, punctuation, spaces, stray symbols."""
    rng = random.Random(20261129)
    pieces = list("風急天高猿嘯哀渚清沙白鳥飛回床前明月光疑是地上霜干后里发") + list(
        "，。？！；、\n \t（）()[]《》「」") + [
        "a", "1", "<", "&", "〇", "□", "\u3000", "\U00020000",
    ]
    for _ in range(150):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 60)))
        response = post(client, {"text": text, "rhyme_book": rng.choice(["pingshui", "xinyun"])})
        assert response.status_code in (200, 400), (text, response.get_data(as_text=True)[:300])


# --- the page --------------------------------------------------------------------------------------


def test_check_page_has_a_labelled_editor_examples_and_strings(client):
    response = client.get("/check")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert 'for="poem-text"' in html and 'id="poem-text"' in html
    assert 'for="rhyme-book"' in html
    assert "data-title=\"登高\"" in html and "data-title=\"靜夜思\"" in html
    strings = re.search(r'<script type="application/json" id="poem-editor-strings">(.*?)</script>', html, re.S)
    parsed = json.loads(strings.group(1))
    assert parsed["regulated"] == "合律"
    assert "editor.js" in html and "editor.css" in html


def test_check_page_in_simplified_script(client):
    client.set_cookie("script", "hans")
    html = client.get("/check").get_data(as_text=True)
    assert "平仄检查" in html
    strings = re.search(r'id="poem-editor-strings">(.*?)</script>', html, re.S)
    assert json.loads(strings.group(1))["rhymeBooks"]["pingshui"] == "平水韵"


def test_a_checker_fault_is_a_422_that_keeps_the_poet_informed(client, monkeypatch):
    import views.check

    def broken(*args, **kwargs):
        raise IndexError("a bug in the checker")

    monkeypatch.setattr(views.check, "check_poem", broken)
    response = post(client, {"text": DENG_GAO})
    assert response.status_code == 422
    assert "詩稿仍在" in response.get_json()["detail"]


# --- a declared form (issue 9) -------------------------------------------------------------------------

FLAWED_QUATRAIN = "白日依山盡，黃河入海流。欲見千里目，更上一頂樓。"


def test_a_declared_form_is_judged_as_declared_with_every_fault_at_its_place(client):
    undeclared = client.post("/api/check", json={"text": FLAWED_QUATRAIN}).get_json()
    assert undeclared["form"] == "五言絕句" and undeclared["regulated"] is False
    faults = [(v["line"], v["pos"]) for v in undeclared["violations"] if v["severity"] == "error"]
    assert faults  # no longer a 五言古絕 without positions
    declared = client.post("/api/check", json={"text": FLAWED_QUATRAIN, "form": "五言絕句"}).get_json()
    assert declared["form"] == "五言絕句"
    assert [(v["line"], v["pos"]) for v in declared["violations"] if v["severity"] == "error"] == faults
    seven = client.post("/api/check", json={"text": FLAWED_QUATRAIN, "form": "七言絕句"}).get_json()
    assert seven["form"] == "七言絕句" and {(v["line"], v["kind"]) for v in seven["violations"]} >= {
        (n, "form") for n in range(1, 5)}
    ancient = client.post("/api/check", json={"text": FLAWED_QUATRAIN, "form": "古體"}).get_json()
    assert ancient["form"] == "古體" and not [v for v in ancient["violations"] if v["kind"] == "tone"]


def test_an_unknown_form_is_a_400_naming_the_accepted_ones(client):
    r = client.post("/api/check", json={"text": FLAWED_QUATRAIN, "form": "七古"})
    assert r.status_code == 400
    assert "七言絕句" in r.get_json()["detail"] and "古體" in r.get_json()["detail"]


def test_a_simplified_poem_of_held_tiles_is_in_hand(client):
    r = client.post("/api/check", json={"text": "春风细雨满江楼，万点梨花逐水流。", "hand": "樓流登", "title": "登楼",
                                        "rule": "rhyme"}).get_json()
    feet = [line["chars"][-1] for line in r["lines"]]
    assert [c["in_hand"] for c in feet] == [True, True]
    assert r["tiles"]["used"] == 3  # 楼 and 流 in the poem, 登 in the title (楼 counted once)


def test_gu_ping_setting(client):
    text = DENG_GAO.replace("不盡長江滾滾來", "平日一聲敗葉來")  # 七言 孤平 by 王力 only
    assert not post(client, {"text": text}).get_json()["regulated"]
    assert not post(client, {"text": text, "gu_ping": "wangli"}).get_json()["regulated"]
    assert post(client, {"text": text, "gu_ping": "lenient"}).get_json()["regulated"]
    assert_chinese_400(post(client, {"text": text, "gu_ping": "loose"}))
    spec = client.get("/api/openapi.json").get_json()
    body = spec["paths"]["/api/check"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body["properties"]["gu_ping"]["enum"] == ["wangli", "lenient"]
