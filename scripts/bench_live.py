"""Load benchmark of live rounds: K open event streams over M rounds against the real serving command.

    python scripts/bench_live.py --streams 2000 --rounds 500                           # SQLite, one process
    python scripts/bench_live.py --streams 10000 --rounds 2500 --workers 4 --postgres  # throwaway PostgreSQL

It creates the rounds (each with its 詩伯 seated), starts `python app.py --port P --workers N`, opens the
streams (asyncio, one socket each), then measures while they are all open:

- API latency: GET /api/rounds/<code> from a few concurrent clients, p50 and p95;
- an event through the API (a player joins, served by any worker) until it reached *every* open stream of
  its round; with several workers most streams of a round are on another worker than the join;
- an event written by another process (this script's own Store, as a second machine would), which only
  the cross-process path (NOTIFY, Redis or the shared poll) can deliver;
- memory per idle stream: the server processes' PSS (/proc/<pid>/smaps_rollup) with the streams open,
  less before, over K.

Linux only (/proc). The open-file limit is raised to what the streams need; the run stops by itself
(every wait is bounded) and talks only to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from live import make_broker  # noqa: E402
from poetry.store import Store  # noqa: E402
from serve import stop  # noqa: E402


def get_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=2000, help="open event streams (K)")
    parser.add_argument("--rounds", type=int, default=500, help="rounds they are spread over (M)")
    parser.add_argument("--workers", type=int, default=1, help="server processes")
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL server (else SQLite)")
    parser.add_argument("--database", help="a DATABASE_URL to use instead (its tables get the rounds)")
    parser.add_argument("--events", type=int, default=20, help="events of each kind to time")
    parser.add_argument("--api-requests", type=int, default=400, help="API requests to time")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    return parser


# --- the server and its database ------------------------------------------------------------------


@contextlib.contextmanager
def throwaway_postgres():
    """A PostgreSQL server in a temporary directory (as scripts/test_postgres.sh); yields its URL."""
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[4].split(".")[0]))
    if not versions:
        raise SystemExit("PostgreSQL is not installed (scripts/test.sh installs it)")
    bin_dir, data = versions[-1], tempfile.mkdtemp(prefix="shipai-bench-pg.")
    run = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
    if run:
        subprocess.run(["chown", "postgres", data], check=True)
    port = free_port()
    quiet = {"cwd": data, "check": True, "stdout": subprocess.DEVNULL}
    subprocess.run([*run, f"{bin_dir}/initdb", "-D", f"{data}/db", "-A", "trust", "-U", "postgres", "-E", "UTF8",
                    "--locale=C.UTF-8"], **quiet)
    options = f"-p {port} -k {data} -c listen_addresses='' -c max_connections=400 -c fsync=off"
    subprocess.run([*run, f"{bin_dir}/pg_ctl", "-D", f"{data}/db", "-l", f"{data}/log", "-w", "-o", options,
                    "start"], **quiet)
    try:
        subprocess.run([f"{bin_dir}/psql", "-q", "-h", data, "-p", str(port), "-U", "postgres", "-c",
                        "CREATE DATABASE shipai_bench"], **quiet)
        yield f"postgresql+psycopg://postgres@/shipai_bench?host={data}&port={port}"
    finally:
        subprocess.run([*run, f"{bin_dir}/pg_ctl", "-D", f"{data}/db", "-m", "immediate", "stop"], cwd=data,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run(["rm", "-rf", data])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def served(database_url: str, workers: int, streams: int):
    """`python app.py --port P --workers N` with limits no benchmark client meets; yields (base URL, pid)."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "FLASK_LIVE_STREAMS_PER_CLIENT": str(streams + 100),
           "FLASK_LIVE_STREAMS_PER_ROUND": str(streams + 100), "FLASK_JOIN_LIMIT": "1000000"}
    log = open(Path(tempfile.gettempdir()) / f"bench_live-{port}.log", "wb")  # noqa: SIM115 - closed below
    server = subprocess.Popen([sys.executable, "app.py", "--port", str(port), "--workers", str(workers)], cwd=ROOT,
                              env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while not answers(base + "/api/openapi.json"):
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server did not start: see {log.name}")
            time.sleep(0.3)
        while len(server_pids(server.pid)) < workers + 1 and time.monotonic() < deadline:
            time.sleep(0.3)
        yield base, server.pid
    finally:
        stop(server, 30)
        log.close()


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5):
            return True
    except OSError:
        return False


def server_pids(master: int) -> list[int]:
    """The server's processes: gunicorn's master and its workers (Linux /proc)."""
    children = []
    for stat in glob.glob("/proc/[0-9]*/stat"):
        with contextlib.suppress(OSError):
            fields = Path(stat).read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == master:
                children.append(int(stat.split("/")[2]))
    return [master, *children]


def pss_kib(pids: list[int]) -> int:
    """Proportional set size of these processes, in KiB (shared pages counted once)."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
    return total


def raise_file_limit(needed: int) -> None:
    """Each stream is a socket here and one in a worker: raise RLIMIT_NOFILE (inherited by the server)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = max(soft, needed + 1000)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, max(hard, want)))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed + 100:
        raise SystemExit(f"open-file limit {soft} is below the {needed} streams")


# --- the clients -----------------------------------------------------------------------------------


class Stream:
    """One open event stream: the time each player's seat event arrived."""

    def __init__(self, code: str):
        self.code = code
        self.arrived: dict[int, float] = {}
        self.open = asyncio.Event()

    async def run(self, port: int, gate: asyncio.Semaphore) -> None:
        await gate.acquire()  # held until the stream is open and has its first event, as a page's would be
        writer = None
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(f"GET /api/rounds/{self.code}/events HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
            status = await reader.readline()
            if b" 200 " not in status:
                raise RuntimeError(f"stream refused: {status!r}")
            while line := await reader.readline():
                if line.startswith(b"data: ") and b'"seat"' in line:
                    seat = json.loads(line[6:])["seat"]
                    self.arrived.setdefault(seat, time.perf_counter())
                    if seat == 1 and not self.open.is_set():
                        self.open.set()
                        gate.release()
        finally:
            if not self.open.is_set():
                gate.release()
            if writer is not None:
                writer.close()


async def http_get(port: int, path: str) -> float:
    """One GET on a new connection; seconds until the whole answer is in."""
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n".encode())
    status = await reader.readline()
    await reader.read()
    writer.close()
    if b" 200 " not in status:
        raise RuntimeError(f"GET {path}: {status!r}")
    return time.perf_counter() - started


async def api_latency(port: int, codes: list[str], requests: int, clients: int = 4) -> list[float]:
    """Latencies of GET /api/rounds/<code> from ``clients`` concurrent clients."""
    times: list[float] = []

    async def client(offset: int) -> None:
        for i in range(offset, requests, clients):
            times.append(await http_get(port, f"/api/rounds/{codes[i % len(codes)]}"))

    await asyncio.gather(*(client(c) for c in range(clients)))
    return times


async def reach_every_stream(streams: list[Stream], seat: int, act, timeout: float = 30) -> float:
    """Do ``act`` (which writes seat ``seat``'s event); seconds until every given stream has it."""
    started = time.perf_counter()
    await act()
    deadline = started + timeout
    while any(seat not in s.arrived for s in streams):
        if time.perf_counter() > deadline:
            return float("inf")
        await asyncio.sleep(0.002)
    return max(s.arrived[seat] for s in streams) - started


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def http_post(port: int, path: str, body: dict) -> None:
    data = json.dumps(body, ensure_ascii=False).encode()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"POST {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\nContent-Type: application/json\r\n"
                 f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
    status = await reader.readline()
    await reader.read()
    writer.close()
    if b" 201 " not in status and b" 200 " not in status:
        raise RuntimeError(f"POST {path}: {status!r}")


async def open_streams(port: int, codes: list[str], count: int) -> tuple[list[Stream], list[asyncio.Task], float]:
    """Open ``count`` streams over the rounds; (streams, their tasks, seconds until all had the first event)."""
    gate = asyncio.Semaphore(100)  # connections being opened at once
    streams = [Stream(codes[i % len(codes)]) for i in range(count)]
    started = time.perf_counter()
    tasks = [asyncio.create_task(s.run(port, gate)) for s in streams]
    deadline = started + 60 + count / 50
    while not all(s.open.is_set() for s in streams):
        failed = [t for t in tasks if t.done() and t.exception()]
        if failed:
            raise failed[0].exception()
        if time.perf_counter() > deadline:
            raise SystemExit(f"only {sum(s.open.is_set() for s in streams)} of {count} streams opened")
        await asyncio.sleep(0.05)
    return streams, tasks, time.perf_counter() - started


def summary(seconds: list[float]) -> dict[str, float]:
    """p50, p95 and max in milliseconds, and how many within one second."""
    return {"p50_ms": round(percentile(seconds, 0.50) * 1000, 1), "p95_ms": round(percentile(seconds, 0.95) * 1000, 1),
            "max_ms": round(max(seconds) * 1000, 1), "within_1s": sum(s <= 1 for s in seconds), "count": len(seconds)}


async def measure(args: argparse.Namespace, base: str, master: int, store: Store, codes: list[str]) -> dict:
    """Open the streams and take every measurement while they are open."""
    port = int(base.rsplit(":", 1)[1])
    baseline = await api_latency(port, codes, 100)
    before = pss_kib(server_pids(master))
    streams, tasks, opening = await open_streams(port, codes, args.streams)
    await asyncio.sleep(3)  # settled: every stream idle in its wait
    pids = server_pids(master)
    after = pss_kib(pids)
    fds = {pid: len(os.listdir(f"/proc/{pid}/fd")) for pid in pids[1:]}
    latency = await api_latency(port, codes, args.api_requests)
    by_round: dict[str, list[Stream]] = {}
    for stream in streams:
        by_round.setdefault(stream.code, []).append(stream)
    sample = list(by_round)[: args.events]
    loop = asyncio.get_running_loop()
    via_api = [await reach_every_stream(by_round[c], 2, lambda c=c: http_post(port, f"/api/rounds/{c}/join",
                                                                              {"name": "客"})) for c in sample]
    via_other = [await reach_every_stream(by_round[c], 3, lambda c=c: loop.run_in_executor(None, store.join, c, "旅"))
                 for c in sample]
    latency_during = await api_latency(port, codes, args.api_requests)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"open_seconds": round(opening, 1), "api_idle": summary(baseline), "api_with_streams": summary(latency),
            "api_with_streams_again": summary(latency_during), "event_via_api": summary(via_api),
            "event_from_another_process": summary(via_other), "streams_per_round": args.streams / len(codes),
            "memory_mib_before": round(before / 1024, 1), "memory_mib_with_streams": round(after / 1024, 1),
            "kib_per_stream": round((after - before) / args.streams, 1), "fds_per_worker": list(fds.values())}


def make_rounds(store: Store, count: int) -> list[str]:
    return [store.create_round(title="春日山行", host_name="東坡")["code"] for _ in range(count)]


def machine() -> dict:
    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), "?")
    return {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cpus": os.cpu_count(), "cpu": model,
            "load_average": os.getloadavg()}


def run(args: argparse.Namespace, url: str) -> dict:
    store = Store(url)
    store.announcer = make_broker(store, {"LIVE_STREAMS_PER_CLIENT": 1, "LIVE_STREAMS_PER_ROUND": 1,
                                          "EVENT_POLL_SECONDS": 1})
    codes = make_rounds(store, args.rounds)
    started = machine()
    with served(url, args.workers, args.streams) as (base, master):
        results = asyncio.run(measure(args, base, master, store, codes))
    store.engine.dispose()
    return {"streams": args.streams, "rounds": args.rounds, "workers": args.workers,
            "database": store.engine.dialect.name, **started, "load_average_after": os.getloadavg(), **results}


def main(argv: list[str] | None = None) -> int:
    args = get_parser().parse_args(argv)
    raise_file_limit(args.streams + 200)
    with contextlib.ExitStack() as stack:
        if args.database:
            url = args.database
        elif args.postgres:
            url = stack.enter_context(throwaway_postgres())
        else:
            url = f"sqlite:///{stack.enter_context(tempfile.TemporaryDirectory())}/bench.sqlite3"
        results = run(args, url)
    if args.json:
        print(json.dumps(results, ensure_ascii=False, indent=1))
    else:
        for key, value in results.items():
            print(f"{key:28} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
