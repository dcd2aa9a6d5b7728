"""Faults under load: kill -9 of the server, a PostgreSQL restart, a full disk. Does any acknowledged write go?

Serves the app as it is served for real (`python app.py`: gunicorn's gevent worker) on a loopback port,
seats four players in a dealt round and has them save drafts as fast as they can (PUT /api/rounds/<code>/draft,
each text numbered). Then, per fault:

- ``kill``: kill -9 the whole server (master and workers) mid-load, start it again;
- ``pg-restart``: restart PostgreSQL (immediate shutdown) mid-load, on a throwaway server;
- ``disk-full``: the SQLite database on a small tmpfs (root; mount -t tmpfs), its WAL truncated and every free
  block filled mid-load (drafts of 1,800 characters), then freed.

It reports, per fault: acknowledged writes lost (a seat's stored revision older than the newest revision
the server answered 200 for; must be 0), the answers given while the fault lasted (503 with Retry-After is
honest, 500 is not), and the time from the fault (and from its end) to the first write that succeeded after
the last one that failed. Bounded: each phase runs
for a few seconds, only against 127.0.0.1. Usage::

    python scripts/bench_faults.py                  # all three faults
    python scripts/bench_faults.py --only kill --database sqlite
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PG_BIN = sorted(Path("/usr/lib/postgresql").glob("*/bin"))[-1] if Path("/usr/lib/postgresql").exists() else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def call(base: str, method: str, path: str, body=None, token=None, timeout=10.0):
    """(status, decoded JSON or None, headers); status 0 when no answer came (refused, reset, timeout)."""
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body or {}).encode(),
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {token}"} if token else {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.load(response), response.headers
    except urllib.error.HTTPError as error:
        try:
            return error.code, json.load(error), error.headers
        except ValueError:
            return error.code, None, error.headers
    except (OSError, ValueError, http.client.HTTPException):  # refused, reset, cut short
        return 0, None, {}


class Server:
    """`python app.py` (gunicorn's gevent worker) on a loopback port, started and killed as a process group."""

    def __init__(self, database_url: str, workers: int = 2):
        self.port, self.url, self.workers, self.process = free_port(), database_url, workers, None
        self.base = f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = dict(os.environ, DATABASE_URL=self.url, SECRET_KEY="bench", FLASK_WARM_UP="false",
                   FLASK_JOIN_LIMIT="100000", FLASK_WRITE_LIMIT="1000000 per minute",
                   FLASK_CREATE_ROUND_LIMIT="100000 per minute", PYTHONPATH=str(ROOT))
        self.process = subprocess.Popen(
            [sys.executable, "app.py", "--host", "127.0.0.1", "--port", str(self.port), "--workers",
             str(self.workers)],
            cwd=ROOT, env=env, start_new_session=True, stdout=subprocess.DEVNULL,
            stderr=open(os.environ.get("BENCH_FAULTS_LOG", os.devnull), "a"))
        deadline = time.monotonic() + 60
        while call(self.base, "GET", "/api/rounds/ZZZZZZ", timeout=2)[0] != 404:
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.2)

    def kill(self) -> None:
        """kill -9 of the master and every worker."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


class Load:
    """Four seats saving numbered drafts in threads; remembers the newest revision acknowledged per seat."""

    def __init__(self, base: str, code: str, tokens: dict[int, str], padding: str = ""):
        self.base, self.code, self.tokens, self.padding = base, code, tokens, padding
        self.acked = dict.fromkeys(tokens, 0)
        self.answers: collections.Counter = collections.Counter()
        self.fault_at: float | None = None
        self.failed_at: float | None = None  # the last failed write after the fault
        self.recovered_at: float | None = None  # the first successful write after the last failure
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._run, args=(seat,), daemon=True) for seat in tokens]

    def _run(self, seat: int) -> None:
        n = 0
        while not self.stop.is_set():
            n += 1
            draft = {"title": "測", "text": f"第{n}稿{self.padding}"}
            status, body, headers = call(self.base, "PUT", f"/api/rounds/{self.code}/draft", draft,
                                         self.tokens[seat], timeout=5)
            if self.fault_at is not None:
                honest = status == 503 and headers.get("Retry-After")
                self.answers["503 Retry-After" if honest else str(status or "no answer")] += 1
            if status == 200:
                self.acked[seat] = max(self.acked[seat], body["revision"])
                if self.failed_at is not None and not self.recovered():
                    self.recovered_at = time.monotonic()
            else:
                if self.fault_at is not None:
                    self.failed_at = time.monotonic()
                time.sleep(0.05)

    def recovered(self) -> bool:
        """Whether a write succeeded after the last one that failed."""
        return self.recovered_at is not None and self.recovered_at > self.failed_at

    def __enter__(self):
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=10)

    def lost(self) -> int:
        """Acknowledged revisions the database no longer has (each seat: newest acked minus stored)."""
        lost = 0
        for seat, token in self.tokens.items():
            status, body, _ = call(self.base, "GET", f"/api/rounds/{self.code}/draft", token=token)
            stored = body["revision"] if status == 200 else 0
            lost += max(0, self.acked[seat] - stored)
        return lost


def dealt_round(base: str) -> tuple[str, dict[int, str]]:
    _, created, _ = call(base, "POST", "/api/rounds", {"title": "試", "host_name": "主"})
    code, tokens = created["code"], {1: created["host_token"]}
    for name in ("甲", "乙", "丙"):
        _, joined, _ = call(base, "POST", f"/api/rounds/{code}/join", {"name": name})
        tokens[joined["seat"]] = joined["token"]
    call(base, "POST", f"/api/rounds/{code}/deal", token=tokens[1])
    return code, tokens


def run_fault(name: str, server: Server, fault, recover, seconds: float, padding: str = "") -> dict:
    """Load, then the fault, then recovery; the figures of one trial (``padding`` lengthens every draft)."""
    code, tokens = dealt_round(server.base)
    with Load(server.base, code, tokens, padding) as load:
        time.sleep(seconds)
        load.fault_at = time.monotonic()
        fault()
        time.sleep(seconds / 2)
        recover()
        ended_at = time.monotonic()
        deadline = ended_at + 60
        while load.failed_at is not None and not load.recovered() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(seconds / 2)
    acked = sum(load.acked.values())
    # from the fault (and from its end) to the first write that succeeded after the last failure (0: none failed)
    if load.failed_at is None:
        recovery = after_end = 0.0
    elif load.recovered():
        recovery, after_end = round(load.recovered_at - load.fault_at, 2), round(load.recovered_at - ended_at, 2)
    else:
        recovery = after_end = None
    return {"fault": name, "acknowledged": acked, "lost": load.lost(), "answers during fault": dict(load.answers),
            "seconds to recover": recovery, "after the fault ended": after_end}


def fault_kill(database_url: str, seconds: float) -> dict:
    server = Server(database_url)
    server.start()
    try:
        return run_fault("kill -9", server, server.kill, server.start, seconds)
    finally:
        server.kill()


class Postgres:
    """A throwaway PostgreSQL server in a temporary directory (as scripts/test_postgres.sh)."""

    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="shipai-faults-pg."))
        self.port = free_port()
        self.run = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
        if self.run:
            shutil.chown(self.dir, "postgres")
        self.url = f"postgresql+psycopg://postgres@/shipai?host={self.dir}&port={self.port}"

    def ctl(self, *args: str) -> None:
        subprocess.run([*self.run, str(PG_BIN / "pg_ctl"), "-D", str(self.dir / "data"), *args], cwd=self.dir,
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def __enter__(self):
        subprocess.run([*self.run, str(PG_BIN / "initdb"), "-D", str(self.dir / "data"), "-A", "trust", "-U",
                        "postgres", "-E", "UTF8"], cwd=self.dir, check=True, stdout=subprocess.DEVNULL)
        self.start()
        subprocess.run([str(PG_BIN / "psql"), "-q", "-h", str(self.dir), "-p", str(self.port), "-U", "postgres",
                        "-c", "CREATE DATABASE shipai"], check=True, stdout=subprocess.DEVNULL)
        return self

    def start(self) -> None:
        self.ctl("-l", str(self.dir / "server.log"), "-w", "-o",
                 f"-p {self.port} -k {self.dir} -c listen_addresses=''", "start")

    def stop(self) -> None:
        self.ctl("-m", "immediate", "stop")

    def __exit__(self, *exc):
        try:
            self.stop()
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)


def fault_pg_restart(seconds: float) -> dict:
    with Postgres() as pg:
        server = Server(pg.url)
        server.start()
        try:
            return run_fault("PostgreSQL restart", server, pg.stop, pg.start, seconds)
        finally:
            server.kill()


def fault_disk_full(seconds: float) -> dict:
    """SQLite on an 8 MB tmpfs, drafts of 1,800 characters: the disk is filled mid-load, then freed.

    A full disk alone stops nothing: SQLite rewrites its pages and its WAL in place, so saving the
    same drafts again needs no new block. So the fault first checkpoints the WAL and truncates it to
    nothing (``PRAGMA wal_checkpoint(TRUNCATE)``), then fills every free block: the next commit must
    append to the WAL and meets ENOSPC (SQLite: "database or disk is full") until the filler goes.
    """
    mount = Path(tempfile.mkdtemp(prefix="shipai-faults-disk."))
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(mount)], check=True)
    database, filler = mount / "rounds.sqlite3", mount / "filler"
    try:
        server = Server(f"sqlite:///{database}")
        server.start()

        def fill():
            truncate_wal(database)
            with open(filler, "wb", buffering=0) as out:
                for block in (65536, 4096, 512, 1):  # every free block, to the last byte
                    try:
                        while True:
                            out.write(b"\0" * block)
                    except OSError:  # ENOSPC: full at this block size
                        pass

        try:
            return run_fault("full disk (SQLite on tmpfs)", server, fill, lambda: filler.unlink(), seconds,
                             padding="山水" * 900)
        finally:
            server.kill()
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)
        mount.rmdir()


def truncate_wal(database: Path) -> None:
    """Checkpoint the WAL into the database file and truncate it (retried while writers hold it)."""
    import sqlite3

    connection = sqlite3.connect(database, timeout=10)
    try:
        for _ in range(50):
            busy, _, _ = connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            if not busy:
                return
            time.sleep(0.02)
    finally:
        connection.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["kill", "pg-restart", "disk-full"])
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"], default="both",
                        help="for kill -9: which database the server writes to")
    parser.add_argument("--seconds", type=float, default=4.0, help="load before the fault (and after it)")
    parser.add_argument("--trials", type=int, default=1)
    args = parser.parse_args(argv)
    results = []
    for _ in range(args.trials):
        if args.only in (None, "kill"):
            if args.database in ("sqlite", "both"):
                with tempfile.TemporaryDirectory() as tmp:
                    results.append({**fault_kill(f"sqlite:///{tmp}/rounds.sqlite3", args.seconds),
                                    "database": "SQLite"})
            if args.database in ("postgresql", "both"):
                with Postgres() as pg:
                    results.append({**fault_kill(pg.url, args.seconds), "database": "PostgreSQL"})
        if args.only in (None, "pg-restart"):
            results.append(fault_pg_restart(args.seconds))
        if args.only in (None, "disk-full"):
            results.append(fault_disk_full(args.seconds))
    for result in results:
        print(json.dumps(result, ensure_ascii=False))
    return 1 if any(result["lost"] for result in results) else 0


if __name__ == "__main__":
    raise SystemExit(main())
