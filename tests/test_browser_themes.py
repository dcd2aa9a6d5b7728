"""The themes panel in a real browser: the standalone /themes page, desktop and phone."""

import pytest

from tests.conftest import screenshot

pytestmark = pytest.mark.browser

HAND = "山峰洞石澗壑巖嶺泉瀑松猿 江萍湖浦漁磯釣舟蓑鷗 東風中紅空同 之而其於 天年前煙邊"


def test_paste_a_hand_pick_a_theme_start_a_draft(live_server, new_page):
    page = new_page()
    page.goto(live_server + "/themes")
    page.fill("#themes-input", HAND)
    page.click("#themes-form button[type=submit]")
    page.wait_for_selector(".theme-card")
    cards = page.locator(".theme-card")
    names = [cards.nth(i).get_attribute("data-theme") for i in range(cards.count())]
    assert names[:2] == ["山景", "水村釣"] and names[-1] == "其他"
    # the strength bar is drawn, widest for the strongest theme
    widths = [cards.nth(i).locator(".theme-bar-fill").bounding_box()["width"] for i in range(2)]
    assert widths[0] > 0 and widths[0] >= widths[1]

    # picking 水村釣 lights up exactly its tiles in the hand
    page.click('.theme-card[data-theme="水村釣"] .theme-pick')
    lit = page.eval_on_selector_all("#hand .tile.theme-hl", "ns => ns.map(n => n.dataset.char)")
    assert {"漁", "磯", "釣", "萍"} <= set(lit) and not {"峰", "壑", "之"} & set(lit)
    assert "漁舟" in page.inner_text('.theme-card[data-theme="水村釣"] .theme-words')
    assert page.locator("#hand.theme-focus").count() == 1
    screenshot(page, "themes-desktop")

    page.evaluate("""() => { window.__started = null;
        document.addEventListener('theme:start', e => { window.__started = e.detail; }); }""")
    card = page.locator('.theme-card[data-theme="水村釣"]')
    card.locator(".theme-option").nth(0).click()
    card.locator(".theme-start").click()
    started = page.evaluate("window.__started")
    assert started["theme"] == "水村釣" and started["title"]
    assert started["rhyme"].startswith(("上平", "下平")) and len(started["feet"]) >= 3
    assert started["title"] in page.locator("#themes-started").inner_text()

    # the typed hand survives a reload
    page.reload()
    assert page.input_value("#themes-input") == HAND


def test_bad_input_shows_a_message_and_keeps_the_text(live_server, new_page):
    page = new_page()
    page.goto(live_server + "/themes")
    page.fill("#themes-input", "hello world")
    page.click("#themes-form button[type=submit]")
    page.wait_for_function("document.querySelector('#themes-error').textContent.length > 0")
    assert "漢字" in page.inner_text("#themes-error")
    assert page.input_value("#themes-input") == "hello world"


def test_phone_width_and_random_hand(live_server, new_page):
    phone = new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone.goto(live_server + "/themes")
    phone.click("#themes-sample")
    phone.wait_for_selector(".theme-card")
    assert phone.locator("#hand .tile").count() == 150
    phone.locator(".theme-pick").first.scroll_into_view_if_needed()
    phone.locator(".theme-pick").first.click()
    # the marked tiles are off screen above: the panel offers a jump to them
    phone.click(".theme-jump")
    phone.wait_for_function(
        "(() => { const b = document.querySelector('#hand .tile.theme-hl').getBoundingClientRect();"
        " return b.top >= 0 && b.bottom <= window.innerHeight; })()", timeout=5000)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "the themes page scrolls sideways on a phone"
    screenshot(phone, "themes-phone")


def test_panel_follows_the_round_hand_event(live_server, new_page):
    """The panel as the round page uses it: the hand arrives by the `round:hand` event."""
    page = new_page()
    page.goto(live_server + "/themes")
    tiles = [{"char": c, "tone": "平"} for c in "江萍湖浦漁磯釣舟蓑鷗之而其於"]
    page.evaluate(
        """tiles => {
            const hand = document.getElementById('hand');
            tiles.forEach(t => { const s = document.createElement('span');
                s.className = 'tile'; s.textContent = t.char; hand.appendChild(s); });
            const panel = document.getElementById('themes-panel');
            panel.removeAttribute('data-themes-attached');
            document.getElementById('themes-form').id = 'gone';
            ThemesPanel.attach(panel);
            document.dispatchEvent(new CustomEvent('round:hand', {detail: {tiles}}));
        }""",
        tiles,
    )
    page.wait_for_selector('.theme-card[data-theme="水村釣"]')
    page.click('.theme-card[data-theme="水村釣"] .theme-pick')
    lit = page.eval_on_selector_all("#hand .tile.theme-hl", "ns => ns.map(n => n.textContent)")
    assert {"漁", "磯", "釣"} <= set(lit) and "之" not in lit
