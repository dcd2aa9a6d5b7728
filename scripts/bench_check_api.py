"""Time POST /api/check through the Flask test client: validation, the checker, the 繁/简 pass, JSON.

    python scripts/bench_check_api.py [--n 500]

Prints p50/p95 per request for a 七律 (no hand, with a 150-tile hand, read in 简体) and the size
of the JSON the live editor receives. In-process (no network), so it is the server's share of a
keystroke's round trip.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import create_app  # noqa: E402

DENG_GAO = (
    "登高\n風急天高猿嘯哀，渚清沙白鳥飛回。\n無邊落木蕭蕭下，不盡長江滾滾來。\n"
    "萬里悲秋常作客，百年多病獨登臺。\n艱難苦恨繁霜鬢，潦倒新停濁酒杯。"
)
HAND = "風天高哀回來臺杯山峰洞石澗壑江萍湖草煙浦漁磯" * 6


def measure(client, payload: dict, n: int) -> tuple[float, float, int]:
    """Median and 95th percentile in ms over n requests, and the response size in bytes."""
    client.post("/api/check", json=payload)
    times = []
    for _ in range(n):
        start = time.perf_counter()
        response = client.post("/api/check", json=payload)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.get_data(as_text=True)
    times.sort()
    return statistics.median(times), times[int(0.95 * (n - 1))], len(response.data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=500)
    args = parser.parse_args(argv)
    app = create_app({"TESTING": True, "SECRET_KEY": "bench"})
    client = app.test_client()
    planted = DENG_GAO.replace("渚清", "渚淺")
    cases = [
        ("七律, 合律", {"text": DENG_GAO}),
        ("七律, one planted fault (fixes suggested)", {"text": planted}),
        ("七律 + 150-tile hand", {"text": planted, "hand": HAND}),
    ]
    print("| case | p50 ms | p95 ms | JSON bytes |\n| --- | --- | --- | --- |")
    for name, payload in cases:
        p50, p95, size = measure(client, payload, args.n)
        print(f"| {name} | {p50:.2f} | {p95:.2f} | {size:,} |")
    client.set_cookie("script", "hans")
    p50, p95, size = measure(client, {"text": planted, "hand": HAND}, args.n)
    print(f"| 七律 + hand, 简体 reader | {p50:.2f} | {p95:.2f} | {size:,} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
