"""Issue 11, the security and fault audit: each failure it found, held by a test (what held stays in test_qa_api).

Deep JSON, limits on every door, security headers, private links that ask before switching seats,
look-alike names, honest storage errors, and the smaller points (reopened poems, chunked bodies,
control characters in hands, Allow on 405, SQLite's synchronous mode).
"""

import http.client
import re
import sqlite3
import threading
from html.parser import HTMLParser

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from app import STORAGE_RETRY_SECONDS, create_app
from poetry.store import make_engine, upgrade_database
from poetry.store.ratelimit import DatabaseStorage
from poetry.store.schema import MIGRATIONS_DIR
from tests.conftest import serving

HAN = re.compile(r"[\u4e00-\u9fff]")
LOOK_ALIKES = ["東坡\u200b", "東\u200d坡", "\u200e東坡", "東坡\u200f", "\ufeff東坡", "東\u2060坡", "東坡\ufe0f",
               "東坡\U000e0041", "東\u0301坡", "東坡\u3164", "東坡\u00a0", "\u3000東坡", "東坡\u180e"]


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def limited_app(tmp_path):
    """An app with small limits, to reach them quickly."""
    def make(**config):
        return create_app({"TESTING": True, "SECRET_KEY": "test",
                           "DATABASE_URL": f"sqlite:///{tmp_path / 'limits.sqlite3'}", **config})
    return make


@pytest.fixture
def dealt(app):
    """A dealt round: the 詩伯 東坡 at seat 1 and three players; (code, [token by seat - 1])."""
    client = app.test_client()
    created = client.post("/api/rounds", json={"title": "春日", "host_name": "東坡"}).get_json()
    code, tokens = created["code"], [created["host_token"]]
    for name in ("少游", "魯直", "無咎"):
        tokens.append(app.test_client().post(f"/api/rounds/{code}/join", json={"name": name}).get_json()["token"])
    assert client.post(f"/api/rounds/{code}/deal", headers=bearer(tokens[0])).status_code == 200
    return code, tokens


# --- 1. deep JSON ------------------------------------------------------------------------------------


def json_write_routes(app, code):
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            for method in sorted(rule.methods & {"POST", "PUT"}):
                yield method, rule.rule.replace("<code>", code)


@pytest.mark.parametrize("depth", [1000, 100_000, 33])
def test_deep_json_is_a_400_in_chinese_on_every_json_endpoint(app, dealt, depth):
    code, tokens = dealt
    body = "[" * depth + "]" * depth
    routes = list(json_write_routes(app, code))
    assert len(routes) >= 9
    for method, path in routes:
        auth = {} if path.endswith("/join") else bearer(tokens[0])  # a seated token may not join again
        response = app.test_client().open(path, method=method, data=body, content_type="application/json",
                                          headers=auth)
        if path.endswith(("/deal", "/publish")):  # these read no body: a deep one is ignored
            assert response.status_code < 500, path
            continue
        assert response.status_code == 400, (path, response.status_code)
        assert "巢狀太深" in response.get_json()["detail"], path


def test_json_as_deep_as_a_round_needs_is_read(client):
    nested = {"text": "床前明月光，疑是地上霜。舉頭望明月，低頭思故鄉。", "hand": ["床", "前"]}
    assert client.post("/api/check", json=nested).status_code == 200
    assert client.post("/api/themes", json={"chars": ["山", "水"]}).status_code == 200


# --- 2. limits on every door ---------------------------------------------------------------------


def assert_limited(response):
    assert response.status_code == 429, response.get_data(as_text=True)[:200]
    assert int(response.headers["Retry-After"]) > 0
    assert HAN.search(response.get_json()["detail"])


def test_creating_rounds_is_limited_but_a_club_never_meets_it(client):
    for _ in range(60):  # 60 per 10 minutes, from one client, all allowed
        assert client.post("/api/rounds", json={"title": "春日", "host_name": "東坡"}).status_code == 201
    assert_limited(client.post("/api/rounds", json={"title": "春日", "host_name": "東坡"}))


def test_guessing_round_codes_is_limited(limited_app):
    app = limited_app(WRONG_CODE_LIMIT="5 per 10 minutes")
    client = app.test_client()
    code = client.post("/api/rounds", json={"title": "春日", "host_name": "東坡"}).get_json()["code"]
    for guess in range(5):
        assert client.get(f"/api/rounds/ZZZZZ{guess}").status_code == 404
    assert_limited(client.get("/api/rounds/ZZZZZZ"))
    assert_limited(client.get(f"/api/rounds/{code}"))  # the guesser waits, whatever it asks next
    assert app.test_client().get(f"/r/{code}/k/not-a-token", environ_base={"REMOTE_ADDR": "10.1.1.1"}) \
        .status_code == 404  # another client has its own count


def test_joining_is_limited_per_client_and_shared_by_workers(limited_app):
    first = limited_app(JOIN_LIMIT=3)
    second = limited_app(JOIN_LIMIT=3)  # another worker on the same database
    code = first.test_client().post("/api/rounds", json={"title": "春日", "host_name": "東坡"}).get_json()["code"]
    assert first.test_client().post(f"/api/rounds/{code}/join", json={"name": "甲"}).status_code == 201
    assert second.test_client().post(f"/api/rounds/{code}/join", json={"name": "乙"}).status_code == 201
    assert first.test_client().post("/api/rounds/ZZZZZZ/join", json={"name": "丙"}).status_code == 404
    assert_limited(second.test_client().post(f"/api/rounds/{code}/join", json={"name": "丁"}))


def test_writes_are_limited_per_seat(limited_app):
    app = limited_app(WRITE_LIMIT="3 per minute")
    client = app.test_client()
    created = client.post("/api/rounds", json={"title": "春日", "host_name": "東坡"}).get_json()
    code, host = created["code"], created["host_token"]
    for _ in range(3):
        assert client.post(f"/api/rounds/{code}/deal", headers=bearer(host)).status_code == 409  # 人還沒到齊
    assert_limited(client.post(f"/api/rounds/{code}/deal", headers=bearer(host)))
    assert client.get(f"/api/rounds/{code}", headers=bearer(host)).status_code == 200  # reads are not writes


def test_trusted_proxies_give_each_client_behind_the_proxy_its_own_count(limited_app):
    def guesses(app, forwarded_for):
        client = app.test_client()
        return [client.get("/api/rounds/ZZZZZZ", headers={"X-Forwarded-For": forwarded_for}).status_code
                for _ in range(3)]

    behind = limited_app(WRONG_CODE_LIMIT="2 per 10 minutes", TRUSTED_PROXIES=1)
    assert guesses(behind, "198.51.100.1") == [404, 404, 429]
    assert guesses(behind, "198.51.100.2") == [404, 404, 429]
    direct = limited_app(WRONG_CODE_LIMIT="2 per 10 minutes")  # no proxy trusted: the header is ignored
    assert guesses(direct, "203.0.113.7") == [404, 404, 429]
    assert guesses(direct, "203.0.113.8") == [429, 429, 429]  # the same client (127.0.0.1) to this app


# --- 3. security headers -------------------------------------------------------------------------


class ScriptFinder(HTMLParser):
    """Inline scripts (no src, not JSON data) and inline event handlers of a page."""

    def __init__(self):
        super().__init__()
        self.inline_nonces, self.handlers = [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.handlers += [name for name in attrs if name.startswith("on")]
        if tag == "script" and "src" not in attrs and attrs.get("type") != "application/json":
            self.inline_nonces.append(attrs.get("nonce"))


def test_every_page_has_the_security_headers_and_no_unnonced_script(app, client, dealt):
    code, tokens = dealt
    client.get(f"/r/{code}/k/{tokens[0]}")  # the 詩伯's seat on this browser
    pages = ["/", "/check", "/themes", "/r/new", f"/r/{code}", f"/r/{code}/judge", f"/r/{code}/verify",
             "/rounds/history", "/no/such/page", f"/api/rounds/{code}", f"/api/rounds/{code}/hand",
             f"/api/rounds/{code}/hands", f"/api/rounds/{code}/draft", f"/api/rounds/{code}/judge"]
    for path in pages:
        response = client.get(path)
        csp = response.headers["Content-Security-Policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, path
        assert "unsafe-inline" not in csp.split("script-src")[1].split(";")[0], path
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] in ("same-origin", "no-referrer")
        assert response.headers["Cache-Control"] == "no-store", path
        if response.mimetype == "text/html":
            finder = ScriptFinder()
            finder.feed(response.get_data(as_text=True))
            assert not finder.handlers, (path, finder.handlers)
            for nonce in finder.inline_nonces:
                assert nonce and f"'nonce-{nonce}'" in csp, path
    static = client.get("/static/style.css")
    assert static.headers.get("Cache-Control") != "no-store"  # public files may be cached
    static.close()


def test_the_results_page_prints_without_inline_handlers(app, client):
    from tests.judge_fixtures import grade_all, judged_round

    code, tokens = judged_round(app, client)
    grade_all(client, code, tokens[1])
    client.post(f"/api/rounds/{code}/publish", headers=bearer(tokens[1]))
    page = client.get(f"/r/{code}/results")
    assert page.status_code == 200 and "onclick" not in page.get_data(as_text=True)


# --- 4. private links ask before switching seats -------------------------------------------------


def test_a_private_link_asks_before_moving_a_seated_browser(app, dealt):
    code, tokens = dealt
    browser = app.test_client()
    assert browser.get(f"/r/{code}/k/{tokens[1]}").status_code == 302  # no seat yet: straight in
    asked = browser.get(f"/r/{code}/k/{tokens[2]}")  # another player's link
    page = asked.get_data(as_text=True)
    assert asked.status_code == 200 and "換到第 3 座" in page and "Set-Cookie" not in asked.headers
    assert browser.get(f"/api/rounds/{code}").get_json()["me"]["seat"] == 2  # still seat 2
    assert browser.post(f"/r/{code}/k/{tokens[2]}", data={"csrf": "wrong"}).status_code == 403
    assert browser.post(f"/r/{code}/k/{tokens[2]}").status_code == 403
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    switched = browser.post(f"/r/{code}/k/{tokens[2]}", data={"csrf": csrf})
    assert switched.status_code == 303
    assert browser.get(f"/api/rounds/{code}").get_json()["me"]["seat"] == 3
    assert browser.get(f"/r/{code}/k/{tokens[2]}").status_code == 302  # one's own link again: no question


# --- 5. look-alike names -------------------------------------------------------------------------


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_a_look_alike_of_a_seated_name_is_refused(app, name):
    client = app.test_client()
    code = client.post("/api/rounds", json={"title": "春日", "host_name": "東坡"}).get_json()["code"]
    response = app.test_client().post(f"/api/rounds/{code}/join", json={"name": name})
    assert response.status_code == 400 and "已有人用了" in response.get_json()["detail"], name


@pytest.mark.parametrize("name, seated", [("\uf90a", "金"), ("\u2f2d", "山")])
def test_compatibility_ideographs_and_radicals_are_the_plain_character(app, name, seated):
    client = app.test_client()
    code = client.post("/api/rounds", json={"title": "春日", "host_name": seated}).get_json()["code"]
    response = app.test_client().post(f"/api/rounds/{code}/join", json={"name": name})
    assert response.status_code == 400


@pytest.mark.parametrize("name", ["\u200b", "\u3164", "\u00a0\u200d", "\ufe0f"])
def test_a_name_of_only_invisible_characters_is_refused(client, name):
    response = client.post("/api/rounds", json={"title": "春日", "host_name": name})
    assert response.status_code == 400 and "名號" in response.get_json()["detail"]


def test_names_stored_before_normalising_are_normalised_by_migration(app, dealt):
    """0005_normal_names: look-alikes already seated become the plain name; a clash gets its seat number."""
    from alembic import command
    from alembic.config import Config

    code, _ = dealt
    engine = app.extensions["poetry_store"].engine
    stored = {1: "東坡", 2: "東坡\u200b", 3: "\u200b\u2060", 4: "\uf90a\u00a0\u2f2d"}  # as joins wrote them before
    with engine.begin() as conn:
        for seat, name in stored.items():
            conn.execute(text("UPDATE seats SET name = :name WHERE seat = :seat AND round_id = "
                              "(SELECT id FROM rounds WHERE code = :code)"), {"name": name, "seat": seat, "code": code})
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0004_club")
    upgrade_database(engine)
    with engine.connect() as conn:
        names = dict(conn.execute(text("SELECT seat, name FROM seats WHERE round_id = "
                                       "(SELECT id FROM rounds WHERE code = :code)"), {"code": code}).all())
    assert names == {1: "東坡", 2: "東坡（2）", 3: "座3", 4: "金 山"}


# --- 6. honest storage errors --------------------------------------------------------------------


def test_a_write_the_database_refuses_is_a_503_that_claims_nothing_saved(app, client, dealt, monkeypatch):
    code, tokens = dealt
    store = app.extensions["poetry_store"]

    def disk_full(*args, **kwargs):
        raise OperationalError("UPDATE drafts", {}, sqlite3.OperationalError("database or disk is full"))

    monkeypatch.setattr(store, "save_draft", disk_full)
    response = client.put(f"/api/rounds/{code}/draft", json={"title": "春", "text": "山"}, headers=bearer(tokens[1]))
    assert response.status_code == 503 and int(response.headers["Retry-After"]) > 0
    assert "尚未儲存，稍後自動重試" in response.get_json()["detail"]
    assert "未遺失" not in response.get_data(as_text=True)


def database_gone(statement):
    return OperationalError(statement, {}, Exception("server closed the connection unexpectedly"))


def test_a_503_keeps_its_own_retry_after_not_the_limit_window(app, client, dealt, monkeypatch):
    code, tokens = dealt

    def restarting(*args, **kwargs):
        raise database_gone("UPDATE drafts")

    monkeypatch.setattr(app.extensions["poetry_store"], "save_draft", restarting)
    response = client.put(f"/api/rounds/{code}/draft", json={"title": "春", "text": "山"}, headers=bearer(tokens[1]))
    assert response.status_code == 503 and response.headers["Retry-After"] == str(STORAGE_RETRY_SECONDS)


def test_a_database_lost_after_the_view_answered_does_not_turn_the_answer_into_a_500(app, client, dealt,
                                                                                      monkeypatch):
    """The PostgreSQL restart of bench_faults: the draft was saved, then the limiter's header read failed."""
    code, tokens = dealt
    store = app.extensions["poetry_store"]
    saved, gone = store.save_draft, threading.Event()

    def save_then_lose_the_database(*args, **kwargs):
        result = saved(*args, **kwargs)
        gone.set()
        return result

    def read_count(self, key):
        if gone.is_set():
            raise database_gone("SELECT rate_limits.count")
        return DatabaseStorage.get.__wrapped_original__(self, key)

    read_count.__wrapped_original__ = DatabaseStorage.get
    monkeypatch.setattr(store, "save_draft", save_then_lose_the_database)
    monkeypatch.setattr(DatabaseStorage, "get", read_count)
    response = client.put(f"/api/rounds/{code}/draft", json={"title": "春", "text": "山"}, headers=bearer(tokens[1]))
    assert response.status_code == 200 and response.get_json()["revision"] >= 1


def test_a_storage_error_outside_the_view_is_a_503_not_a_500(app, client):
    app.config["PROPAGATE_EXCEPTIONS"] = False  # as served (TESTING lets such an error reach the test)

    @app.after_request
    def lose_the_database(response):
        raise database_gone("SELECT 1")

    response = client.get("/api/rounds/ZZZZZZ")
    assert response.status_code == 503 and response.headers["Retry-After"] == str(STORAGE_RETRY_SECONDS)
    assert "暫時無法使用" in response.get_json()["detail"]


# --- 7. migration under several workers ----------------------------------------------------------


def test_workers_migrating_a_fresh_database_at_once_all_start(tmp_path):
    errors = []

    def migrate(engine):
        try:
            upgrade_database(engine)
        except Exception as exc:  # noqa: BLE001 - the test reports what any worker met
            errors.append(exc)

    for attempt in range(4):
        url = f"sqlite:///{tmp_path / f'fresh{attempt}.sqlite3'}"
        engines = [make_engine(url) for _ in range(4)]
        threads = [threading.Thread(target=migrate, args=(engine,)) for engine in engines]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for engine in engines:
            engine.dispose()
        assert not errors, errors


# --- 9. smaller ----------------------------------------------------------------------------------


def test_a_reopened_poem_never_handed_in_again_is_not_published(app, client):
    from tests.judge_fixtures import judged_round

    code, tokens = judged_round(app, client)
    from tests.judge_fixtures import grade_all

    assert client.post(f"/api/rounds/{code}/reopen", json={"seat": 2}, headers=bearer(tokens[1])).status_code == 200
    grade_all(client, code, tokens[1], seats=(1, 3, 4))
    assert client.post(f"/api/rounds/{code}/publish", headers=bearer(tokens[1])).status_code == 200
    poems = {p["seat"]: p for p in client.get(f"/api/rounds/{code}/results").get_json()["poems"]}
    assert poems[2]["submitted"] is False and poems[2]["text"] == "" and poems[2]["reopened"] is True
    page = client.get(f"/r/{code}/results").get_data(as_text=True)
    assert "重開後未再交" in page


def test_a_chunked_body_over_the_limit_is_a_413(tmp_path):
    with serving(f"sqlite:///{tmp_path / 'chunked.sqlite3'}", log_dir=tmp_path) as base:
        connection = http.client.HTTPConnection(*base[len("http://"):].split(":"))
        chunks = (b'{"text": "' if i == 0 else b"a" * (1024 * 1024) for i in range(21))  # 20 MB, chunked
        connection.request("POST", "/api/check", body=chunks, headers={"Content-Type": "application/json"},
                           encode_chunked=True)
        response = connection.getresponse()
        assert response.status == 413
        connection.close()


@pytest.mark.parametrize("chars", ["山\x00水", "山\x1b水", "山\u202e水", ["山", "\x00"]])
def test_themes_refuse_control_characters_like_check(client, chars):
    response = client.post("/api/themes", json={"chars": chars})
    assert response.status_code == 400 and "控制字元" in response.get_json()["detail"]
    if isinstance(chars, str):
        assert client.post("/api/check", json={"text": chars}).status_code == 400


@pytest.mark.parametrize("method, path, allowed", [("POST", "/check", "GET"), ("DELETE", "/api/check", "POST"),
                                                    ("GET", "/api/rounds", "POST")])
def test_a_405_keeps_allow(client, method, path, allowed):
    response = client.open(path, method=method)
    assert response.status_code == 405 and allowed in response.headers["Allow"]


def test_sqlite_round_data_is_synced_fully(app):
    with app.extensions["poetry_store"].engine.connect() as conn:
        assert conn.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
