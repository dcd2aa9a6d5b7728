"""Audit the readings marked common: which minority readings let a Tang poem pass, and how often.

Usage::

    python scripts/audit_readings.py [--corpus ../shared/corpus/quantangshi.jsonl.gz] [--top 40]

For every char with more than one common reading in data/pingshui.tsv (two tones, or two 平 groups), in
the regular-shape poems of 全唐詩 whose one-tone chars decide the 平仄 pattern (build_rhyme_book's strict
slots: 2/4/6 and line ends) and whose even-line feet share one 平 group:

- each use at a strict slot counts for the slot's tone; each rhyme-foot use for the poem's group;
- a use in the char's **minority** tone or group is one that passes only by that reading;
- a reading is proposed rare when its share of the char's uses is under ``RARE_SHARE`` with enough
  evidence (tones: ``MIN_TONE_EVIDENCE`` uses; groups: ``MIN_RHYME_EVIDENCE`` rhyme-foot uses), the
  thresholds of scripts/build_rhyme_book.py except that a 平 group that is a 鄰韻 of the group the char
  rhymes in needs fewer uses to be judged (a common 鄰韻 reading hides 孤雁入群 and 出韻).

Chars the tradition reads both ways (build_rhyme_book.TRADITION_DUAL) are listed but never proposed.
The output is the table of docs/READINGS_AUDIT.md.
"""

from __future__ import annotations

import argparse
import collections
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from build_rhyme_book import (  # noqa: E402
    DEFAULT_CORPUS,
    MIN_EVIDENCE,
    RARE_SHARE,
    TRADITION_DUAL,
    read_corpus,
)
from build_word_readings import decided, poem_rhyme  # noqa: E402

from poetry.prosody import get_rhyme_book  # noqa: E402

#: Uses at strict slots before a tone of a char is judged (build_rhyme_book.MIN_EVIDENCE).
MIN_TONE_EVIDENCE = MIN_EVIDENCE
#: Rhyme-foot uses before a 鄰韻 group of a char is judged (build_rhyme_book needs 20 for any group).
MIN_NEIGHBOUR_EVIDENCE = 8
#: Second pass (any two 平 groups): a group is proposed rare when under RARE_SHARE of the char's feet take it
#: and so few do that a real second group is ruled out: at most that many uses would be met with probability
#: under ``FOOT_SIGNIFICANCE`` were the group used at ``REAL_SHARE`` of the feet. A real second group of the book
#: rhymes at a quarter of its char's feet or more (行 陽 21%, 丁 庚 20%, 鐺 陽 25%, 槐 灰 25%, 屯 眞 31%, 車 魚 38%),
#: and a wrong rare mark costs a 自校 ◇ on a foot that still rhymes, where a wrong common one hides 出韻 and
#: 孤雁入群 and feeds suggestions: so 0 uses of 11 feet or more are enough (吾 麻: 0 of 12); 1 use needs 21
#: feet (the 5% share).
REAL_SHARE = 0.25
FOOT_SIGNIFICANCE = 0.05


def unlikely_if_real(uses: int, total: int, share: float = REAL_SHARE) -> bool:
    """Whether at most ``uses`` of ``total`` feet would be met with probability under FOOT_SIGNIFICANCE
    were the group really used at ``share`` of them (binomial lower tail).

    >>> unlikely_if_real(0, 12), unlikely_if_real(0, 10), unlikely_if_real(1, 18), unlikely_if_real(1, 16)
    (True, False, True, False)
    """
    tail = sum(math.comb(total, k) * share**k * (1 - share) ** (total - k) for k in range(uses + 1))
    return tail < FOOT_SIGNIFICANCE


def count_uses(poems, book):
    """char → Counter of strict-slot tones ('平'/'仄') and of rhyme groups at feet; poems counted."""
    slot_uses: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    foot_uses: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    used = 0
    for lines, slots in decided(poems, book):
        used += 1
        for i, pos, tone in slots:
            slot_uses[lines[i][pos]][tone] += 1
        rhyme = poem_rhyme(lines, book)
        if rhyme:
            for i in range(1, len(lines), 2):
                foot_uses[lines[i][-1]][rhyme] += 1
    return slot_uses, foot_uses, used


def audit(book, slot_uses, foot_uses) -> list[dict]:
    """One row per char whose minority common reading lets some poem pass."""
    rows = []
    for char, info in ((c, book.lookup(c)) for c in slot_uses.keys() | foot_uses.keys()):
        common = [r for r in info.readings if r.common]
        if info.canonical != char or len({r.group for r in common}) < 2:
            continue
        slots, feet = slot_uses.get(char, collections.Counter()), foot_uses.get(char, collections.Counter())
        common_tones = {r.tone.value for r in common}
        proposals = []
        if len(common_tones) == 2:
            total = slots["平"] + slots["仄"]
            minority = min(("平", "仄"), key=lambda t: (slots[t], t))
            if total >= MIN_TONE_EVIDENCE and slots[minority] / total < RARE_SHARE:
                proposals += [r.group for r in common if r.tone.value == minority]
            rows.append(_row(char, "tone", minority, slots[minority], total, proposals))
        ping = [r.group for r in common if r.tone.value == "平"]
        if len(ping) > 1:
            total = sum(feet[g] for g in ping)
            major = max(ping, key=lambda g: feet[g])
            for g in ping:
                if g == major:
                    continue
                near = g in book.neighbours(major)
                evidence = MIN_NEIGHBOUR_EVIDENCE if near else 20
                low = total > 0 and feet[g] / total < RARE_SHARE
                # first pass: enough feet (20; 8 for a 鄰韻); second pass: too few uses for a real group
                rare = low and (total >= evidence or unlikely_if_real(feet[g], total))
                rows.append(_row(char, "鄰韻" if near else "group", g, feet[g], total, [g] if rare else []))
    return sorted(rows, key=lambda r: (-r["total"]))


def _row(char, kind, minority, uses, total, proposals) -> dict:
    return {"char": char, "kind": kind, "minority": minority, "uses": uses, "total": total,
            "propose": [] if char in TRADITION_DUAL else proposals, "tradition": char in TRADITION_DUAL}


# --- rare fits at strict slots (policy study) --------------------------------------------------------


def _common_tone(entry, wanted: str) -> str:
    """A char's tone by its common readings: the one it has; the wanted one when it has both (read by the
    pattern, as the checker does); '?' for a char the book lacks."""
    from poetry.checker.tables import COMMON_PING, COMMON_ZE, UNKNOWN

    if entry.code & UNKNOWN:
        return wanted
    both = entry.code & COMMON_PING and entry.code & COMMON_ZE
    if both or not entry.code & (COMMON_PING | COMMON_ZE):
        return wanted
    return "平" if entry.code & COMMON_PING else "仄"


def rare_fit_shape(required: list, line: str, j: int, table) -> str:
    """What a line accepted with char j fit only by a rare reading is when that char takes its common tone:
    a named fault (特拗 without its condition, 三平尾, 孤平, the whole line of the other key: 失黏/失對) or a
    plain tone fault at the position.

    >>> from poetry.checker.tables import resolve_book, table_for
    >>> rare_fit_shape([None, "平", None, "仄", "仄"], "逐風入深夜", 3, table_for(resolve_book("pingshui")))
    '特拗 without its condition'
    """
    n = len(line)
    tones = [_common_tone(table.entry(c), req or "?") for c, req in zip(line, required)]
    tones[j] = "仄" if required[j] == "平" else "平"
    core, want = "".join(tones[-5:]), "".join(r or "?" for r in required[-5:])
    # the line 平平平仄仄 (the free chars' required tone is None: its 2nd 平 and its 仄仄 end tell it)
    if want[1] == "平" and want[3:] == "仄仄" and core[1:] == "平仄平仄":  # 特拗 asks its 1st (七言 3rd) 平
        return "特拗 without its condition" if core[0] == "仄" else "特拗 (accepted either way)"
    if required[-1] == "平" and core[2:] == "平平平":
        return "三平尾"
    if required[-1] == "平" and core == "仄平仄仄平":
        return "孤平"
    strict = [k for k in range(1, n - 1, 2)]
    if all(tones[k] != required[k] for k in strict if required[k]):
        return "失黏/失對 (the line fits the other key)"
    return "a tone fault at the position"


def study_rare_fits(poems, top: int) -> dict:
    """Over the poems the checker accepts: the lines that fit only by a rare reading at a strict slot
    (2/4/6) or the foot, classified by what the line is read by the char's common reading."""
    from poetry.checker import check_poem
    from poetry.checker.report import Status
    from poetry.checker.tables import resolve_book, table_for

    table = table_for(resolve_book("pingshui"))
    tally: collections.Counter = collections.Counter()
    chars: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    examples: dict[str, list[str]] = collections.defaultdict(list)
    accepted = lines_seen = 0
    for lines in poems:
        r = check_poem("".join(f"{a}，{b}。" for a, b in zip(lines[::2], lines[1::2])))
        if not r.regulated:
            continue
        accepted += 1
        for line in r.lines:
            required = [c.required for c in line.chars]
            n = len(line.chars)
            rare = [j for j, c in enumerate(line.chars) if c.status is Status.CONFIRM and (j % 2 or j == n - 1)]
            if not rare:
                continue
            lines_seen += 1
            for j in rare:
                shape = "the foot by a rare group" if j == n - 1 else rare_fit_shape(required, line.text, j, table)
                tally[shape] += 1
                chars[shape][line.text[j]] += 1
                if len(examples[shape]) < top:
                    examples[shape].append(f"{line.text}（{line.text[j]}）")
    return {"accepted": accepted, "lines": lines_seen, "tally": tally, "chars": chars, "examples": examples}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--top", type=int, default=40, help="rows of each kind to print")
    parser.add_argument("--rare-fits", action="store_true",
                        help="study the lines the checker accepts by a rare reading at a strict slot instead")
    args = parser.parse_args(argv)
    if args.rare_fits:
        return _print_rare_fits(args)
    book = get_rhyme_book()
    slot_uses, foot_uses, used = count_uses(read_corpus(args.corpus), book)
    rows = audit(book, slot_uses, foot_uses)
    print(f"{used} regular poems decided; {len(rows)} minority readings of chars with several common readings")
    for kind in ("tone", "鄰韻", "group"):
        these = [r for r in rows if r["kind"] == kind]
        letting = [r for r in these if r["uses"]]
        print(f"\n{kind}: {len(these)} minority readings, {len(letting)} used at a strict slot "
              f"({sum(r['uses'] for r in these)} uses); proposed rare: "
              + " ".join(f"{r['char']}({r['minority']} {r['uses']}/{r['total']})" for r in these if r["propose"]))
        print("| char | minority | uses / all | share | proposal |")
        print("| --- | --- | --- | --- | --- |")
        for r in these[: args.top]:
            share = r["uses"] / r["total"] if r["total"] else 0
            verdict = "rare" if r["propose"] else ("tradition: both" if r["tradition"] else "keep")
            print(f"| {r['char']} | {r['minority']} | {r['uses']} / {r['total']} | {share:.1%} | {verdict} |")
    return 0


def _print_rare_fits(args) -> int:
    from build_rhyme_book import regular_lines

    shaped = [lines for lines in map(regular_lines, read_corpus(args.corpus)) if lines and len(lines) in (4, 8)]
    found = study_rare_fits(shaped, args.top)
    print(f"{len(shaped)} regular-shape poems (4/8 lines); {found['accepted']} accepted; "
          f"{found['lines']} lines fit only by a rare reading at a strict slot or the foot")
    for shape, n in found["tally"].most_common():
        top = " ".join(f"{c}{k}" for c, k in found["chars"][shape].most_common(12))
        print(f"- {shape}: {n} ({top}); e.g. {'、'.join(found['examples'][shape])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
