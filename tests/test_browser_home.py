"""The home page in a real browser, desktop and phone, in both scripts."""

import pytest

from tests.conftest import screenshot

pytestmark = pytest.mark.browser


def test_home_desktop_and_phone(live_server, new_page):
    page = new_page()
    page.goto(live_server + "/")
    assert page.locator("h1").inner_text() == "詩牌"
    screenshot(page, "home-desktop")
    page.click("text=简")
    page.wait_for_load_state()
    assert "首页" in page.content()

    phone = new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone.goto(live_server + "/")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "the home page scrolls sideways on a phone"
    screenshot(phone, "home-phone")
