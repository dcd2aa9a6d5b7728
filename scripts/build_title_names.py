"""Build data/title_names.json: the surnames that name a person in a title, learned from 全唐詩's titles.

    nice python scripts/build_title_names.py [--corpus ../shared/corpus]

A title of address writes a verb of address (送 寄 贈 和 答 酬 …), then a person: a surname with a 排行 (李十二)
or an office (王少府, 崔明府). A character counts as a surname when it stands between such a verb and a 排行 or an
office in at least MIN_COUNT titles, when a 排行 or an office follows it in at least MIN_SHARE of the titles where it
follows a verb of address (詩, 古, 別, 江 — 和詩, 懷古, 送別, 寄江 — are not), and when at least MIN_NAMES person
names of jieba's dictionary (words tagged nr, 2–3 characters; jieba 0.42.1, MIT) begin with it (擬, 遠, 舍, 晝 — 擬古,
寄遠人, 舍弟, a monk's name — are not). poetry.grading.title_parts
reads the list to find the addressee of a title and leave its topical part. Tang titles only; Song verse is
evaluation data and is not read.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import tang_corpus  # noqa: E402

from poetry.grading.title_parts import ADDRESS_VERBS, OFFICES, RANK, _alternation  # noqa: E402
from poetry.grading.variants import canonical  # noqa: E402
from poetry.text import is_han  # noqa: E402

#: A surname stands in this many titles of address at least …
MIN_COUNT = 4
#: … a 排行 or an office follows it in at least this share of the titles where it follows a verb of address …
MIN_SHARE = 0.2
#: … and at least this many person names of jieba's dictionary begin with it.
MIN_NAMES = 25
OUT = ROOT / "data" / "title_names.json"


def _name_initials() -> Counter:
    """How many person names (nr, 2–3 characters) of jieba's dictionary begin with each character (简体)."""
    import jieba

    out: Counter = Counter()
    with open(Path(jieba.__file__).parent / "dict.txt", encoding="utf-8") as fh:
        for line in fh:
            word, _, tag = line.split()
            if tag == "nr" and 2 <= len(word) <= 3:
                out[word[0]] += 1
    return out


def surnames(titles: list[str]) -> dict[str, int]:
    """Surname → how many titles write it between a verb of address and a 排行 or an office."""
    from poetry.text import to_simplified

    verbs = "".join(v for v in ADDRESS_VERBS if len(v) == 1)
    named_pattern = re.compile(f"[{verbs}](.)(?:[{RANK}]|{_alternation(OFFICES)})")
    after_verb = re.compile(f"[{verbs}](.)")
    named: Counter = Counter()
    addressed: Counter = Counter()
    for t in titles:
        named.update({m.group(1) for m in named_pattern.finditer(t)})
        addressed.update({m.group(1) for m in after_verb.finditer(t)})
    initials = _name_initials()
    return {ch: n for ch, n in named.most_common()
            if n >= MIN_COUNT and n / addressed[ch] >= MIN_SHARE and initials[to_simplified(ch)] >= MIN_NAMES
            and ch not in RANK and not any(ch in w for w in OFFICES)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(tang_corpus.DEFAULT_CORPUS))
    args = parser.parse_args(argv)
    titles = [canonical("".join(ch for ch in r["title"] if is_han(ch))) for r in tang_corpus.tang_poems(args.corpus)]
    found = surnames(titles)
    OUT.write_text(json.dumps({
        "made_by": "scripts/build_title_names.py",
        "date": dt.date.today().isoformat(),
        "source": "titles of 全唐詩 (chinese-poetry, MIT)",
        "method": f"a character between a verb of address and a 排行 or an office in ≥ {MIN_COUNT} titles, so "
                  f"followed in ≥ {MIN_SHARE:.0%} of the titles where a verb of address precedes it, and the first "
                  f"character of ≥ {MIN_NAMES} person names (nr) of jieba 0.42.1's dictionary (MIT)",
        "surnames": found,
    }, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"{len(found)} surnames from {len(titles)} titles → {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
