"""Live event streams: push to every open stream, limits per address and per round, the real serving command."""

import json
import os
import shutil
import socket
import subprocess
import time
import urllib.request

import pytest

import live
from app import create_app
from poetry.store import Store
from tests.conftest import free_port, serving

#: Run the cross-process test on PostgreSQL with POETRY_TEST_DATABASE_URL=postgresql+psycopg://… (test_postgres.sh)
OTHER_DATABASE = os.environ.get("POETRY_TEST_DATABASE_URL")
#: The README's old club line: `gunicorn -w 1 --threads 32`; one open stream held one thread.
OLD_THREADS = 32


def post(base, path, body):
    request = urllib.request.Request(base + path, method="POST", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def open_stream(base, code, after=0) -> socket.socket:
    """An event stream opened by hand (as many as we like, no client library); its status line is read."""
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=10)
    sock.sendall(f"GET /api/rounds/{code}/events?after={after} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    return sock


def read_until(sock: socket.socket, marker: bytes, seconds: float) -> bytes:
    """What the stream sends until ``marker`` (AssertionError when it does not come in time)."""
    data, deadline = b"", time.monotonic() + seconds
    while marker not in data:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            break
        if not chunk:
            break
        data += chunk
    assert marker in data, data[-500:]
    return data


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": f"sqlite:///{tmp_path / 'l.sqlite3'}",
                       "LIVE_STREAMS_PER_CLIENT": 2, "LIVE_STREAMS_PER_ROUND": 3})


def new_round(client) -> str:
    return client.post("/api/rounds", json={"title": "春日山行", "host_name": "東坡"}).get_json()["code"]


def test_streams_past_the_limits_are_refused_in_chinese_and_a_closed_one_frees_its_place(app):
    client = app.test_client()
    code, other = new_round(client), new_round(client)
    first = client.get(f"/api/rounds/{code}/events", buffered=False)
    second = client.get(f"/api/rounds/{other}/events", buffered=False)
    assert first.status_code == second.status_code == 200
    refused = client.get(f"/api/rounds/{code}/events", buffered=False)
    assert refused.status_code == 429
    assert "即時連線" in refused.get_json()["detail"] and "2" in refused.get_json()["detail"]
    first.close()  # never read: closing alone frees the place
    again = client.get(f"/api/rounds/{code}/events", buffered=False)
    assert again.status_code == 200
    again.close()
    second.close()
    assert app.extensions["live_broker"].open_streams() == 0


def test_a_round_has_its_own_limit(app):
    code = new_round(app.test_client())
    addresses = [f"10.0.0.{i}" for i in range(4)]
    opened = [app.test_client().get(f"/api/rounds/{code}/events", buffered=False,
                                    environ_base={"REMOTE_ADDR": a}) for a in addresses]
    assert [r.status_code for r in opened] == [200, 200, 200, 429]
    assert "這一局" in opened[-1].get_json()["detail"]
    for response in opened:
        response.close()


def test_a_stream_is_woken_by_its_round_only(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'w.sqlite3'}")
    broker = live.Broker(store)
    store.announcer = broker
    mine = store.create_round(title="春日", host_name="東坡")["code"]
    other = store.create_round(title="秋夕", host_name="子由")["code"]
    subscription = broker.subscribe(mine, "127.0.0.1")
    store.join(other, "少游")
    assert not subscription.wait(0.05)
    store.join(mine, "魯直")
    assert subscription.wait(0.05)
    broker.unsubscribe(subscription)
    assert broker.open_streams() == 0


def test_one_shared_poll_finds_another_processs_events(tmp_path):
    """SQLite across processes: the event written by another Store reaches this broker's stream by its poll."""
    url = f"sqlite:///{tmp_path / 'p.sqlite3'}"
    here, there = Store(url), Store(url, migrate=False)
    code = here.create_round(title="春日", host_name="東坡")["code"]
    broker = live.PollingBroker(here, poll_seconds=0.05)
    subscription = broker.subscribe(code, "127.0.0.1")
    time.sleep(0.2)  # the poll has started and seen the table as it is
    there.join(code, "子由")
    assert subscription.wait(5)
    broker.unsubscribe(subscription)
    broker.close()


def test_more_streams_than_the_old_thread_count_and_the_api_still_answers(tmp_path):
    streams = OLD_THREADS * 2
    with serving(f"sqlite:///{tmp_path / 's.sqlite3'}", log_dir=tmp_path,
                 LIVE_STREAMS_PER_CLIENT=streams + 1, LIVE_STREAMS_PER_ROUND=streams + 1) as base:
        code = post(base, "/api/rounds", {"title": "春日山行", "host_name": "東坡"})["code"]
        socks = [open_stream(base, code) for _ in range(streams)]
        try:
            for sock in socks:
                read_until(sock, b"event: seats", 20)  # the 詩伯's seat, the event already in the table
            started = time.monotonic()
            with urllib.request.urlopen(f"{base}/api/rounds/{code}", timeout=10) as response:
                assert json.load(response)["code"] == code
            post(base, f"/api/rounds/{code}/join", {"name": "子由"})
            assert time.monotonic() - started < 10
            for sock in socks:  # the join reaches every open stream
                read_until(sock, "子由".encode(), 10)
        finally:
            for sock in socks:
                sock.close()


@pytest.mark.parametrize("command", ["app.py", "serve.py"])
def test_a_client_that_never_finishes_its_headers_is_cut_off(tmp_path, command):
    """gunicorn's gevent worker, and gevent's own server where gunicorn does not run (serve.py, Windows)."""
    with serving(f"sqlite:///{tmp_path / 'h.sqlite3'}", log_dir=tmp_path, command=command,
                 args=["--header-timeout", "1"]) as base:
        code = post(base, "/api/rounds", {"title": "春日山行", "host_name": "東坡"})["code"]
        stream = open_stream(base, code)
        read_until(stream, b"event: seats", 20)
        stream.close()
        host, port = base.removeprefix("http://").split(":")
        sock = socket.create_connection((host, int(port)), timeout=10)
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        started = time.monotonic()
        with pytest.raises(OSError):
            for _ in range(40):  # one header line every 0.25 s: slowloris
                time.sleep(0.25)
                sock.sendall(b"X-Slow: 1\r\n")
                sock.settimeout(0.01)
                try:
                    if sock.recv(1) == b"":
                        raise ConnectionResetError("closed by the server")
                except TimeoutError:
                    pass
        assert time.monotonic() - started < 8
        sock.close()


@pytest.mark.skipif(not OTHER_DATABASE, reason="needs POETRY_TEST_DATABASE_URL (scripts/test_postgres.sh)")
def test_an_event_written_by_one_process_reaches_a_stream_on_another_by_push(tmp_path):
    """Two servers on one PostgreSQL, no polling (an hour's interval): NOTIFY wakes the other's stream."""
    config = {"EVENT_POLL_SECONDS": 3600, "JOIN_LIMIT": 10_000}
    with serving(OTHER_DATABASE, log_dir=tmp_path, **config) as one, \
            serving(OTHER_DATABASE, log_dir=tmp_path, **config) as other:
        code = post(one, "/api/rounds", {"title": "春日山行", "host_name": "東坡"})["code"]
        sock = open_stream(other, code)
        try:
            read_until(sock, b"event: seats", 20)
            time.sleep(0.5)  # the other server's stream is waiting
            started = time.monotonic()
            post(one, f"/api/rounds/{code}/join", {"name": "子由"})
            read_until(sock, "子由".encode(), 5)
            assert time.monotonic() - started < 5
        finally:
            sock.close()


@pytest.fixture
def redis_url(tmp_path):
    """A throwaway redis-server on a free loopback port (scripts/test.sh installs it)."""
    binary = shutil.which("redis-server")
    if not binary:
        pytest.skip("redis-server is not installed (scripts/test.sh installs it)")
    port = free_port()
    server = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                               "--dir", str(tmp_path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        import redis

        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis.from_url(url).ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_with_redis_an_event_of_one_process_wakes_a_stream_of_another(tmp_path, redis_url):
    url = f"sqlite:///{tmp_path / 'r.sqlite3'}"
    here, there = Store(url), Store(url, migrate=False)
    config = {"LIVE_STREAMS_PER_CLIENT": 20, "LIVE_STREAMS_PER_ROUND": 50, "EVENT_POLL_SECONDS": 3600,
              "REDIS_URL": redis_url}
    here.announcer, there.announcer = live.make_broker(here, config), live.make_broker(there, config)
    assert isinstance(here.announcer, live.RedisBroker)
    code = here.create_round(title="春日", host_name="東坡")["code"]
    subscription = here.announcer.subscribe(code, "127.0.0.1")
    time.sleep(0.3)  # subscribed to the channel
    subscription.clear()
    there.join(code, "子由")
    assert subscription.wait(5)
    here.announcer.unsubscribe(subscription)
    for store in (here, there):
        store.announcer.close()
