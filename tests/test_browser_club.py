"""A club's round in the browser (issue 12): the clock and the 韻牌 on a phone, 撤回 seen live, the 詩伯
led to judging, the results with cups and time taken, a rematch followed. Screenshots: test-artifacts/ (and
docs/screenshots/ with UPDATE_DOCS_SCREENSHOTS=1)."""

import json
import urllib.request

import pytest

from tests.conftest import api
from tests.test_browser_round import PHONE, no_sideways_scroll, shot

pytestmark = pytest.mark.browser


def rhymed_poem(base, code, token):
    """A 五絕 shape from one's tiles whose feet (lines 2 and 4) are of one's 韻牌."""
    request = urllib.request.Request(base + f"/api/rounds/{code}/hand", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request) as response:
        hand = json.load(response)
    tiles = hand["tiles"]
    ze = [t["char"] for t in tiles if t["tone"] == "仄"]
    feet = [t["char"] for t in tiles if t["tone"] == "平" and t["rhyme"] == hand["rhyme"]]
    chars = [t["char"] for t in tiles]
    ends = (ze[0], feet[0], ze[1], feet[1])
    lines = ["".join(chars[i * 4:i * 4 + 4]) + end for i, end in enumerate(ends)]
    return chars[0], f"{lines[0]}，{lines[1]}。\n{lines[2]}，{lines[3]}。", hand["rhyme"]


def test_a_round_with_the_clock_and_rhyme_tiles(live_server, new_page):
    base = live_server
    created = api(base, "POST", "/api/rounds", {"title": "韻牌雅集", "host_name": "東坡", "minutes": 15,
                                                "rhyme_draw": True, "cups": {"下品": 1, "荒牌": 3}})
    code, tokens = created["code"], {1: created["host_token"]}
    for name in ("子由", "少游", "魯直"):
        joined = api(base, "POST", f"/api/rounds/{code}/join", {"name": name})
        tokens[joined["seat"]] = joined["token"]
    api(base, "POST", f"/api/rounds/{code}/deal", {}, tokens[1])

    phone = new_page(**PHONE)
    phone.on("dialog", lambda dialog: dialog.accept())
    phone.goto(f"{base}/r/{code}/k/{tokens[2]}")
    phone.wait_for_selector("#clock-line:not([hidden])")
    assert "剩餘時間 14:" in phone.inner_text("#clock-line") or "剩餘時間 15:" in phone.inner_text("#clock-line")
    phone.wait_for_selector("#rhyme-line:not([hidden])")
    title, text, rhyme = rhymed_poem(base, code, tokens[2])
    assert rhyme in phone.inner_text("#rhyme-line")
    phone.wait_for_selector("#hand .tile", timeout=20000)
    phone.fill("#poem-title", title)
    phone.fill("#poem-text", text)
    phone.wait_for_selector("#rhyme-check[data-ok='yes']")
    no_sideways_scroll(phone)
    shot(phone, "club-clock-rhyme-phone", full_page=False)
    # the editor stays in reach: scrolled to the hand, the editor is still on screen (sticky)
    phone.evaluate("document.querySelector('#hand').scrollIntoView()")
    box = phone.locator("#poem-text").bounding_box()
    assert box is not None and 0 <= box["y"] < 844
    shot(phone, "club-hand-and-editor-phone", full_page=False)
    # compact: the sticky editor takes under half the screen; its report folds to one line and opens again
    assert phone.locator(".play-draft").bounding_box()["height"] <= 0.43 * 844
    phone.click("#report-summary")
    assert phone.locator("#poem-report").is_hidden()
    shot(phone, "club-editor-report-folded-phone", full_page=False)
    phone.click("#report-summary")
    assert phone.locator("#poem-report").is_visible()

    host = new_page()
    host.on("dialog", lambda dialog: dialog.accept())
    host.goto(f"{base}/r/{code}/k/{tokens[1]}")
    host.wait_for_selector("#host-panel:not([hidden])")

    phone.click("#submit-button")
    phone.wait_for_selector("#submitted-note:not([hidden])", timeout=8000)
    phone.wait_for_selector("#withdraw-button:not([hidden])", timeout=8000)
    # the playing 詩伯 cannot read it yet
    host.wait_for_function("document.querySelector('#host-hint').textContent.includes('子由')", timeout=8000)
    host.wait_for_selector("#host-poems:has-text('交了自己的詩之後')", timeout=8000)  # fetched after the state
    assert "secondary" not in (host.get_attribute("#judge-link", "class") or "")  # 評品 is the primary action
    phone.click("#withdraw-button")
    host.wait_for_function("document.querySelector('#notice').textContent.includes('撤回')", timeout=8000)
    phone.wait_for_load_state()  # 撤回 reloads the page: wait for the draft as it comes back
    phone.wait_for_selector("#withdraw-button[hidden]", state="attached", timeout=8000)
    phone.wait_for_function("(document.querySelector('#poem-text') || {value: ''}).value.length > 0", timeout=8000)
    assert phone.input_value("#poem-text") == text  # the draft is back, with its text
    phone.click("#submit-button")
    phone.wait_for_selector("#submitted-note:not([hidden])", timeout=8000)

    own_title, own_text, _ = rhymed_poem(base, code, tokens[1])
    api(base, "POST", f"/api/rounds/{code}/submit", {"title": own_title, "text": own_text}, tokens[1])
    host.wait_for_selector("#host-poems .host-poem", timeout=8000)
    assert host.locator("#host-poems .host-poem").count() == 2
    shot(host, "club-host-judging-first")
    for seat, grade in ((1, "上品"), (2, "中品")):
        api(base, "POST", f"/api/rounds/{code}/grades", {"seat": seat, "grade": grade}, tokens[1])
    host.reload()
    host.wait_for_function("document.querySelector('#host-hint').textContent.includes('可以公佈')", timeout=8000)
    assert "secondary" not in (host.get_attribute("#publish-button", "class") or "")
    host.click("#publish-button")
    host.wait_for_selector("#rematch-button:not([hidden])", timeout=8000)
    host.goto(f"{base}/r/{code}/results")
    body = host.inner_text("body")
    assert "少游 罰酒 3 杯" in body and "魯直 罰酒 3 杯" in body and "分" in body
    shot(host, "club-results")
    host.goto(f"{base}/r/{code}/verify")
    assert rhyme in host.inner_text("#rhyme-record")

    # a rematch: the player's open page offers to follow, and following keeps the seat
    host.goto(f"{base}/r/{code}")
    host.wait_for_selector("#rematch-button:not([hidden])")
    host.click("#rematch-button")
    host.wait_for_url(lambda url: code not in url, timeout=8000)
    phone.wait_for_selector("#follow-line:not([hidden])", timeout=8000)
    phone.click("#follow-link")
    phone.wait_for_selector("#seats .seat:has-text('子由') .badge-you", timeout=8000)


def publish_graded(base, code, host_token):
    """The 詩伯 grades the four poems 中品 and publishes."""
    for seat in (1, 2, 3, 4):
        api(base, "POST", f"/api/rounds/{code}/grades", {"seat": seat, "grade": "中品"}, host_token)
    api(base, "POST", f"/api/rounds/{code}/publish", {}, host_token)


def test_changing_a_grade_after_publication_asks_first(served_round, new_page):
    base, code, tokens = served_round
    publish_graded(base, code, tokens[1])
    judge = new_page()
    judge.goto(f"{base}/r/{code}/k/{tokens[1]}")
    judge.goto(f"{base}/r/{code}/judge")
    asked = []

    def answer(dialog, accept):
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    # declined: nothing is sent, the 品 stays
    judge.once("dialog", lambda dialog: answer(dialog, False))
    judge.click("#seat-2 .grade-button[data-grade='上品']")
    judge.wait_for_function("document.querySelector('#seat-2 .saved').textContent.includes('未改')")
    assert "第 2 座" in asked[0] and "中品" in asked[0] and "上品" in asked[0]
    assert judge.get_attribute("#seat-2 .grade-button[data-grade='中品']", "aria-pressed") == "true"
    # confirmed: the API is told so, and the results say the 品 was changed after publication
    judge.once("dialog", lambda dialog: answer(dialog, True))
    judge.click("#seat-2 .grade-button[data-grade='上品']")
    judge.wait_for_selector("#seat-2 .grade-button[data-grade='上品'][aria-pressed='true']", timeout=8000)
    assert len(asked) == 2
    judge.goto(f"{base}/r/{code}/results")
    row = judge.locator(".results-table tr", has_text="子由").inner_text()
    assert "上品" in row and "公佈後改評" in row
    assert "公佈後改評：中品 → 上品" in judge.inner_text(".results-poems")


def test_the_editor_asks_the_checker_only_from_two_lines_on(live_server, new_page):
    page = new_page()
    checks = []
    page.on("response", lambda r: checks.append(r.status) if r.url.endswith("/api/check") else None)
    page.goto(f"{live_server}/check")
    page.click("#poem-text")
    page.keyboard.type("床前明月光", delay=40)  # one line, typed as a poet types it
    page.keyboard.press("Enter")
    page.keyboard.type("疑", delay=40)  # line 2 begun: read as a title line and one verse line still
    page.wait_for_function("document.querySelector('#poem-report').textContent.includes('詩句太短')")
    page.wait_for_timeout(600)  # past the editor's delay: nothing went out
    assert checks == []
    page.keyboard.type("是地上霜", delay=40)
    page.wait_for_function("document.querySelector('#poem-report').textContent.includes('判定')", timeout=8000)
    assert checks and set(checks) == {200}  # no 400 logged on the way
    page.keyboard.press("Control+A")
    page.keyboard.press("Backspace")
    page.keyboard.type("孤", delay=40)
    page.wait_for_function("document.querySelector('#poem-report').textContent.includes('詩句太短')")
    page.wait_for_timeout(600)
    assert set(checks) == {200}


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, PHONE["viewport"]], ids=["desktop", "phone"])
def test_the_empty_themes_page_shows_no_blank_boxes(live_server, new_page, viewport):
    page = new_page(viewport=viewport)
    page.goto(f"{live_server}/themes")
    page.wait_for_selector("#themes-panel[data-themes-attached]", state="attached")
    assert not page.locator("#hand").is_visible() and not page.locator("#themes-panel").is_visible()
    shot(page, f"themes-empty-{'phone' if viewport['width'] < 500 else 'desktop'}", full_page=False)
    page.click("#themes-sample")  # a hand: now the boxes have something to hold
    page.wait_for_selector("#hand .tile")
    assert page.locator("#themes-panel").is_visible()


def test_a_player_withdraws_and_the_others_see_it_live(served_round, new_page):
    base, code, tokens = served_round  # four poems handed in, none graded yet
    player = new_page(**PHONE)
    player.on("dialog", lambda dialog: dialog.accept())
    player.goto(f"{base}/r/{code}/k/{tokens[2]}")
    other = new_page()
    other.goto(f"{base}/r/{code}/k/{tokens[3]}")
    other.wait_for_selector("#submitted-note:not([hidden])", timeout=8000)
    player.wait_for_selector("#withdraw-button:not([hidden])", timeout=8000)
    handed_in = player.input_value("#poem-text")
    assert player.locator("#poem-text").is_editable() is False  # locked while handed in
    player.click("#withdraw-button")
    # the other player's page says so without a reload
    other.wait_for_function("document.querySelector('#notice').textContent.includes('撤回')", timeout=8000)
    assert "子由" in other.inner_text("#notice")
    # the player's poem is a draft again, with its text, and can be handed in again
    player.wait_for_selector("#submit-button:not([hidden]):not([disabled])", timeout=8000)
    assert player.locator("#poem-text").is_editable() and player.input_value("#poem-text") == handed_in
    assert player.locator("#withdraw-button").is_hidden()
    shot(player, "club-withdrawn-phone", full_page=False)
    # on a slow line 交卷 waits for the saved draft: an empty page is never handed in
    held = []
    player.route("**/draft", lambda route: held.append(route) if route.request.method == "GET" else route.continue_())
    player.reload()
    for _ in range(200):
        if held:
            break
        player.wait_for_timeout(50)
    assert held and player.locator("#submit-button").is_disabled()
    held[0].continue_()
    player.wait_for_selector("#submit-button:not([disabled])", timeout=8000)
    assert player.input_value("#poem-text") == handed_in
    player.unroute("**/draft")
    # once the 詩伯 has graded a poem it can no longer be taken back
    assert other.locator("#withdraw-button").is_visible()
    api(base, "POST", f"/api/rounds/{code}/grades", {"seat": 3, "grade": "中品"}, tokens[1])
    other.reload()
    other.wait_for_selector("#submitted-note:not([hidden])", timeout=8000)
    assert other.locator("#withdraw-button").is_hidden()


def test_rematch_from_the_results_page_and_every_open_page_follows(served_round, new_page):
    base, code, tokens = served_round
    publish_graded(base, code, tokens[1])
    host = new_page()
    host.goto(f"{base}/r/{code}/k/{tokens[1]}")
    dashboard = host.context.new_page()
    dashboard.goto(f"{base}/r/{code}/judge")
    round_page = new_page()
    round_page.goto(f"{base}/r/{code}/k/{tokens[2]}")
    results = new_page()
    results.goto(f"{base}/r/{code}/k/{tokens[3]}")
    results.goto(f"{base}/r/{code}/results")
    assert results.locator("#rematch-button").count() == 0  # a player is not offered it
    assert results.locator("#follow-line").is_hidden()
    host.goto(f"{base}/r/{code}/results")
    host.wait_for_selector("#rematch-button")
    host.click("#rematch-button")
    host.wait_for_url(lambda url: code not in url and "/follow" not in url, timeout=8000)
    new = host.url.rstrip("/").split("/")[-1]
    host.wait_for_selector("#seats .seat:has-text('東坡') .badge-you", timeout=8000)  # the 詩伯 keeps the seat
    # every open page of the old round offers to follow, and following keeps the seat
    dashboard.wait_for_selector("#follow-link", timeout=8000)
    assert dashboard.get_attribute("#follow-link", "href") == f"/r/{new}/follow"
    round_page.wait_for_selector("#follow-line:not([hidden])", timeout=8000)
    results.wait_for_selector("#follow-line:not([hidden])", timeout=8000)
    shot(results, "club-results-follow", full_page=False)
    for page, name in ((round_page, "子由"), (results, "少游")):
        page.click("#follow-link")
        page.wait_for_selector(f"#seats .seat:has-text('{name}') .badge-you", timeout=8000)
        assert new in page.url
    # opened later, the old results page offers it at once
    late = new_page()
    late.goto(f"{base}/r/{code}/results")
    assert late.locator("#follow-line").is_visible()
