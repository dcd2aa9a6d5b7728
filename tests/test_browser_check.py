"""The /check page in a real browser: live check while typing, a fix by click, the draft kept, phone width."""

import os

import pytest

from tests.conftest import SCREENSHOTS, screenshot

pytestmark = pytest.mark.browser

DENG_GAO = [
    "風急天高猿嘯哀，渚清沙白鳥飛回。",
    "無邊落木蕭蕭下，不盡長江滾滾來。",
    "萬里悲秋常作客，百年多病獨登臺。",
    "艱難苦恨繁霜鬢，潦倒新停濁酒杯。",
]
# 清 → 淺: line 2 needs 平 at its second character and gets 仄.
PLANTED = [DENG_GAO[0].replace("渚清", "渚淺")] + DENG_GAO[1:]

WRONG_TILE = '.pe-tile[data-line="2"][data-pos="2"]'


def open_check(page, base):
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base + "/check")
    page.wait_for_selector(".pe-message-hint")  # the editor attached and asks for a poem
    return errors


def test_live_check_shows_the_fault_and_a_suggestion_fixes_it(live_server, new_page):
    page = new_page()
    errors = open_check(page, live_server)
    editor = page.locator("#poem-text")
    editor.click()
    # The first line typed key by key (the debounce must hold), the rest pasted.
    editor.press_sequentially("登高\n" + PLANTED[0])
    page.wait_for_selector(".pe-line")
    editor.press("End")
    page.keyboard.insert_text("\n" + "\n".join(PLANTED[1:]))

    tile = page.locator(WRONG_TILE)
    tile.wait_for()
    page.wait_for_selector(".pe-line >> nth=7")
    assert tile.inner_text().startswith("淺")
    assert tile.get_attribute("data-status") == "wrong"
    assert tile.get_attribute("data-tone") == "仄"
    fault = page.locator('.pe-line[data-line="2"] .pe-fault[data-pos="2"]')
    assert fault.is_visible()
    assert "淺" in fault.inner_text() or "平" in fault.inner_text()
    assert page.locator(".pe-verdict").text_content() == "判定：未合律・七言律詩"
    screenshot(page, "check-desktop-fault")

    suggestion = fault.locator(".pe-suggestion").first
    fix = suggestion.inner_text().strip()[0]
    suggestion.click()
    expected = "登高\n" + "\n".join(PLANTED).replace("渚淺", "渚" + fix)
    page.wait_for_function("v => document.getElementById('poem-text').value === v", arg=expected)
    page.wait_for_function(
        "sel => { const t = document.querySelector(sel); return t && t.dataset.status !== 'wrong'; }",
        arg=WRONG_TILE,
    )
    assert page.locator(WRONG_TILE).inner_text().startswith(fix)
    assert page.locator('.pe-fault[data-line="2"][data-pos="2"]').count() == 0

    # Undo puts the planted character back; the fix is applied again by hand.
    page.locator(".pe-message .pe-link").click()
    page.wait_for_function("v => document.getElementById('poem-text').value.includes(v)", arg="渚淺沙白")
    page.locator(f'{WRONG_TILE}[data-status="wrong"]').wait_for()
    page.locator('.pe-fault[data-line="2"][data-pos="2"] .pe-suggestion').first.click()
    page.wait_for_function("v => document.getElementById('poem-text').value === v", arg=expected)

    # A reload restores the draft from localStorage and checks it again.
    page.reload()
    page.wait_for_function("v => document.getElementById('poem-text').value === v", arg=expected)
    page.locator(".pe-line >> nth=7").wait_for()
    assert page.locator(WRONG_TILE).get_attribute("data-status") != "wrong"
    screenshot(page, "check-desktop")
    assert errors == []


def test_examples_load_and_the_previous_draft_comes_back(live_server, new_page):
    page = new_page()
    open_check(page, live_server)
    page.fill("#poem-text", "我的草稿\n春眠不覺曉")
    page.click(".check-example[data-title='靜夜思']")
    page.wait_for_function("() => document.getElementById('poem-text').value.includes('床前明月光')")
    page.wait_for_selector(".pe-line >> nth=3")
    assert "絕" in page.locator(".pe-facts").inner_text()
    page.locator(".pe-message .pe-link").click()
    page.wait_for_function("() => document.getElementById('poem-text').value === '我的草稿\\n春眠不覺曉'")


def _has_xinyun():
    from poetry.errors import UnsupportedFormError
    from poetry.prosody import get_rhyme_book

    try:
        get_rhyme_book("xinyun")
    except UnsupportedFormError:
        return False
    return True


@pytest.mark.skipif(not _has_xinyun(), reason="中華新韻 not in poetry.prosody yet")
def test_rhyme_book_switch_rechecks(live_server, new_page):
    page = new_page()
    open_check(page, live_server)
    page.click(".check-example[data-title='登高']")
    page.wait_for_selector(".pe-facts:has-text('平水韻')")
    page.select_option("#rhyme-book", "xinyun")
    page.wait_for_selector(".pe-facts:has-text('中華新韻')")
    page.reload()
    assert page.locator("#rhyme-book").input_value() == "xinyun"


def test_editor_component_applies_the_hand_rules(live_server, new_page):
    """The round page's use: a hand, the 集字 rule (every char a tile, each once) and the 韻腳 rule."""
    page = new_page()
    open_check(page, live_server)
    page.evaluate(
        """() => {
          const area = document.createElement('textarea'); area.id = 'round-draft';
          const out = document.createElement('div'); out.id = 'round-report';
          document.body.append(area, out);
          window.saved = [];
          window.roundEditor = PoemEditor.attach(area, {
            output: out, hand: '風急天高猿嘯哀渚清沙白鳥飛回', rule: 'jizi',
            onChange: text => window.saved.push(text),
          });
        }"""
    )
    page.fill("#round-draft", "風急天高猿嘯哀，渚清沙白鳥飛回。\n風急天高猿嘯哀，渚清沙白鳥飛來。")
    page.wait_for_selector("#round-report .pe-line >> nth=3")
    report = page.locator("#round-report")
    # Line 1–2 use the hand; the repeats in lines 3–4 spend tiles twice; 來 is not in the hand at all.
    assert report.locator('.pe-tile.pe-in-hand[data-line="1"]').count() == 7
    flagged = report.locator(".pe-tile.pe-hand-flag")
    assert flagged.count() == 14
    assert report.locator('.pe-tile.pe-hand-flag[data-line="4"][data-pos="7"]').inner_text().startswith("來")
    assert page.evaluate("window.saved.length") >= 1

    # Two blank tiles (白板) cover the first two faults, in reading order.
    page.evaluate("window.roundEditor.setOptions({blanks: 2})")
    page.wait_for_function("() => document.querySelectorAll('#round-report .pe-tile.pe-blank').length === 2")
    assert flagged.count() == 12
    assert report.locator('.pe-tile.pe-blank[data-line="3"]').count() == 2
    os.makedirs(SCREENSHOTS, exist_ok=True)
    report.screenshot(path=os.path.join(SCREENSHOTS, "check-editor-jizi.png"))

    page.evaluate("window.roundEditor.setOptions({rule: 'rhyme', blanks: 0})")
    page.wait_for_function(
        "() => document.querySelectorAll('#round-report .pe-tile.pe-hand-flag').length === 1"
    )
    assert report.locator(".pe-tile.pe-hand-flag").get_attribute("data-pos") == "7"
    assert report.locator(".pe-tile.pe-hand-flag").get_attribute("data-line") == "4"

    # A submitted (read-only) draft is never changed by the editor.
    before = page.input_value("#round-draft")
    page.evaluate("document.getElementById('round-draft').readOnly = true")
    assert page.evaluate("window.roundEditor.replaceAt(4, 7, '回')") is False
    assert page.input_value("#round-draft") == before
    page.evaluate("document.getElementById('round-draft').readOnly = false")
    assert page.evaluate("window.roundEditor.replaceAt(4, 7, '回')") is True
    assert page.input_value("#round-draft").endswith("飛回。")


def test_phone_width_has_no_sideways_scroll(live_server, new_page):
    phone = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    errors = open_check(phone, live_server)
    phone.fill("#poem-text", "登高\n" + "\n".join(PLANTED))
    phone.locator(f'{WRONG_TILE}[data-status="wrong"]').wait_for()
    phone.wait_for_selector(".pe-line >> nth=7")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the check page scrolls sideways on a phone ({width}px)"
    box = phone.locator('.pe-line[data-line="8"] .pe-tile >> nth=6').bounding_box()
    assert box["x"] + box["width"] <= 390
    screenshot(phone, "check-phone")
    assert errors == []


def test_no_check_while_an_input_method_is_composing(live_server, new_page):
    """Pinyin letters mid-composition are not a draft: the check waits for the committed character."""
    page = new_page()
    open_check(page, live_server)
    with page.expect_response("**/api/check"):
        page.fill("#poem-text", DENG_GAO[0] + "\n")
    page.wait_for_function("() => !document.querySelector('.pe-output[aria-busy=true]')")
    checks = []
    page.on("request", lambda request: checks.append(request) if request.url.endswith("/api/check") else None)
    page.focus("#poem-text")
    page.keyboard.press("End")
    cdp = page.context.new_cdp_session(page)
    for typed in ("w", "wu", "wub", "wubi", "wubia", "wubian"):
        cdp.send("Input.imeSetComposition", {"text": typed, "selectionStart": len(typed), "selectionEnd": len(typed)})
        page.wait_for_timeout(120)
    page.wait_for_timeout(500)
    assert checks == [], "checked the pinyin letters of an unfinished composition"
    with page.expect_request("**/api/check"):
        cdp.send("Input.insertText", {"text": "無邊"})
    assert page.input_value("#poem-text").endswith("無邊")
    page.wait_for_timeout(400)
    assert len(checks) == 1


MESSY_DRAFTS = [
    # a 《title》 and author line, notes in parentheses, full-width spaces, numbering
    "《登高》杜甫\n風急天高猿嘯哀（一作：悲），渚清沙白鳥飛回。\n　無邊落木蕭蕭下，不盡長江滾滾來。\n"
    "萬里悲秋常作客，百年多病獨登臺。\n艱難苦恨繁霜鬢，潦倒新停濁酒杯。",
    # the title repeats the first characters of the poem; all on one line with ASCII punctuation
    "春望\n國破山河在, 城春草木深. 感時花濺淚, 恨別鳥驚心. 烽火連三月, 家書抵萬金. 白頭搔更短, 渾欲不勝簪.",
    # simplified script, an unclosed parenthesis and a [restored] character
    "静夜思\n床前明月光(，疑是地上霜。\n举头望[明]月，低头思故乡。",
]


@pytest.mark.parametrize("draft", MESSY_DRAFTS, ids=["notes", "ascii", "simplified"])
def test_every_checked_character_maps_back_onto_the_draft(live_server, new_page, draft):
    """Suggestion clicks edit the draft where the report shows them, whatever surrounds the verse."""
    page = new_page()
    open_check(page, live_server)
    page.fill("#poem-text", draft)
    page.wait_for_selector(".pe-line >> nth=1")
    page.wait_for_function("() => !document.querySelector('.pe-output[aria-busy=true]')")
    mismatches = page.evaluate(
        """() => {
          const text = document.getElementById('poem-text').value;
          const lines = [...document.querySelectorAll('.pe-line')].map(li => ({
            chars: [...li.querySelectorAll('.pe-tile')].map(t => ({char: t.firstChild.textContent})),
          }));
          const spans = PoemEditor.locate(text, lines);
          const bad = [];
          lines.forEach((line, i) => line.chars.forEach((c, k) => {
            const s = spans[i][k];
            if (!s || text.substr(s[0], s[1]) !== c.char) bad.push([i + 1, k + 1, c.char, s]);
          }));
          return {bad, count: lines.reduce((n, l) => n + l.chars.length, 0)};
        }"""
    )
    assert mismatches["count"] >= 20
    assert mismatches["bad"] == []


def test_markup_in_a_draft_stays_text(live_server, new_page):
    page = new_page()
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    open_check(page, live_server)
    hostile = '<img src=x onerror="alert(1)">《<b>登高</b>》\n' + "\n".join(PLANTED) + "<script>alert(2)</script>"
    page.fill("#poem-text", hostile)
    page.locator(f'{WRONG_TILE}[data-status="wrong"]').wait_for()
    assert page.locator(".pe-output img, .pe-output script, .pe-output b").count() == 0
    assert dialogs == []
    page.reload()
    assert page.input_value("#poem-text") == hostile


def test_a_draft_over_the_limit_is_kept_and_explained(live_server, new_page):
    page = new_page()
    open_check(page, live_server)
    long_draft = "\n".join(DENG_GAO) * 40  # 2,600+ characters
    page.fill("#poem-text", long_draft)
    page.wait_for_selector(".pe-message-warn")
    assert "2000" in page.locator(".pe-message").inner_text()
    assert page.locator(".check-count-over").count() == 1
    assert page.input_value("#poem-text") == long_draft


def test_a_lost_connection_keeps_the_draft_and_recovers(live_server, new_page):
    page = new_page()
    open_check(page, live_server)
    page.route("**/api/check", lambda route: route.abort("connectionrefused"))
    page.fill("#poem-text", "\n".join(PLANTED))
    page.wait_for_selector(".pe-message-warn")
    assert page.input_value("#poem-text") == "\n".join(PLANTED)
    page.unroute("**/api/check")
    page.locator(f'{WRONG_TILE}[data-status="wrong"]').wait_for(timeout=15000)  # the retry comes back
    assert page.locator(".pe-message-warn").count() == 0


SHAN_SHI = ["山石犖确行徑微，黃昏到寺蝙蝠飛。", "升堂坐階新雨足，芭蕉葉大梔子肥。", "僧言古壁佛畫好，以火來照所見稀。",
            "鋪牀拂席置羹飯，疏糲亦足飽我飢。", "夜深靜臥百蟲絕，清月出嶺光入扉。", "天明獨去無道路，出入高下窮煙霏。",
            "山紅澗碧紛爛漫，時見松櫪皆十圍。", "當流赤足踏澗石，水聲激激風吹衣。", "人生如此自可樂，豈必局束爲人鞿。",
            "嗟哉吾黨二三子，安得至老不更歸。"]


VERDICT_IS = "v => (document.querySelector('.pe-verdict') || {}).textContent === v"


def test_a_long_guti_reads_as_a_guti_not_as_faults(live_server, new_page):
    """韓愈《山石》, undeclared: the editor says 古體 (no 近體 fault, not 未合律) and notes how to have it checked as
    a 排律; with two of its rhymes broken it names the unrhymed feet."""
    page = new_page()
    errors = open_check(page, live_server)
    page.fill("#poem-text", "山石\n" + "\n".join(SHAN_SHI))
    page.wait_for_function(VERDICT_IS, arg="判定：古體・押韻無誤・七言古詩")
    assert page.locator(".pe-badge-verdict").inner_text() == "古體・押韻無誤"
    page.wait_for_function("() => document.querySelector('.check-chip').textContent === '古體・押韻無誤'")
    assert "若作排律" in page.locator(".pe-whole").inner_text()
    screenshot(page, "check-desktop-guti")
    broken = SHAN_SHI[:]
    broken[0] = broken[0].replace("飛。", "落。")
    broken[1] = broken[1].replace("肥。", "好。")
    page.fill("#poem-text", "山石\n" + "\n".join(broken))
    page.wait_for_function(VERDICT_IS, arg="判定：古體・押韻有誤・七言古詩")
    page.wait_for_function("() => document.querySelector('.check-chip').textContent.startsWith('古體・')")
    assert "處待改" in page.locator(".check-chip").inner_text()
    assert "皆不相押" in page.locator(".pe-lines").inner_text()
    assert page.locator('.pe-tile[data-line="2"][data-pos="7"]').get_attribute("data-status") == "rhyme_wrong"
    screenshot(page, "check-desktop-guti-unrhymed")
    assert errors == []
