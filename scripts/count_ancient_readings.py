"""Count the 唐詩三百首 poems of 近體 shape that read as 古絕/古詩 and whether they report fault positions.

    nice -n 10 python scripts/count_ancient_readings.py

Issue 9: the checker used to demote such poems to 古絕/古詩 and drop their positions; now every fault stays
at its place and a note ("讀來近於…") says how the poem reads. 仄韻 poems are still named 古絕/古詩.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_checker import anthology, clean_lines  # noqa: E402

from poetry.checker.check import brief_analysis  # noqa: E402
from poetry.checker.report import Severity  # noqa: E402
from poetry.checker.tables import resolve_book, table_for  # noqa: E402
from poetry.forms import is_regulated_shape  # noqa: E402


def main() -> int:
    table = table_for(resolve_book("pingshui"))
    total = reads_ancient = with_positions = rhymes_ze = 0
    for poem in anthology():
        lines = clean_lines(poem["paragraphs"])
        length = len(lines[0]) if lines and all(len(x) == len(lines[0]) for x in lines) else None
        if not is_regulated_shape(length, len(lines)):
            continue
        total += 1
        a = brief_analysis("，".join(lines) + "。", table)
        if "古" in a.form:
            rhymes_ze += 1
        if any("讀來近於" in note for note in a.notes):
            reads_ancient += 1
            with_positions += any(f.severity is Severity.ERROR and f.pos for f in a.findings)
    print(f"poems of 近體 shape: {total}")
    print(f"read as 古絕/古詩 (formerly demoted, positions dropped): {reads_ancient}; "
          f"now reporting fault positions: {with_positions}")
    print(f"仄韻, still form 古絕/古詩: {rhymes_ze}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
