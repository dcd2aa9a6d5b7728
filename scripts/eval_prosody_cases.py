"""Judge the expert-style held-out cases (tests/data/prosody_cases.json) and report, as issue 13 asks:
verdicts right, planted faults found at their position, errors where the tradition sees none.

Usage, from the repo root: ``python scripts/eval_prosody_cases.py [--cases FILE] [--list]`` (--list: every miss;
--cases: another set of the same schema, e.g. tests/data/prosody_cases_song.json). A case marked
``"disputed": true`` is left out of the figures and counted apart.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from poetry.checker import check_poem  # noqa: E402
from poetry.checker.report import Severity, Status  # noqa: E402

CASES = ROOT / "tests" / "data" / "prosody_cases.json"


def judge(case: dict) -> dict:
    """One case's outcome: verdict right, expected faults found, errors the tradition does not see."""
    report = check_poem(case["text"], lone_ping=case.get("gu_ping"))
    errors = {(v.line, v.pos, v.kind.value) for v in report.violations if v.severity == Severity.ERROR}
    expected = {tuple(f) for f in case["faults"]}
    places = {(line, pos) for line, pos, _ in errors}
    found = {f for f in expected if f[:2] in places}  # at its position (named alike or not)
    named = expected & errors
    extra = {e for e in errors if e[:2] not in {f[:2] for f in expected}}
    self_check = [tuple(p) for p in case.get("plain", ()) if report.lines[p[0] - 1].chars[p[1] - 1].status
                  == Status.CONFIRM]
    notes = {(v.line, v.pos, v.kind.value) for v in report.violations if v.severity == Severity.NOTE}
    missing_notes = {tuple(n) for n in case.get("notes", ())} - notes
    return {"verdict": report.regulated == case["regulated"], "expected": len(expected), "found": len(found),
            "named": len(named),
            "extra": sorted(extra), "missed": sorted(expected - found), "self_check": self_check,
            "missing_notes": sorted(missing_notes)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="print every case the checker gets wrong")
    parser.add_argument("--cases", type=Path, default=CASES, help="the cases file (default: %(default)s)")
    args = parser.parse_args()
    every = json.loads(args.cases.read_text(encoding="utf-8"))["cases"]
    cases = [case for case in every if not case.get("disputed")]
    disputed = [(case, judge(case)) for case in every if case.get("disputed")]
    outcomes = [(case, judge(case)) for case in cases]
    poems = [o for c, o in outcomes if c["kind"] == "poem"]
    right = sum(o["verdict"] for _, o in outcomes)
    expected = sum(o["expected"] for _, o in outcomes)
    found = sum(o["found"] for _, o in outcomes)
    clean = [o for c, o in outcomes if not c["faults"]]
    false_errors = sum(len(o["extra"]) for o in clean)
    stray = sum(len(o["extra"]) for c, o in outcomes if c["faults"])
    print(f"cases {len(cases)} ({len(poems)} held-out poems, {len(cases) - len(poems)} variants and 多音詞 probes)")
    print(f"verdicts right: {right}/{len(cases)}; held-out poems judged regulated: "
          f"{sum(o['verdict'] for o in poems)}/{len(poems)}")
    named = sum(o["named"] for _, o in outcomes)
    print(f"planted faults found at their position: {found}/{expected} = {found / max(expected, 1):.1%} "
          f"({named} named as the tradition names them)")
    print(f"errors where the tradition sees none: {false_errors} in {len(clean)} clean cases; "
          f"other errors beside a planted fault: {stray}")
    print(f"自校 marks where a word fixes the reading: {sum(len(o['self_check']) for _, o in outcomes)}; "
          f"expected notes missing: {sum(len(o['missing_notes']) for _, o in outcomes)}")
    if disputed:
        print(f"disputed cases (not counted above): {len(disputed)}, the checker agrees with the stated verdict in "
              f"{sum(o['verdict'] for _, o in disputed)}")
    if args.list:
        for case, o in outcomes + disputed:
            if not o["verdict"] or o["missed"] or o["extra"] or o["self_check"] or o["missing_notes"]:
                print(f"- {case['id']}: {case['text']}\n    {o}")


if __name__ == "__main__":
    main()
