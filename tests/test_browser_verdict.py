"""One verdict for a poem inside a round (issue 9), in chromium: a 简体 player hands in a poem of their own
tiles; 以此起稿 then 交卷 succeeds; a flawed poem declared 七言絕句 shows its faults in the editor and on
the 詩伯's dashboard. Screenshots go to test-artifacts/ (and docs/screenshots/ with UPDATE_DOCS_SCREENSHOTS=1).
"""

import os
import shutil

import pytest

from poetry.text import to_simplified
from tests.conftest import api
from tests.test_browser_round import DOCS, shot

pytestmark = pytest.mark.browser


def dealt(base):
    """A dealt round of a playing 詩伯 (東坡) and 山谷, 少游, 放翁; (code, host link, player links)."""
    created = api(base, "POST", "/api/rounds", {"title": "一首一斷", "host_name": "東坡"})
    code = created["code"]
    links = [api(base, "POST", f"/api/rounds/{code}/join", {"name": name})["link"] for name in ("山谷", "少游", "放翁")]
    api(base, "POST", f"/api/rounds/{code}/deal", token=created["host_token"])
    return code, created["host_link"], links


def open_seat(new_page, link):
    page = new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(link)
    page.wait_for_function("document.querySelectorAll('#hand .tile').length === 150", timeout=30000)
    page.wait_for_selector("#editor-panel:not([hidden])")
    return page


def hand_of(page, code):
    return page.evaluate(
        "code => fetch('/api/rounds/' + code + '/hand').then(r => r.json()).then(d => d.tiles.map(t => t.char))", code)


def panel_shot(page, selector, name):
    """A screenshot of one part of the page (test-artifacts/, and docs/screenshots/ when asked)."""
    path = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "test-artifacts", f"{name}.png"))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    page.locator(selector).screenshot(path=path)
    if os.environ.get("UPDATE_DOCS_SCREENSHOTS"):
        os.makedirs(DOCS, exist_ok=True)
        shutil.copy(path, os.path.join(DOCS, f"{name}.png"))


def hand_in(page):
    page.click("#submit-button")
    page.wait_for_selector("#submitted-note:not([hidden])", timeout=10000)


def test_a_simplified_player_hands_in_a_poem_of_their_own_tiles(live_server, new_page):
    code, _, links = dealt(live_server)
    page = open_seat(new_page, links[0])
    chars = hand_of(page, code)
    lines = ["".join(chars[i:i + 5]) for i in range(0, 20, 5)]
    title = to_simplified(chars[20] + chars[21])
    text = to_simplified(f"{lines[0]}，{lines[1]}。\n{lines[2]}，{lines[3]}。")
    page.fill("#poem-title", title)
    page.fill("#poem-text", text)
    page.wait_for_selector("#poem-report .pe-summary", timeout=10000)
    # every foot is marked as a tile of the hand, nothing flagged, the rule box stays shut
    page.wait_for_function("document.querySelectorAll('#poem-report .pe-tile.pe-in-hand').length >= 20")
    assert page.locator("#poem-report .pe-tile.pe-hand-flag").count() == 0
    assert "已用 22 張" in page.inner_text("#poem-report .pe-summary")
    shot(page, "verdict-simplified-editor")
    hand_in(page)
    assert page.locator("#rule-box").is_hidden()


def test_start_from_a_theme_then_hand_in(live_server, new_page):
    code, _, links = dealt(live_server)
    page = open_seat(new_page, links[1])
    page.wait_for_selector("#themes-panel .theme-card .theme-start", timeout=30000)
    page.locator("#themes-panel .theme-card .theme-start").first.click()
    title = page.input_value("#poem-title")
    held = set(hand_of(page, code))
    assert title and set(title) <= held  # a title of one's own tiles
    chars = [c for c in hand_of(page, code) if c not in title]
    lines = ["".join(chars[i:i + 5]) for i in range(0, 20, 5)]
    page.fill("#poem-text", f"{lines[0]}，{lines[1]}。\n{lines[2]}，{lines[3]}。")
    page.wait_for_selector("#poem-report .pe-summary", timeout=10000)
    shot(page, "verdict-theme-start")
    hand_in(page)


def test_a_title_out_of_hand_is_shown_before_the_lock_and_cleared_when_fixed(live_server, new_page):
    code, _, links = dealt(live_server)
    page = open_seat(new_page, links[2])
    chars = hand_of(page, code)
    stranger = next(c for c in "之乎者也矣焉哉兮" if c not in chars)
    lines = ["".join(chars[i:i + 5]) for i in range(0, 20, 5)]
    page.fill("#poem-title", stranger + chars[20])
    page.fill("#poem-text", f"{lines[0]}，{lines[1]}。\n{lines[2]}，{lines[3]}。")
    page.wait_for_selector("#rule-box:not([hidden])", timeout=10000)
    assert stranger in page.inner_text("#violations")
    page.wait_for_function("document.querySelector('#poem-report .pe-badge-verdict').textContent === '未合局規'")
    panel_shot(page, "#editor-panel", "verdict-rule-live")
    dialogs = []
    page.on("dialog", lambda dialog: dialogs.append(dialog.message))
    page.click("#submit-button")  # refused before the lock confirmation, the text kept
    page.wait_for_timeout(500)
    assert page.locator("#submitted-note").is_hidden() and not [d for d in dialogs if "交卷" in d]
    assert page.input_value("#poem-text").startswith(lines[0])
    page.fill("#poem-title", chars[20] + chars[21])
    page.wait_for_selector("#rule-box[hidden]", state="attached", timeout=10000)
    page.wait_for_function("document.querySelector('#poem-report .pe-badge-verdict').textContent !== '未合局規'")
    hand_in(page)


def test_a_flawed_poem_declared_seven_character_quatrain_on_editor_and_dashboard(live_server, new_page):
    code, host_link, links = dealt(live_server)
    page = open_seat(new_page, links[0])
    chars = hand_of(page, code)
    lines = ["".join(chars[i:i + 7]) for i in range(0, 28, 7)]  # a hand's tiles in a row: never 合律
    page.fill("#poem-title", chars[28] + chars[29])
    page.select_option("#poem-form", "七言絕句")
    page.fill("#poem-text", f"{lines[0]}，{lines[1]}。\n{lines[2]}，{lines[3]}。")
    page.wait_for_selector("#poem-report .pe-fault", timeout=10000)
    page.wait_for_function("document.querySelector('#poem-report .pe-summary').textContent.includes('七言絕句')")
    editor = api(live_server, "POST", "/api/check", {"text": page.input_value("#poem-text"), "form": "七言絕句"})
    errors = [v for v in editor["violations"] if v["severity"] == "error"]
    assert errors and editor["form"] == "七言絕句"
    shot(page, "verdict-declared-editor")
    panel_shot(page, "#editor-panel", "verdict-declared-editor-panel")
    hand_in(page)
    # a playing 詩伯 reads the others' poems once his own is in (issue 12): his own 古體 of his tiles
    host_token = host_link.rsplit("/", 1)[-1]
    own = [t["char"] for t in api(live_server, "GET", f"/api/rounds/{code}/hand", token=host_token)["tiles"]]
    api(live_server, "POST", f"/api/rounds/{code}/submit", {
        "title": own[20] + own[21], "form": "古體",
        "text": "，".join("".join(own[i:i + 5]) for i in range(0, 20, 5)) + "。"}, token=host_token)
    host = new_page()
    host.goto(host_link)
    host.goto(live_server + f"/r/{code}/judge")
    host.wait_for_selector(".faults", timeout=10000)
    board = host.inner_text("body")
    assert "七言絕句" in board and "格律之失" in board
    assert f"格律之失 {len(errors)} 處" in board
    shot(host, "verdict-declared-dashboard")
    panel_shot(host, "article.sheet:has-text('七言絕句')", "verdict-declared-dashboard-card")
