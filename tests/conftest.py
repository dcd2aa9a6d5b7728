"""Shared fixtures: an app on a temporary SQLite file, its test client, and warnings as errors."""

import contextlib
import json
import os
import shutil
import threading
import urllib.request

import pytest
from werkzeug.serving import make_server

from app import create_app


def pytest_configure(config):
    config.addinivalue_line("filterwarnings", "error")
    # Third-party code that warns on import is not ours to fix.
    config.addinivalue_line("filterwarnings", "ignore::DeprecationWarning:jieba.*")
    config.addinivalue_line("filterwarnings", "ignore:pkg_resources is deprecated:UserWarning")
    config.addinivalue_line("markers", "browser: drives Debian's chromium through Playwright")


@pytest.fixture
def app(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'test.sqlite3'}",
        }
    )
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


# --- browser tests ------------------------------------------------------------------------------
# Playwright drives Debian's chromium (/usr/bin/chromium); scripts/test.sh installs it.

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
SCREENSHOTS = os.path.join(os.path.dirname(__file__), "..", "test-artifacts")


def api(base, method, path, body=None, token=None):
    """Call the served app's JSON API as a script would (a Bearer token when given); the decoded answer."""
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body or {}).encode(),
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


@contextlib.contextmanager
def serving(app):
    """Serve ``app`` on a free loopback port in a thread; yields its base URL, stops the server after."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)


@pytest.fixture
def live_server(tmp_path):
    """The app served on a free loopback port in a thread; yields its base URL."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "browser-test",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'live.sqlite3'}",
        }
    )
    with serving(app) as base:
        yield base


@pytest.fixture
def round_penalty():
    """The penalty rule of ``served_round``'s round (a module may override this fixture)."""
    return "罰酒三杯"


@pytest.fixture
def served_round(tmp_path, round_penalty):
    """A live server with a dealt round of four real poems handed in (tests/judge_fixtures.py: the 詩伯 東坡
    at seat 1, then 子由, 少游, 魯直); yields (base URL, code, {seat: token})."""
    from tests.judge_fixtures import judged_round

    app = create_app({"TESTING": True, "SECRET_KEY": "browser-test",
                      "DATABASE_URL": f"sqlite:///{tmp_path / 'round.sqlite3'}"})
    code, tokens = judged_round(app, app.test_client(), penalty=round_penalty)
    with serving(app) as base:
        yield base, code, tokens
    app.extensions["poetry_store"].engine.dispose()


@pytest.fixture(scope="session")
def browser():
    """One headless chromium for the session."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"chromium not found at {CHROMIUM}: run `bash scripts/test.sh`, which installs it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser):
    """Factory for pages in separate browser contexts (separate cookies: one per player)."""
    contexts = []

    def make(viewport=None, **kwargs):
        # Playwright's string predicates (wait_for_function) run through eval, which the app's CSP
        # forbids; tests/test_browser_csp.py loads the pages with the CSP enforced.
        kwargs.setdefault("bypass_csp", True)
        context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900}, **kwargs)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def screenshot(page, name: str) -> str:
    """Save a full-page screenshot under test-artifacts/ and return its path (to look at, and for docs/)."""
    os.makedirs(SCREENSHOTS, exist_ok=True)
    path = os.path.abspath(os.path.join(SCREENSHOTS, f"{name}.png"))
    page.screenshot(path=path, full_page=True)
    return path
