"""Shared fixtures: an app on a temporary SQLite file, its test client, the served app, and warnings as errors."""

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import pytest

from app import create_app
from serve import stop


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


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port() -> int:
    """A loopback port nobody listens on (the OS picks it)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def serving(database_url: str, *, args=(), log_dir=None, command="app.py", **config):
    """Serve the app with the real serving command, `python app.py`, on a free loopback port; yields its base URL.

    ``command`` may be ``serve.py`` (one gevent process, as on Windows). ``config`` goes in as FLASK_*
    variables (TESTING and a SECRET_KEY by default); the server is stopped (SIGINT: gunicorn's quick
    shutdown) after. Its output is in ``log_dir``/server-<port>.log.
    """
    port = free_port()
    settings = {"TESTING": True, "SECRET_KEY": "browser-test", **config}
    env = {**os.environ, "DATABASE_URL": database_url,
           **{f"FLASK_{name}": value if isinstance(value, str) else json.dumps(value)
              for name, value in settings.items()}}
    log_path = os.path.join(log_dir or tempfile.gettempdir(), f"server-{port}.log")
    with open(log_path, "wb") as log:
        server = subprocess.Popen([sys.executable, command, "--port", str(port), *args], cwd=ROOT, env=env,
                                  stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_until_serving(base, server, log_path)
        yield base
    finally:
        stop(server)


def _wait_until_serving(base: str, server: subprocess.Popen, log_path: str, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            break
        try:
            with urllib.request.urlopen(base + "/api/openapi.json", timeout=5):
                return
        except OSError:
            time.sleep(0.2)
    with open(log_path, encoding="utf-8", errors="replace") as log:
        pytest.fail(f"`python app.py` did not start serving {base}:\n{log.read()[-3000:]}")


@pytest.fixture
def live_server(tmp_path):
    """The app served by `python app.py` on a free loopback port; yields its base URL."""
    with serving(f"sqlite:///{tmp_path / 'live.sqlite3'}", log_dir=tmp_path) as base:
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

    url = f"sqlite:///{tmp_path / 'round.sqlite3'}"
    app = create_app({"TESTING": True, "SECRET_KEY": "browser-test", "DATABASE_URL": url})
    code, tokens = judged_round(app, app.test_client(), penalty=round_penalty)
    app.extensions["poetry_store"].engine.dispose()
    with serving(url, log_dir=tmp_path) as base:
        yield base, code, tokens


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
