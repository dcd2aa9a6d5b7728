"""Shared fixtures: an app on a temporary SQLite file, its test client, and warnings as errors."""

import pytest

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
