"""A whole round in real browsers: the 詩伯 and three players, each in their own context (own cookies).

They open the round, join by the invite link, watch the lobby and the deal live, see their hands, draft
(saved on the server, surviving a reload), submit, and the 詩伯 publishes; the verify page checks the deal.
Screenshots of the lobby, the deal, a hand and the editor (desktop and phone) go to test-artifacts/, and
to docs/screenshots/ when UPDATE_DOCS_SCREENSHOTS=1 is set (so that test runs do not rewrite docs/).
"""

import os
import shutil

import pytest

from tests.conftest import api, screenshot

pytestmark = pytest.mark.browser

DOCS = os.path.join(os.path.dirname(__file__), "..", "docs", "screenshots")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def shot(page, name, full_page=True):
    """Screenshot to test-artifacts/ and docs/screenshots/; full_page=False: what the screen shows now."""
    if full_page:
        path = screenshot(page, name)
    else:
        path = os.path.abspath(os.path.join(os.path.dirname(screenshot.__code__.co_filename), "..",
                                            "test-artifacts", f"{name}.png"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        page.screenshot(path=path)
    if os.environ.get("UPDATE_DOCS_SCREENSHOTS"):
        os.makedirs(DOCS, exist_ok=True)
        shutil.copy(path, os.path.join(DOCS, f"{name}.png"))


def no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"] + 1


def own_poem(page, code):
    """A title and four lines made from this seat's own tiles (fetched with its cookie)."""
    chars = page.evaluate(
        "code => fetch('/api/rounds/' + code + '/hand').then(r => r.json()).then(d => d.tiles.map(t => t.char))", code)
    lines = ["".join(chars[i:i + 5]) for i in range(0, 20, 5)]
    return chars[20] + chars[21], f"{lines[0]}，{lines[1]}。\n{lines[2]}，{lines[3]}。"


def test_a_round_played_in_four_browsers(live_server, new_page):
    host = new_page()
    host.on("dialog", lambda dialog: dialog.accept())
    host.goto(live_server + "/r/new")
    host.fill("#title", "春日西湖雅集")
    host.fill("#host_name", "東坡")
    host.fill("#penalty", "荒牌者罰酒三杯")
    shot(host, "round-new-desktop")
    host.click("#create-button")
    host.wait_for_selector("#created:not([hidden])")
    code = host.inner_text("#created-code").strip()
    assert "/k/" in host.input_value("#host-link")
    invite = host.input_value("#invite-link")
    host.click("#enter-round")
    host.wait_for_selector("#host-panel:not([hidden])")
    assert host.inner_text("#live-status").strip() != ""

    players = []
    for name, options in (("子由", {}), ("少游", PHONE), ("魯直", {})):
        page = new_page(**options)
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(invite)
        page.fill("#join-name", name)
        page.click("#join-form button")
        page.wait_for_selector(f"#seats .seat:has-text('{name}') .badge-you")
        players.append(page)

    new_on_phone = new_page(**PHONE)
    new_on_phone.goto(live_server + "/r/new")
    new_on_phone.click("input[value='jizi']")
    assert new_on_phone.is_visible("#wildcards")
    no_sideways_scroll(new_on_phone)

    # the lobby filled up live on the 詩伯's page, without a reload
    host.wait_for_selector("#seats .seat:has-text('魯直')", timeout=5000)
    assert host.locator("#seats .seat:not(.seat-empty)").count() == 4
    assert host.is_enabled("#deal-button")
    shot(host, "round-lobby-desktop")
    players[1].wait_for_selector("#seats .seat:has-text('魯直')", timeout=5000)
    no_sideways_scroll(players[1])
    shot(players[1], "round-lobby-phone")

    # the deal: the count tile turns, the count goes round, the tiles arrive one by one
    host.click("#deal-button")
    watcher = players[0]
    watcher.wait_for_selector("#deal-panel:not([hidden])", timeout=5000)
    watcher.wait_for_function("document.querySelector('#count-text').textContent.includes('數到')", timeout=5000)
    drawn = "[...document.querySelectorAll('.pile-count')].reduce((sum, n) => sum + +n.textContent, 0)"
    watcher.wait_for_function(f"{drawn} > 0 && {drawn} < 600", timeout=8000)  # tile by tile, not at once
    watcher.wait_for_function(f"{drawn} >= 80", timeout=8000)
    shot(watcher, "round-deal-desktop")
    for page in [host, *players]:
        page.wait_for_function("document.querySelectorAll('#hand .tile').length === 150", timeout=30000)
        page.wait_for_selector("#replay-anim:not([hidden])", timeout=30000)
    assert len(set(watcher.locator("#hand .tile").all_inner_texts())) == 150
    assert watcher.locator("#hand .tile[data-tone='平']").count() + \
        watcher.locator("#hand .tile[data-tone='仄']").count() == 150
    assert players[1].locator("#record-panel").is_hidden()  # a player never sees the others' hands
    host.wait_for_selector("#record .hand-record", timeout=5000)
    assert host.locator("#record .hand-record").count() == 4

    watcher.click("[data-sort='rhyme']")
    assert watcher.locator(".hand-group").count() >= 10
    shot(watcher, "round-hand-desktop")
    phone = players[1]
    phone.click("[data-sort='tone']")
    assert phone.locator(".hand-group-label").all_inner_texts()[:2] == ["平聲", "仄聲"]
    no_sideways_scroll(phone)
    shot(phone, "round-hand-phone")

    # drafting: saved as one types, still there after a reload
    for page in [host, *players]:
        title, text = own_poem(page, code)
        page.fill("#poem-title", title)
        page.fill("#poem-text", text)
        page.wait_for_selector("#save-status[data-kind='ok']", timeout=8000)
    # a lost connection: the page says so, keeps retrying, and saves once the network is back
    context = watcher.context
    context.set_offline(True)
    before = watcher.input_value("#poem-text")
    watcher.fill("#poem-text", before + "\n山")
    watcher.wait_for_selector("#save-status[data-kind='offline']", timeout=8000)
    assert "未連線" in watcher.inner_text("#save-status")
    context.set_offline(False)
    watcher.wait_for_selector("#save-status[data-kind='ok']", timeout=20000)
    watcher.reload()
    watcher.wait_for_function("document.querySelector('#poem-text').value.length > 10", timeout=8000)
    assert watcher.input_value("#poem-text") == before + "\n山"

    # the tab closed while offline: the unsaved edit comes back from this device and is saved then
    context.set_offline(True)
    watcher.fill("#poem-text", before + "\n水")
    watcher.wait_for_selector("#save-status[data-kind='offline']", timeout=8000)
    watcher.close()
    context.set_offline(False)
    watcher = players[0] = context.new_page()
    watcher.on("dialog", lambda dialog: dialog.accept())
    watcher.goto(f"{live_server}/r/{code}")
    watcher.wait_for_function("document.querySelector('#poem-text').value.endsWith('水')", timeout=8000)
    watcher.wait_for_selector("#save-status[data-kind='ok']", timeout=8000)
    server_text = watcher.evaluate(
        "code => fetch('/api/rounds/' + code + '/draft').then(r => r.json()).then(d => d.text)", code)
    assert server_text == before + "\n水"

    # the database refuses a write (503 with Retry-After): the page says nothing is saved yet, keeps the
    # text on this device, waits as asked and saves once the server takes it again
    refusal = '{"error": "Service Unavailable", "detail": "尚未儲存，稍後自動重試。"}'
    watcher.route("**/draft", lambda route: route.fulfill(
        status=503, headers={"Retry-After": "1", "Content-Type": "application/json"}, body=refusal)
        if route.request.method == "PUT" else route.continue_())
    watcher.fill("#poem-text", before + "\n雲")
    watcher.wait_for_selector("#save-status[data-kind='offline']", timeout=8000)
    assert "尚未儲存" in watcher.inner_text("#save-status")
    assert "雲" in watcher.evaluate("JSON.stringify(localStorage)")
    watcher.unroute("**/draft")
    watcher.wait_for_selector("#save-status[data-kind='ok']", timeout=20000)
    server_text = watcher.evaluate(
        "code => fetch('/api/rounds/' + code + '/draft').then(r => r.json()).then(d => d.text)", code)
    assert server_text == before + "\n雲"
    watcher.locator("#editor-panel").scroll_into_view_if_needed()
    watcher.wait_for_timeout(600)  # let the live check draw its report
    shot(watcher, "round-editor-desktop")
    phone.evaluate("document.querySelector('#editor-panel').scrollIntoView()")
    phone.wait_for_timeout(600)
    no_sideways_scroll(phone)
    shot(phone, "round-editor-phone", full_page=False)

    # a rhyme foot from outside the hand is refused with the reason, the draft stays
    outside = next(c for c in "山江風月花雪雲水天人春秋" if c not in watcher.inner_text("#hand"))
    kept = watcher.input_value("#poem-text")
    lines = kept.split("\n")
    watcher.fill("#poem-text", lines[0][:-2] + outside + "。\n" + lines[1])
    watcher.click("#submit-button")
    watcher.wait_for_selector(f"#violations li:has-text('{outside}')", timeout=5000)
    watcher.fill("#poem-text", kept)
    watcher.wait_for_selector("#save-status[data-kind='ok']", timeout=8000)

    # submission: locked, and the 詩伯 sees it live; the 詩伯 can reopen
    watcher.click("#submit-button")
    watcher.wait_for_selector("#submitted-note:not([hidden])", timeout=5000)
    assert watcher.locator("#poem-text").get_attribute("readonly") is not None
    host.wait_for_selector("#submissions [data-reopen='2']", timeout=5000)
    host.click("#submissions [data-reopen='2']")
    watcher.wait_for_function("!document.querySelector('#poem-text').readOnly", timeout=5000)
    watcher.click("#submit-button")
    watcher.wait_for_selector("#submitted-note:not([hidden])", timeout=5000)
    for page in [host, players[1], players[2]]:
        page.click("#submit-button")
        page.wait_for_selector("#submitted-note:not([hidden])", timeout=5000)
    host.wait_for_function("document.querySelectorAll('#submissions .badge-done').length === 4", timeout=5000)

    # publication reaches everyone live: poems, hands, and the deal can be verified (once all are graded)
    for seat in (1, 2, 3, 4):
        host.evaluate("([code, seat]) => fetch('/api/rounds/' + code + '/grades', {method: 'POST', headers: "
                      "{'Content-Type': 'application/json', 'X-CSRF-Token': document.querySelector("
                      "'meta[name=csrf-token]').content}, body: JSON.stringify({seat: seat, grade: '中品'})})"
                      ".then(r => r.status)", [code, seat])
    host.click("#publish-button")
    for page in [host, *players]:
        page.wait_for_selector("#results-panel:not([hidden]) .poem-card", timeout=5000)
        assert page.locator(".poem-card").count() == 4
    shot(players[2], "round-results-desktop")
    verify = new_page()
    verify.goto(f"{live_server}/r/{code}/verify")
    verify.click("#verify-button")
    verify.wait_for_function("document.querySelectorAll('#checks li').length === 4", timeout=5000)
    assert verify.locator("#checks li[data-ok='true']").count() == 4


def test_a_judging_host_and_a_jizi_round(live_server, new_page):
    """A 詩伯 who only judges (seat 0) keeps the record of four hands and has none; 集字 with blanks."""
    created = api(live_server, "POST", "/api/rounds", {"title": "集字小集", "host_name": "山谷", "host_plays": False,
                                   "composition": "jizi", "wildcards": 2})
    code = created["code"]
    links = [api(live_server, "POST", f"/api/rounds/{code}/join", {"name": name})["link"]
             for name in ("甲", "乙", "丙", "丁")]
    host = new_page()
    host.goto(created["host_link"])
    host.wait_for_selector("#seats .seat[data-seat='0'] .badge-you")
    player = new_page(**PHONE)
    player.goto(links[0])
    player.wait_for_selector("#seats .seat[data-seat='1'] .badge-you")
    assert "白板 2 張" in player.inner_text(".round-meta")

    host.click("#deal-button")
    host.wait_for_selector("#record .hand-record", timeout=5000)
    assert host.locator("#record .hand-record").count() == 4
    assert host.locator("#hand-panel").is_hidden() and host.locator("#editor-panel").is_hidden()
    player.wait_for_function("document.querySelectorAll('#hand .tile').length === 150", timeout=30000)
    assert "白板 2" in player.inner_text("#hand-count")
    assert "集字" in player.inner_text("#rule-hint")
    host.locator("#record .hand-record").first.click()
    shot(host, "round-record-desktop")
    # The live check spends the two 白板 on the first two characters not in the hand, then flags the third.
    hand = set(player.get_attribute("#themes-panel", "data-chars"))
    missing = [c for c in "山水雲月風花雪夜江湖春秋天地日星" if c not in hand][:3]
    held = list(dict.fromkeys(player.get_attribute("#themes-panel", "data-chars")))[:7]
    player.fill("#poem-text", f"{held[0]}{missing[0]}{held[1]}{missing[1]}{missing[2]}\n{''.join(held[2:7])}")
    player.wait_for_selector("#poem-report .pe-tile.pe-hand-flag", timeout=10000)
    assert [t.inner_text()[0] for t in player.query_selector_all("#poem-report .pe-tile.pe-blank")] == missing[:2]
    assert [t.inner_text()[0] for t in player.query_selector_all("#poem-report .pe-tile.pe-hand-flag")] == missing[2:]
