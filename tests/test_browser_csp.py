"""The pages work under their Content-Security-Policy: every script runs, nothing is blocked (issue 11)."""

import pytest

pytestmark = pytest.mark.browser


def test_every_page_runs_its_scripts_under_the_csp(served_round, new_page):
    base, code, tokens = served_round
    page = new_page(bypass_csp=False)
    violations = []
    page.on("console", lambda message: violations.append(message.text)
            if "Content Security Policy" in message.text else None)
    page.on("pageerror", lambda error: violations.append(str(error)))
    page.goto(f"{base}/r/{code}/k/{tokens[1]}")  # the 詩伯's seat: round page, then the dashboard
    page.wait_for_selector("#round-state", state="attached")
    for path in ("/", "/check", "/themes", "/r/new", f"/r/{code}", f"/r/{code}/judge", f"/r/{code}/verify"):
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
    page.goto(f"{base}/check")
    page.fill("#poem-text", "床前明月光，疑是地上霜。")
    page.wait_for_selector("#poem-report :first-child", timeout=10_000)  # editor.js ran, fetched, drew the report
    assert violations == []
