"""Measure the deal over many simulated rounds: invariants, first seats, rhyme richness, time per deal.

    nice -n 10 python scripts/bench_deal.py [--deals 10000] [--seed 1]

Prints a Markdown section for docs/BENCHMARKS.md. Deals use a seeded random.Random (so the run can be
repeated); the timing also covers the default cryptographic shuffle (secrets.SystemRandom).
"""

from __future__ import annotations

import argparse
import collections
import datetime
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from poetry.tiles import deal_round, first_seat, load_tile_set, replay_deal, verify_deal  # noqa: E402

RICH_GROUPS = 3  # a hand is rich when at least this many 平 groups …
RICH_DEPTH = 4  # … each hold at least this many of its 平 tiles


def check_invariants(deal, all_chars: list[str]) -> list[str]:
    """Broken invariants of one deal (an empty list when all hold)."""
    problems = []
    if any(len(h) != 150 for h in deal.hands.values()) or sorted(deal.hands) != [1, 2, 3, 4]:
        problems.append("hand sizes")
    if sorted(c for h in deal.hands.values() for c in h) != all_chars:
        problems.append("each tile once")
    if not verify_deal(deal.salt, deal.stack, deal.commitment):
        problems.append("commitment")
    if [s for s, _ in deal.draws] != [deal.turn_order[i % 4] for i in range(600)]:
        problems.append("turn order")
    if deal.turn_order[0] != first_seat(deal.count_tile.strokes, deal.host_seat):
        problems.append("count rule")
    if deal.draws[-1][1] != deal.stack[0]:
        problems.append("count tile drawn last")
    return problems


def _tile_set_lines(tiles) -> list[str]:
    """The tile set's word-class mix (from data/tiles.json) and its 平 groups, for the record."""
    import json

    from poetry.data import data_path

    with open(data_path("tiles.json"), encoding="utf-8") as fh:
        records = json.load(fh)["tiles"]
    mix = collections.Counter((r["tone"], r.get("class", "?")) for r in records)
    groups = collections.Counter(t.rhyme for t in tiles if t.tone == "平")
    return [
        "- Tile set (data/tiles.json): word classes 平 "
        + " ".join(f"{c} {mix[('平', c)]}" for c in "名動形虛")
        + "; 仄 " + " ".join(f"{c} {mix[('仄', c)]}" for c in "名動形虛")
        + " (名 noun, 動 verb, 形 adjective, 虛 function word). 平 tiles per group: "
        + " ".join(f"{g[2:]}{n}" for g, n in groups.most_common()) + ".",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    tiles = load_tile_set()
    by_char = {t.char: t for t in tiles}
    all_chars = sorted(by_char)
    rng = random.Random(args.seed)
    hosts = [1, 2, 3, 4, None]

    broken: collections.Counter = collections.Counter()
    # first seat relative to the start of the count (詩伯's seat, or seat 1): position 1..4
    observed: collections.Counter = collections.Counter()
    rich_hands = 0
    rich_groups: list[int] = []
    ping_per_hand: list[int] = []
    # the largest 平 group of a hand: 3 rhyme feet make a 絕句 (首句入韻), 5 a 律詩 (首句入韻)
    best_group: list[int] = []
    common = [g for g, _ in collections.Counter(t.rhyme for t in tiles if t.tone == "平").most_common(12)]
    per_group_3: collections.Counter = collections.Counter()
    times: list[float] = []
    replays_ok = 0
    for i in range(args.deals):
        host = hosts[i % len(hosts)]
        t0 = time.perf_counter()
        deal = deal_round(tiles, host_seat=host, rng=rng)
        times.append(time.perf_counter() - t0)
        broken.update(check_invariants(deal, all_chars))
        if i % 10 == 0:
            replays_ok += replay_deal(deal.salt, deal.stack, host_seat=host) == deal
        start = 1 if host is None else host
        observed[(deal.first_seat - start) % 4 + 1] += 1
        for hand in deal.hands.values():
            groups = collections.Counter(by_char[c].rhyme for c in hand if by_char[c].tone == "平")
            ping_per_hand.append(sum(groups.values()))
            deep = sum(n >= RICH_DEPTH for n in groups.values())
            rich_groups.append(deep)
            best_group.append(max(groups.values()))
            per_group_3.update(g for g in common if groups[g] >= 3)
            rich_hands += deep >= RICH_GROUPS

    crypto_times = []
    for _ in range(min(args.deals, 2000)):
        t0 = time.perf_counter()
        deal_round(tiles)
        crypto_times.append(time.perf_counter() - t0)

    # What the stroke counts predict: the count tile is uniform over the 600 tiles, so position k
    # (1 = the 詩伯 himself) is drawn first with the share of tiles whose strokes ≡ k (mod 4).
    expected_share = collections.Counter((t.strokes - 1) % 4 + 1 for t in tiles)
    n = args.deals
    chi2 = sum((observed[k] - n * expected_share[k] / 600) ** 2 / (n * expected_share[k] / 600) for k in range(1, 5))
    try:
        from scipy.stats import chi2 as chi2_dist

        p_value = f"{chi2_dist.sf(chi2, 3):.3f}"
    except ImportError:  # pragma: no cover
        p_value = "n/a"

    hands = len(rich_groups)
    ms = sorted(t * 1000 for t in times)
    cms = sorted(t * 1000 for t in crypto_times)
    today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    lines = [
        f"## Deal: {n:,} simulated deals ({today}, tiles)",
        "",
        f"Command: `nice -n 10 python scripts/bench_deal.py --deals {n} --seed {args.seed}` "
        f"(Python {platform.python_version()}; 詩伯's seat cycling 1, 2, 3, 4, not playing).",
        "",
        f"- Invariants (150 each, every tile exactly once, commitment verifies, draw in turn order, count "
        f"rule, count tile drawn last): broken in {sum(broken.values())} of {n:,} deals"
        + (f" ({dict(broken)})" if broken else "")
        + f"; replay of every 10th deal identical: {replays_ok}/{(n + 9) // 10}.",
        "- First drawer, counted from the 詩伯 (position 1 = the 詩伯's own seat, i.e. strokes ≡ 1 mod 4), "
        "observed vs what the tile set's stroke counts predict "
        f"(χ² = {chi2:.2f}, 3 d.f., p = {p_value}):",
        "",
        "| position | tiles with strokes ≡ k (mod 4) | expected share | observed share | observed deals |",
        "| --- | --- | --- | --- | --- |",
    ]
    for k in range(1, 5):
        lines.append(f"| {k} | {expected_share[k]} | {expected_share[k] / 600:.3f} | {observed[k] / n:.3f}"
                     f" | {observed[k]:,} |")
    depth_hist = collections.Counter(rich_groups)
    lines += [
        "",
        f"- Rhyme richness of the {hands:,} hands: {rich_hands / hands:.3%} hold at least {RICH_GROUPS} 平 groups "
        f"with ≥ {RICH_DEPTH} of their 平 tiles (goal > 90%); mean number of such groups "
        f"{statistics.mean(rich_groups):.2f} (min {min(rich_groups)}, max {max(rich_groups)}); "
        f"平 tiles per hand mean {statistics.mean(ping_per_hand):.1f}"
        f" (min {min(ping_per_hand)}, max {max(ping_per_hand)}).",
        "  Hands by number of such groups: "
        + ", ".join(f"{k}: {depth_hist[k]}" for k in sorted(depth_hist)) + ".",
        f"- Rhyme feet for a whole poem: {sum(b >= 3 for b in best_group) / hands:.3%} of hands hold some 平 group"
        f" with ≥ 3 tiles (a 絕句 rhyming in line 1), {sum(b >= 5 for b in best_group) / hands:.3%} with ≥ 5"
        " (a 律詩 rhyming in "
        f"line 1); largest group per hand: mean {statistics.mean(best_group):.1f}, min {min(best_group)}. "
        "Share of hands with ≥ 3 tiles of each of the 12 largest 平 groups: "
        + ", ".join(f"{g[2:]} {per_group_3[g] / hands:.0%}" for g in common) + ".",
        "- Time per `deal_round` (shuffle, commitment, count, 600 draws):"
        f" seeded RNG mean {statistics.mean(ms):.2f} ms, "
        f"p95 {ms[int(len(ms) * 0.95)]:.2f} ms; default cryptographic RNG (`secrets.SystemRandom`, "
        f"{len(cms):,} deals) mean {statistics.mean(cms):.2f} ms, p95 {cms[int(len(cms) * 0.95)]:.2f} ms.",
    ]
    lines += _tile_set_lines(tiles)
    print("\n".join(lines))
    return 1 if broken else 0


if __name__ == "__main__":
    raise SystemExit(main())
