"""Measure the checker on real verse: the anthology's verdicts, planted errors, speed.

Reads ../shared/corpus (never shipped, never read by tests). Usage, from the repo root:

    nice -n 10 python scripts/bench_checker.py                 # everything
    python scripts/bench_checker.py --only anthology|planted|speed
    python scripts/bench_checker.py --only anthology --list     # print every disagreement

- anthology: 唐詩三百首 (tangshisanbaishou.json) by its own labels: share of 五律+七律 and of 五絕+七絕
  judged regulated; share of 古詩/樂府 of regular shape (4 or 8 lines of 5 or 7 chars) judged not
  regulated; the disagreements with their faults.
- planted: in every poem judged regulated (the anthology's 律絕 and a sample of regular-shape Tang
  poems), flip the tone at one 2/4/6 position (a common char of the other tone and no other reading),
  and change a rhyme foot to a 平 char of another group; count catches at the exact position and
  errors elsewhere.
- speed: poems/s through `python -m poetry check --format jsonl` over all regular-shape Tang poems,
  whole process; start-up time; in-process time for one 七律.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from poetry.checker import check_lines_brief, check_poem  # noqa: E402
from poetry.checker.analysis import choose_group, cn_numeral  # noqa: E402
from poetry.checker.tables import COMMON_PING, COMMON_ZE, resolve_book, table_for  # noqa: E402
from poetry.readings import fixed_readings  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
if not CORPUS.exists():
    CORPUS = Path("/work/shared/corpus")

_NOTE = re.compile(r"[（(][^（）()]*[）)]")
_SPLIT = re.compile(r"[，。？！；、\s]+")

DENG_GAO = (
    "風急天高猿嘯哀，渚清沙白鳥飛回。無邊落木蕭蕭下，不盡長江滾滾來。"
    "萬里悲秋常作客，百年多病獨登臺。艱難苦恨繁霜鬢，潦倒新停濁酒杯。"
)


def clean_lines(paragraphs: list[str]) -> list[str]:
    """Lines of a corpus poem: notes and brackets off, split on punctuation."""
    text = _NOTE.sub("", "".join(paragraphs)).replace("[", "").replace("]", "")
    return [s for s in _SPLIT.split(text) if s]


def regular_shape(lines: list[str]) -> bool:
    return len(lines) in (4, 8) and len({len(s) for s in lines}) == 1 and len(lines[0]) in (5, 7)


def anthology() -> list[dict]:
    data = json.loads((CORPUS / "tangshisanbaishou.json").read_text(encoding="utf-8"))
    poems = []
    for section in data["content"]:
        for item in section["content"]:
            poems.append(
                {
                    "type": section["type"],
                    "title": item["chapter"] + (f"·{item['subchapter']}" if item.get("subchapter") else ""),
                    "author": item["author"],
                    "paragraphs": item["paragraphs"],
                }
            )
    return poems


def tang_poems():
    with gzip.open(CORPUS / "quantangshi.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            yield json.loads(line)


# --- anthology ------------------------------------------------------------------------------------


def run_anthology(show: bool) -> dict:
    poems = anthology()
    groups = defaultdict(lambda: [0, 0])  # label -> [judged as expected, total]
    disagreements = []
    for p in poems:
        lines = clean_lines(p["paragraphs"])
        text = "，".join(lines) + "。"
        kind = p["type"]
        if kind in ("五言律詩", "七言律詩"):
            label = "律詩"
        elif kind in ("五言絕句", "七言絕句"):
            label = "絕句"
        elif regular_shape(lines):
            label = "古詩樂府(齊整)"
        else:
            continue
        try:
            r = check_poem(text)
        except Exception as exc:  # noqa: BLE001 - report, go on
            disagreements.append((label, p, f"error: {exc}", None))
            groups[label][1] += 1
            continue
        expected = label != "古詩樂府(齊整)"
        groups[label][1] += 1
        if r.regulated == expected:
            groups[label][0] += 1
        else:
            disagreements.append((label, p, r, lines))
    print("== 唐詩三百首 ==")
    out = {}
    for label, (ok, total) in groups.items():
        what = "judged regulated" if label != "古詩樂府(齊整)" else "judged not regulated"
        print(f"{label}: {ok}/{total} = {ok / total:.1%} {what}")
        out[label] = (ok, total)
    if show:
        for label, p, r, lines in disagreements:
            print(f"\n[{label}] {p['author']}《{p['title']}》 ({p['type']})")
            if isinstance(r, str):
                print("   ", r)
                continue
            print(f"    {r.form} {r.pattern or ''} {r.rhyme_group or ''} {'合律' if r.regulated else '不合律'}")
            for line, rep in zip(lines, r.lines):
                print(f"    {line}  {''.join(c.mark for c in rep.chars)}")
            for v in r.violations:
                if v.severity == "error":
                    print(f"    - {v.kind}: {v.message}")
            for n in r.notes[:3]:
                print(f"    · {n}")
    return out


# --- planted errors -------------------------------------------------------------------------------


def _pure_chars(table, tone: str) -> list[str]:
    """Common chars of one tone with no reading of the other tone (rare ones included)."""
    want = COMMON_PING if tone == "平" else COMMON_ZE
    return [c for c in table.chars_of_tone(tone) if table.entry(c).code == want][:300]


def run_planted(sample: int, seed: int, show: bool = False) -> dict:
    rng = random.Random(seed)
    table = table_for(resolve_book("pingshui"))
    pure = {"平": _pure_chars(table, "平"), "仄": _pure_chars(table, "仄")}
    book = table.book
    ping_groups = [g for g in book.groups if g[1] == "平"]

    base = _regulated_texts(sample, rng)

    tally = Counter()  # tone_total, tone_caught, tone_rescued, tone_false, rhyme_total, rhyme_caught, rhyme_false
    missed = Counter()
    examples_missed = []
    false_examples = []
    rhyme_missed = []
    rescued = [] if show else None
    for lines in base:
        _plant_tone(lines, table, pure, rng, tally, missed, examples_missed, false_examples, rescued)
        _plant_rhyme(lines, table, ping_groups, rng, tally, rhyme_missed)
    tone_total, tone_caught, tone_rescued, tone_false, tone_sure = (
        tally[k] for k in ("tone_total", "tone_caught", "tone_rescued", "tone_false", "tone_rescued_sure")
    )
    rhyme_total, rhyme_caught, rhyme_false = (tally[k] for k in ("rhyme_total", "rhyme_caught", "rhyme_false"))

    print(f"== planted errors ({len(base)} regulated poems: anthology 律絕 + {sample} sampled) ==")
    print(
        f"tone flips at 2/4/6: {tone_caught}/{tone_total} = {tone_caught / tone_total:.2%} caught at the position"
        f" (error); {tone_rescued} more accepted as a legitimate 拗救"
        f" ({(tone_caught + tone_rescued) / tone_total:.2%} flagged"
        f" or explained); other errors per poem {tone_false / tone_total:.3f}"
    )
    # planted13: a flip that makes a 拗救 whose condition the text fixes is no planted error; one resting on
    # a 多音字 read to fit stays in the count, as a miss
    errors_planted = tone_total - tone_sure
    print(
        f"  of the {tone_rescued} 拗救: {tone_sure} with their condition fixed by the text (no error planted),"
        f" {tone_rescued - tone_sure} resting on a 多音字 read to fit; planted errors (those {tone_sure} set apart)"
        f" caught at the position: {tone_caught}/{errors_planted} = {tone_caught / errors_planted:.2%}"
    )
    print(f"missed by (chars, pos): {dict(missed)}")
    for planted, i, j, form, errors in examples_missed[:6]:
        print(f"   missed {'，'.join(planted)} line {i + 1} pos {j + 1} -> {form} {errors}")
    for original, planted, i, j, note in rescued or ():
        print(f"   拗救 line {i + 1} pos {j + 1}: {original} -> {planted}: {note}")
    for planted, i, j, errs in false_examples[:8]:
        print(f"   other errors after planting at line {i + 1} pos {j + 1}: {'，'.join(planted)} -> {errs}")
    print(
        f"rhyme foot changed: {rhyme_caught}/{rhyme_total} = {rhyme_caught / rhyme_total:.2%} caught;"
        f" other errors per poem {rhyme_false / rhyme_total:.3f}"
    )
    for text, line, errs in rhyme_missed:
        print(f"   rhyme missed at line {line}: {text} -> {errs}")
    return {
        "tone": (tone_caught, tone_rescued, tone_total, tone_false),
        "tone_errors": (tone_caught, errors_planted),
        "rhyme": (rhyme_caught, rhyme_total, rhyme_false),
    }


def _regulated_texts(sample: int, rng: random.Random) -> list[list[str]]:
    """The anthology's 律絕 and ``sample`` shuffled regular-shape Tang poems, those the checker judges regulated."""
    texts = []
    for p in anthology():
        if p["type"] in ("五言律詩", "七言律詩", "五言絕句", "七言絕句"):
            texts.append(clean_lines(p["paragraphs"]))
    pool = [clean_lines(p["paragraphs"]) for p in tang_poems()]
    pool = [ls for ls in pool if regular_shape(ls)]
    rng.shuffle(pool)
    texts += pool[:sample]

    base = []
    for lines in texts:
        try:
            if check_lines_brief("，".join(lines) + "。")["regulated"]:
                base.append(lines)
        except Exception:  # noqa: BLE001
            continue
    return base


def _plant_tone(lines, table, pure, rng, tally, missed, examples_missed, false_examples, rescued=None) -> None:
    """Flip the tone at one 2/4/6 position of ``lines`` and tally whether the checker catches it there."""
    L = len(lines[0])
    # tone flip at a 2/4/6 position (never the last char) whose char fits the pattern plainly
    # (status ok, one tone only): flipping a legitimate 拗 would not plant an error
    report = check_poem("，".join(lines) + "。")
    spots = [
        (i, j)
        for i, rep in enumerate(report.lines)
        for j in range(1, L - 1, 2)
        if rep.chars[j].status == "ok" and table.entry(lines[i][j]).code & 3 in (COMMON_PING, COMMON_ZE)
    ]
    if not spots:
        return
    i, j = rng.choice(spots)
    entry = table.entry(lines[i][j])
    other = "仄" if entry.code & 3 == COMMON_PING else "平"
    new = rng.choice(pure[other][:150])
    planted = list(lines)
    planted[i] = lines[i][:j] + new + lines[i][j + 1 :]
    r = check_poem("，".join(planted) + "。")
    errors = [(v.line, v.pos) for v in r.violations if v.severity == "error"]
    tally["tone_total"] += 1
    status = r.lines[i].chars[j].status if r.lines and len(r.lines) > i else None
    if (i + 1, j + 1) in errors:
        tally["tone_caught"] += 1
    elif status == "rescued":
        tally["tone_rescued"] += 1
        doubt = _rescue_doubt(planted, i, j, table, entry.code & 3 == COMMON_PING)
        tally["tone_rescued_sure"] += not doubt
        if rescued is not None:
            note = next((n for n in r.notes if n.startswith(f"第{cn_numeral(i + 1)}句")), "")
            rescued.append((lines[i], planted[i], i, j, f"{note} {doubt or '條件確定'}"))
    else:
        missed[(L, j + 1)] += 1
        if len(examples_missed) < 12:
            examples_missed.append((planted, i, j, r.form, errors))
    others = [e for e in errors if e != (i + 1, j + 1)]
    tally["tone_false"] += len(others)
    if others and len(false_examples) < 12:
        false_examples.append((planted, i, j, [(v.line, v.pos, str(v.kind), v.message) for v in r.violations
                                               if v.severity == "error" and (v.line, v.pos) != (i + 1, j + 1)]))


def _rescue_doubt(planted: list[str], i: int, j: int, table, was_ping: bool) -> str:
    """Whether a flip the checker accepts as 拗救 is one by the text alone: "" when the condition's chars
    are of one common tone or read by their word (readings.fixed_readings), else which 多音字 it rests on.
    大拗 (a 平 flipped to 仄 at the 4th/七言 6th char of a 出句): the 對句's 3rd/5th char 平; 特拗 (a 仄
    flipped to 平 there): the line's 3rd/5th char 仄 and its 1st/3rd 平 (王力《詩詞格律》)."""
    L = len(planted[i])
    if was_ping:  # 大拗 saved by the 對句
        needs = [(i + 1, L - 3, "平")] if i + 1 < len(planted) else []
    else:  # 特拗
        needs = [(i, L - 3, "仄"), (i, L - 5, "平")]
    doubts = []
    for k, pos, tone in needs:
        line = planted[k]
        fixed = fixed_readings(line, table.book)[pos]
        code = table.entry(line[pos]).code & 3
        sure = fixed.tone.value == tone if fixed else code == (COMMON_PING if tone == "平" else COMMON_ZE)
        if not sure:
            why = "（多音字，無詞可定）" if code == 3 and not fixed else "（非此聲）"
            doubts.append(f"『{line[pos]}』讀{tone}{why}")
    return "、".join(doubts)


def _plant_rhyme(lines, table, ping_groups, rng, tally, rhyme_missed) -> None:
    """Change one rhyme foot of ``lines`` to a 平 char of another group and tally whether the checker catches it."""
    book = table.book
    L = len(lines[0])
    # rhyme foot → a 平 char of another group
    i = rng.randrange(1, len(lines), 2)
    groups = table.entry(lines[i][-1]).ping
    group = choose_group([table.entry(lines[k][-1]) for k in range(1, len(lines), 2)])[0]
    others = [g for g in ping_groups if g != group and g not in book.neighbours(group or "")]
    g = rng.choice(others)
    cands = [c for c in book.chars_in_group(g)[:60]
             if table.entry(c).code == COMMON_PING and not table.entry(c).ping & (groups | {group})]
    if not cands:
        return
    new = rng.choice(cands)
    planted = list(lines)
    planted[i] = lines[i][:-1] + new
    r = check_poem("，".join(planted) + "。")
    errors = [(v.line, v.pos, str(v.kind)) for v in r.violations if v.severity == "error"]
    tally["rhyme_total"] += 1
    if (i + 1, L, "rhyme") in errors:
        tally["rhyme_caught"] += 1
    elif len(rhyme_missed) < 6:
        rhyme_missed.append(("，".join(planted), i + 1, errors))
    tally["rhyme_false"] += sum(1 for e in errors if e[:2] != (i + 1, L))


# --- speed ----------------------------------------------------------------------------------------


def run_speed() -> dict:
    tmp = Path(tempfile.mkdtemp())
    src = tmp / "tang_regular.jsonl"
    n = 0
    with open(src, "w", encoding="utf-8") as out:
        for p in tang_poems():
            if regular_shape(clean_lines(p["paragraphs"])):
                row = {"id": p["id"], "title": p["title"], "text": "".join(p["paragraphs"])}
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
                n += 1
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "poetry", "check", "--format", "jsonl"]
    # start-up: an empty batch
    starts = []
    for _ in range(5):
        t = time.perf_counter()
        subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=env, check=True, cwd=ROOT)
        starts.append(time.perf_counter() - t)
    import resource

    runs = []
    cpus = []
    for _ in range(3):
        with open(src, "rb") as fin, open(tmp / "out.jsonl", "wb") as fout:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run(cmd, stdin=fin, stdout=fout, env=env, check=True, cwd=ROOT)
            runs.append(time.perf_counter() - t)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    out_lines = (tmp / "out.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in out_lines]
    errors = sum(1 for row in rows if "error" in row)
    regulated = sum(1 for row in rows if row.get("regulated"))
    best = min(runs)
    print(f"== speed ({n} regular-shape Tang poems) ==")
    print(f"jsonl CLI whole process: best {best:.2f} s of {['%.2f' % r for r in runs]} → {n / best:,.0f} poems/s")
    cpu = min(cpus)
    print(f"CPU time of the CLI and its workers: {cpu:.2f} s → {n / cpu:,.0f} poems per CPU-second (load-independent)")
    print(f"load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"output lines {len(out_lines)}, unreadable {errors}, judged regulated {regulated} ({regulated / n:.1%})")
    print(f"start-up (empty batch): best {min(starts) * 1000:.0f} ms")
    check_poem(DENG_GAO)
    reps = 2000
    t = time.perf_counter()
    for _ in range(reps):
        check_poem(DENG_GAO)
    full = (time.perf_counter() - t) / reps
    t = time.perf_counter()
    for _ in range(reps):
        check_lines_brief(DENG_GAO)
    brief = (time.perf_counter() - t) / reps
    print(f"one 七律 (登高) in-process: check_poem {full * 1e6:.0f} µs, batch verdict {brief * 1e6:.0f} µs")
    return {"n": n, "best": best, "startup": min(starts), "full": full, "brief": brief}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["anthology", "planted", "speed"])
    parser.add_argument(
        "--list", action="store_true", help="print every anthology disagreement and every planted flip accepted as 拗救"
    )
    parser.add_argument("--sample", type=int, default=3000, help="regular-shape Tang poems added to the planted test")
    parser.add_argument("--seed", type=int, default=20261129)
    args = parser.parse_args()
    print(time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    if args.only in (None, "anthology"):
        run_anthology(args.list)
    if args.only in (None, "planted"):
        run_planted(args.sample, args.seed, args.list)
    if args.only in (None, "speed"):
        run_speed()


if __name__ == "__main__":
    main()
