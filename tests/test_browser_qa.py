"""QA sweep in a real browser: the pages at desktop and phone width, in 繁 and 简.

Every page: no sideways scroll, the nav and the footer, no script error; in 简 no traditional character is
left in the page's own words (the words scripts write included); what users typed, and the tiles, stay
as given. Screenshots go to test-artifacts/qa_*.png.
"""


import pytest
from opencc import OpenCC

from tests.conftest import api, screenshot

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
T2S = OpenCC("t2s")
#: User data and game pieces, shown as given (names, poems, tiles); the themes panel is the themes area's.
AS_GIVEN = (
    "script,style,textarea,input,.as-typed,.tile,.seat-name,.count-text,.poem-text,.poet,.comment,summary,.themes-panel"
)


@pytest.fixture
def dealt_round(live_server):
    """A dealt round of four (the 詩伯 plays); returns (code, tokens)."""
    created = api(live_server, "POST", "/api/rounds", {"title": "秋夜對月", "host_name": "東坡",
                                                       "penalty": "荒牌者罰酒三杯"})
    code, tokens = created["code"], [created["host_token"]]
    for name in ("少游", "魯直", "無咎"):
        tokens.append(api(live_server, "POST", f"/api/rounds/{code}/join", {"name": name})["token"])
    api(live_server, "POST", f"/api/rounds/{code}/deal", {}, tokens[0])
    return code, tokens


def open_page(new_page, base, path, *, script, viewport, seat_link=None):
    page = new_page(viewport=viewport)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{base}/script/{script}")
    if seat_link:
        page.goto(base + seat_link)
    response = page.goto(base + path)
    return page, errors, response


def traditional_left(page) -> list[str]:
    """The page's visible words that 简 should have converted."""
    texts = page.evaluate("""(skip) => { const out = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const p = n.parentElement;
          if (!p || !n.textContent.trim() || p.closest(skip) || !p.checkVisibility()) continue;
          out.push(n.textContent.trim());
        }
        return out; }""", AS_GIVEN)
    return [text for text in texts if T2S.convert(text) != text]


def assert_page_sound(page, errors, name):
    screenshot(page, name)
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"] + 1, name
    assert page.locator("nav.site-nav a").count() >= 4 and page.locator("footer.site-footer").is_visible()
    assert not errors, errors


@pytest.mark.parametrize("script, viewport", [("hant", DESKTOP), ("hans", PHONE)])
def test_static_pages(live_server, new_page, script, viewport):
    for path, name in (("/", "home"), ("/r/new", "new"), ("/no/such/page", "404"), ("/r/ZZZZZZ", "round404")):
        page, errors, response = open_page(new_page, live_server, path, script=script, viewport=viewport)
        assert_page_sound(page, errors, f"qa_{name}_{script}_{viewport['width']}")
        if script == "hans":
            assert traditional_left(page) == [], name
        if name.endswith("404"):
            assert response.status == 404
            assert page.locator(".error-page h1").inner_text().startswith("找不到")
            assert page.locator(".error-page a[href='/']").is_visible()
        page.close()


def test_check_page_in_simplified_on_a_phone(live_server, new_page):
    page, errors, _ = open_page(new_page, live_server, "/check", script="hans", viewport=PHONE)
    page.fill("textarea", "風急天高猿嘯哀，渚清沙白鳥飛回。\n無邊落木蕭蕭下，不盡長江滾滾來。")
    page.wait_for_selector(".tile[data-tone]")
    page.wait_for_timeout(300)
    assert_page_sound(page, errors, "qa_check_hans_390")
    # The poem's own characters stay as typed (they are in .tile); everything around them is 简体.
    assert traditional_left(page) == []


def test_round_page_simplified_phone_words_written_by_the_script(live_server, new_page, dealt_round):
    code, tokens = dealt_round
    page, errors, _ = open_page(new_page, live_server, f"/r/{code}", script="hans", viewport=PHONE,
                                seat_link=f"/r/{code}/k/{tokens[1]}")
    page.wait_for_selector("#hand .tile")
    if page.locator("#skip-anim").is_visible():
        page.click("#skip-anim")
    page.wait_for_timeout(300)
    assert_page_sound(page, errors, "qa_round_dealt_hans_390")
    assert traditional_left(page) == []
    assert "张" in page.locator("#hand-count").inner_text()
    # the round's title and penalty rule are the 詩伯's words, shown as typed
    assert page.locator("h1").inner_text() == "秋夜對月" and "荒牌者罰酒三杯" in page.locator(".penalty").inner_text()
    tile = page.locator("#hand .tile").first
    assert tile.get_attribute("title").endswith("画")
    # Sorted by rhyme group, the group labels are in 简体 too (上平一东), and so are the tiles' tooltips.
    page.click("[data-sort=rhyme]")
    page.wait_for_selector(".hand-group-label")
    assert traditional_left(page) == []
    titles = page.eval_on_selector_all("#hand .tile", "nodes => nodes.map(n => n.title).join('')")
    assert T2S.convert(titles) == titles
    screenshot(page, "qa_round_by_rhyme_hans_390")
    # The count tile is the tile as dealt, like the tiles in the hands (not converted to 简体).
    hand = api(live_server, "GET", f"/api/rounds/{code}", token=tokens[1])["count_tile"]["char"]
    assert page.locator("#count-tile").inner_text() == hand


def test_verify_page_wraps_the_commitment_on_a_phone(live_server, new_page, dealt_round):
    code, _ = dealt_round
    page, errors, _ = open_page(new_page, live_server, f"/r/{code}/verify", script="hant", viewport=PHONE)
    assert page.locator("code.code").is_visible()
    assert_page_sound(page, errors, "qa_verify_unpublished_390")


def test_join_error_in_simplified(live_server, new_page, dealt_round):
    code, _ = dealt_round
    page, errors, _ = open_page(new_page, live_server, f"/r/{code}", script="hans", viewport=DESKTOP)
    # The round is full and dealt: a visitor who tries the API from the page sees the refusal in 简体.
    detail = page.evaluate("""(code) => fetch('/api/rounds/' + code + '/join', {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name: '秦觀'})}).then(r => r.json())
        .then(d => d.detail)""", code)
    assert detail and T2S.convert(detail) == detail


def test_verify_a_published_deal_in_simplified_on_a_phone(live_server, new_page, dealt_round):
    code, tokens = dealt_round
    api(live_server, "POST", f"/api/rounds/{code}/publish", {}, tokens[0])
    page, errors, _ = open_page(new_page, live_server, f"/r/{code}/verify", script="hans", viewport=PHONE)
    page.click("#verify-button")
    page.wait_for_function("document.querySelectorAll('#checks li').length >= 4")
    oks = page.eval_on_selector_all("#checks li", "nodes => nodes.map(n => n.dataset.ok)")
    assert oks and all(ok == "true" for ok in oks), page.inner_text("#checks")
    assert_page_sound(page, errors, "qa_verify_published_hans_390")
    count_tile = api(live_server, "GET", f"/api/rounds/{code}/results")["reveal"]["order"][0]
    left = [text.replace(count_tile, "") for text in traditional_left(page)]  # the tile is named as dealt
    assert [text for text in left if T2S.convert(text) != text] == []
