"""Measure the round server: time for a deal, for serving a hand, and saving drafts under 50 concurrent writers.

Starts the app under a real threaded server on loopback (gunicorn -w 1 --threads N by default, or
werkzeug's threaded server), on a fresh SQLite file in a temporary directory, fills rounds with seats,
then:

* deal: the 詩伯's POST /deal, over HTTP (client-measured), and Store.deal in-process (server work only);
* hand: GET /hand, over HTTP;
* drafts: W writers (default 50), each on its own keep-alive connection, PUT /draft as fast as the
  server answers, for a fixed time (bounded: it stops by itself); requests/s, p50/p95/p99 latency, errors.

Usage::

    nice -n 10 python scripts/bench_drafts.py                 # gunicorn, 50 writers, 10 s
    python scripts/bench_drafts.py --server werkzeug --seconds 5 --writers 20

Prints a Markdown block for docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timezone
from http.client import HTTPConnection
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(kind: str, port: int, threads: int, db_url: str, workers: int = 1) -> subprocess.Popen:
    env = dict(os.environ, DATABASE_URL=db_url, SECRET_KEY="bench", FLASK_JOIN_LIMIT="100000",
               FLASK_WRITE_LIMIT="1000000 per minute", FLASK_CREATE_ROUND_LIMIT="100000 per minute",
               PYTHONPATH=str(ROOT))
    if kind == "gunicorn":
        cmd = [sys.executable, "-m", "gunicorn", "-w", str(workers), "--threads", str(threads),
               "-b", f"127.0.0.1:{port}",
               "--log-level", "warning", "app:create_app()"]
    else:
        code = ("from app import create_app; from werkzeug.serving import run_simple; "
                f"run_simple('127.0.0.1', {port}, create_app(), threaded=True)")
        cmd = [sys.executable, "-c", code]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            conn = HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/openapi.json")
            if conn.getresponse().status == 200:
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start: " + (proc.stderr.read() or b"").decode()[-2000:])


class Client:
    """One keep-alive connection; request() returns (status, json, seconds)."""

    def __init__(self, port: int):
        self.port = port
        self.conn = HTTPConnection("127.0.0.1", port, timeout=30)

    def request(self, method: str, path: str, body=None, token: str | None = None):
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body, ensure_ascii=False).encode()
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = f"Bearer {token}"
        start = time.perf_counter()
        try:
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
            payload = response.read()
        except (OSError, ConnectionError):
            self.conn.close()
            self.conn = HTTPConnection("127.0.0.1", self.port, timeout=30)
            return 0, {}, time.perf_counter() - start
        elapsed = time.perf_counter() - start
        try:
            parsed = json.loads(payload) if payload else {}
        except ValueError:
            parsed = {}
        return response.status, parsed, elapsed


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def ms(x: float) -> str:
    return f"{x * 1000:.1f} ms"


def event_latency(port: int, code: str, host: str, player: str, cycles: int = 20) -> list[float]:
    """Seconds from sending an action (submit/reopen) to its event arriving on another connection's stream."""
    setup = Client(port)
    _, hand, _ = setup.request("GET", f"/api/rounds/{code}/hand", token=player)
    chars = [t["char"] for t in hand["tiles"]]
    poem = {"title": chars[20], "text": "，".join("".join(chars[i:i + 5]) for i in range(0, 20, 5)) + "。"}
    _, info, _ = setup.request("GET", f"/api/rounds/{code}")
    stream = HTTPConnection("127.0.0.1", port, timeout=30)
    stream.request("GET", f"/api/rounds/{code}/events?after={info['last_event']}")
    response = stream.getresponse()
    arrived: dict[int, float] = {}
    done = threading.Event()

    def read() -> None:
        while not done.is_set():
            try:
                line = response.readline()
            except (OSError, AttributeError, ValueError):  # the stream was closed under us: done
                return
            if not line:
                return
            if line.startswith(b"id: "):
                arrived[int(line[4:])] = time.perf_counter()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    time.sleep(0.5)
    sent = []
    for _ in range(cycles):
        for method, path, body, token in (("POST", "submit", poem, player), ("POST", "reopen", {"seat": 2}, host)):
            started = time.perf_counter()
            status, answer, _ = setup.request(method, f"/api/rounds/{code}/{path}", body, token=token)
            assert status == 200, answer
            sent.append(started)
            time.sleep(0.15)
    time.sleep(1.5)
    done.set()
    stream.close()
    ids = sorted(arrived)
    return [arrived[i] - t for i, t in zip(ids, sent)] + [float("inf")] * (len(sent) - len(ids))


POEM_LINES = ["白日依山盡", "黃河入海流", "欲窮千里目", "更上一層樓",
              "空山新雨後", "天氣晚來秋", "明月松間照", "清泉石上流"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server", choices=["gunicorn", "werkzeug"], default="gunicorn")
    parser.add_argument("--threads", type=int, default=16, help="server threads (gunicorn --threads)")
    parser.add_argument("--workers", type=int, default=1, help="gunicorn worker processes")
    parser.add_argument("--writers", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--hand-requests", type=int, default=200)
    parser.add_argument("--database-url", help="another database, e.g. postgresql+psycopg://… (default: a temp SQLite)")
    args = parser.parse_args(argv)

    tmp = tempfile.mkdtemp(prefix="bench_drafts_")
    db_url = args.database_url or f"sqlite:///{tmp}/bench.sqlite3"
    port = free_port()
    if args.workers > 1:  # migrate once, before the workers start (docs/LIVE_UPDATES.md)
        from poetry.store import Store

        Store(db_url).engine.dispose()
        os.environ["FLASK_AUTO_MIGRATE"] = "false"
    proc = start_server(args.server, port, args.threads, db_url, args.workers)
    try:
        setup = Client(port)
        seats: list[tuple[str, str]] = []  # (code, token) of every writer
        deal_http: list[float] = []
        rounds_needed = (args.writers + 3) // 4
        for r in range(rounds_needed):
            status, created, _ = setup.request("POST", "/api/rounds", {"title": f"測試{r}", "host_name": "詩伯"})
            assert status == 201, created
            code, host = created["code"], created["host_token"]
            seats.append((code, host))
            for i in range(3):
                status, joined, _ = Client(port).request("POST", f"/api/rounds/{code}/join", {"name": f"客{i}"})
                assert status == 201, joined
                seats.append((code, joined["token"]))
            status, dealt, seconds = setup.request("POST", f"/api/rounds/{code}/deal", token=host)
            assert status == 200, dealt
            deal_http.append(seconds)
        seats = seats[: args.writers]

        hand_http = []
        for i in range(args.hand_requests):
            code, token = seats[i % len(seats)]
            status, hand, seconds = setup.request("GET", f"/api/rounds/{code}/hand", token=token)
            assert status == 200 and len(hand["tiles"]) == 150
            hand_http.append(seconds)

        # the deal in-process: Store.deal on a separate database (server work without HTTP)
        from poetry.store import Store

        store = Store(args.database_url or f"sqlite:///{tmp}/inproc.sqlite3")
        deal_inproc = []
        for _ in range(20):
            created = store.create_round(title="測", host_name="主")
            host = store.authenticate(created["code"], created["host_token"])
            for i in range(3):
                store.join(created["code"], f"客{i}")
            start = time.perf_counter()
            store.deal(created["code"], host)
            deal_inproc.append(time.perf_counter() - start)

        # live updates: from sending an action to its event on another connection's stream
        live = event_latency(port, seats[0][0], seats[0][1], seats[1][1])
        missing = sum(x == float("inf") for x in live)
        live = [x for x in live if x != float("inf")]

        # 50 writers saving drafts as they type
        latencies: list[list[float]] = [[] for _ in seats]
        errors = [0] * len(seats)
        stop_at = time.monotonic() + args.seconds
        barrier = threading.Barrier(len(seats))

        def writer(k: int) -> None:
            code, token = seats[k]
            client = Client(port)
            text = ""
            barrier.wait()
            n = 0
            while time.monotonic() < stop_at:
                line = POEM_LINES[n % len(POEM_LINES)]
                text = (text + line[n % 5])[-400:]
                status, _, seconds = client.request("PUT", f"/api/rounds/{code}/draft",
                                                    {"title": "試筆", "text": text}, token=token)
                n += 1
                if status == 200:
                    latencies[k].append(seconds)
                else:
                    errors[k] += 1

        started = time.monotonic()
        threads = [threading.Thread(target=writer, args=(k,)) for k in range(len(seats))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.monotonic() - started
        saves = [x for per in latencies for x in per]
        rps = len(saves) / elapsed

        now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        database = ("PostgreSQL " + db_url.split("@")[-1].split("/")[0] if args.database_url
                    else "SQLite (WAL) in a temp dir")
        server = (f"gunicorn -w {args.workers} --threads {args.threads}" if args.server == "gunicorn"
                  else "werkzeug run_simple(threaded=True)")
        print(f"### Rounds server: deal, hand, drafts under load ({now})\n")
        print(f"Command: `nice -n 10 python scripts/bench_drafts.py --server {args.server} --threads {args.threads} "
              f"--workers {args.workers} --writers {args.writers} --seconds {args.seconds:g}"
              f"{' --database-url …' if args.database_url else ''}`; server: {server}, {database}, "
              f"loopback, Python {platform.python_version()}, {os.cpu_count()} cores shared with other work.\n")
        print("| measure | n | median | p95 | max |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for label, values in (("deal, Store.deal in-process (shuffle, commit, 600 draws, DB write)", deal_inproc),
                              ("deal, POST /deal over HTTP", deal_http),
                              ("hand, GET /hand over HTTP (150 tiles)", hand_http),
                              ("live update: action sent → its event on another open stream", live),
                              (f"draft save, PUT /draft, {len(seats)} concurrent writers", saves)):
            print(f"| {label} | {len(values)} | {ms(statistics.median(values))} | {ms(pct(values, .95))} "
                  f"| {ms(max(values))} |")
        print(f"\nLive updates: {len(live)} events arrived, {missing} missing; slowest {ms(max(live))}.")
        print(f"\nDraft saves: **{rps:.0f} requests/s**, p95 **{ms(pct(saves, .95))}**, p99 {ms(pct(saves, .99))}, "
              f"{sum(errors)} errors, over {elapsed:.1f} s with {len(seats)} writers "
              f"(each waits for its answer before the next save, as the page does).")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
