"""The 詩伯 grades four poems on the dashboard and publishes; a player sees the results live."""

from urllib.parse import unquote

import pytest

from tests.conftest import screenshot

pytestmark = pytest.mark.browser


def test_judge_grades_and_publishes(served_round, new_page):
    base, code, tokens = served_round
    player = new_page()
    player.goto(f"{base}/r/{code}/k/{tokens[2]}")
    judge = new_page()
    judge.goto(f"{base}/r/{code}/k/{tokens[1]}")
    judge.goto(f"{base}/r/{code}/judge")
    sheets = judge.locator("article.sheet")
    assert sheets.count() == 4
    # bars are drawn for the criteria, and the jumbled poem (seat 3) is suggested low
    assert judge.locator("#seat-1 .criteria .bar > span").count() >= 7
    assert judge.locator("#seat-3 .suggestion .pin").inner_text() in ("下品", "荒牌")
    screenshot(judge, "judge-dashboard")
    assert judge.locator("#grade-ladder .rung[data-grade=''] .rung-name").count() == 4  # all 未評 at first

    for seat, grade in ((1, "上品"), (2, "中品"), (3, "荒牌"), (4, "上品")):
        if seat == 4:
            judge.fill("#comment-4", "沉鬱頓挫，結句尤佳。")
        judge.click(f"#seat-{seat} .grade-button[data-grade='{grade}']")
        judge.wait_for_selector(f"#seat-{seat} .grade-button[data-grade='{grade}'][aria-pressed='true']")
        judge.wait_for_function(f"document.querySelector('#seat-{seat} .saved').textContent.includes('已定')")
    summary = judge.locator("#standing-summary").inner_text()
    assert "東坡" in summary and "魯直" in summary and "少游" in summary and "罰酒 2 杯" in summary  # cups (issue 12)
    screenshot(judge, "judge-dashboard-graded")
    # the 品第圖 follows each click: every graded name sits on its 品's rung
    ladder = judge.eval_on_selector_all(
        "#grade-ladder .rung:not([hidden])",
        "rungs => rungs.map(r => [r.dataset.grade, [...r.querySelectorAll('.rung-name')].map(n => n.textContent)])")
    placed = {name: grade for grade, names in ladder for name in names}
    assert placed == {"東坡": "上品", "子由": "中品", "少游": "荒牌", "魯直": "上品"}
    assert not judge.locator("#grade-ladder .rung[data-grade='']").is_visible()  # nobody left 未評

    judge.click("#publish-button")
    judge.wait_for_selector("a.button[href$='/results']")
    # the player's round page shows the results without a reload
    player.wait_for_selector("#results-panel:not([hidden])", timeout=10000)
    player.wait_for_selector("#results-panel .poem-card", timeout=10000)
    assert "上品" in player.locator("#results-panel").inner_text()

    judge.goto(f"{base}/r/{code}/results")
    text = judge.locator("main").inner_text()
    assert "成績單" in text and "沉鬱頓挫" in text and "少游 罰酒 2 杯" in text  # cups (issue 12)
    screenshot(judge, "judge-results")
    # the 品第圖 draws higher grades as longer rungs
    widths = judge.eval_on_selector_all(".rung:not([hidden]) .rung-fill",
                                        "els => els.map(e => e.getBoundingClientRect().width)")
    assert len(widths) == 4 and widths == sorted(widths, reverse=True)
    judge.set_viewport_size({"width": 390, "height": 844})
    assert judge.evaluate("document.documentElement.scrollWidth") <= 392
    screenshot(judge, "judge-results-phone")
    judge.set_viewport_size({"width": 1280, "height": 900})
    judge.goto(f"{base}/rounds/history")
    assert "秋日雅集" in judge.locator("main").inner_text()


def test_dashboard_on_a_phone(served_round, new_page):
    base, code, tokens = served_round
    phone = new_page(viewport={"width": 390, "height": 844})
    phone.goto(f"{base}/r/{code}/k/{tokens[1]}")
    phone.goto(f"{base}/r/{code}/judge")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 392
    phone.click("#seat-2 .grade-button[data-grade='中品']")
    phone.wait_for_selector("#seat-2 .grade-button[data-grade='中品'][aria-pressed='true']")
    screenshot(phone, "judge-dashboard-phone")


def test_judge_sets_the_rules_limits(served_round, new_page):
    """The 詩伯 opens the thresholds, sets 貼題's floor and ticks 失格荒牌: the suggestions follow, and the page
    reopens with the same settings (kept on this device)."""
    base, code, tokens = served_round
    judge = new_page()
    judge.goto(f"{base}/r/{code}/k/{tokens[1]}")
    judge.goto(f"{base}/r/{code}/judge")
    judge.click(".thresholds summary")
    switch = judge.locator(".threshold-form input[name='失格荒牌']")
    assert switch.get_attribute("type") == "checkbox" and not switch.is_checked()
    judge.fill(".threshold-form input[name='貼題_floor']", "1")
    switch.check()
    screenshot(judge, "judge-thresholds")
    judge.click(".threshold-form button[type='submit']")
    judge.wait_for_url(lambda url: "失格荒牌=1" in unquote(url))
    pins = judge.locator(".sheet .suggestion .pin").all_inner_texts()
    assert pins and set(pins) == {"荒牌"}
    # 格調 (taste among competent poems) is drawn beside the criteria, with its reason
    taste = judge.locator("#seat-4 .criterion.taste")
    assert taste.locator(".c-name").inner_text() == "格調" and "「" in taste.locator(".c-expl").inner_text()
    full = screenshot(judge, "judge-thresholds-applied")
    judge.locator("#seat-4").screenshot(path=full.replace(".png", "-sheet.png"))
    judge.goto(f"{base}/r/{code}/judge")  # no query: the saved thresholds come back
    judge.wait_for_url(lambda url: "失格荒牌=1" in unquote(url))
    assert judge.locator(".threshold-form input[name='失格荒牌']").is_checked()
