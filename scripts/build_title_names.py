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

Places (issue 14, title14b): a name a title writes asks nothing specific of the body. A candidate is a title
string of a place shape, two or three characters ending in a place suffix (PLACE_SUFFIXES: 州 寺 山 驛 …), whose
name part holds no verb of address, 排行, function word or word of season and time (NOT_IN_NAME) and does not end
in an office (明府, 少府). It is a place when it stands in at least MIN_PLACE_COUNT titles, after at least two
different characters (or the title's start: 慈恩寺, not 恩寺), is not mostly the tail of a longer such name, and
the bodies of its poems write its name part (慈恩 of 慈恩寺, 蘇 of 蘇州) in at most MAX_ECHO of them: the poems
do not name the place, so the title does not ask them to (揚州, 廬山, 金陵, 曲江, whose poems do, stay the
title's matter). A suffix is a suffix of districts (ADMIN) when at least MIN_ADMIN_NAMES of its one-character names
pass and at least ADMIN_SHARE of them are seldom echoed: title_parts reads any name of it (真州) as a place; a
suffix whose three-character names mostly pass (NAME_SHARE) makes any two-character name before it a place (淨慈寺).
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

from poetry.grading.title_parts import (  # noqa: E402
    _AFTER_PERSON,
    ADDRESS_VERBS,
    NOT_IN_NAME,
    OFFICES,
    PLACE_SUFFIXES,
    RANK,
    _alternation,
)
from poetry.grading.variants import canonical  # noqa: E402
from poetry.text import is_han  # noqa: E402

#: A surname stands in this many titles of address at least …
MIN_COUNT = 4
#: … a 排行 or an office follows it in at least this share of the titles where it follows a verb of address …
MIN_SHARE = 0.2
#: … and at least this many person names of jieba's dictionary begin with it.
MIN_NAMES = 25
OUT = ROOT / "data" / "title_names.json"
#: A place stands in this many titles at least …
MIN_PLACE_COUNT = 3
#: … and the bodies of at most this share of its poems write its name part.
MAX_ECHO = 0.2
#: A suffix of districts: at least this many one-character names (蘇州, 虢州) stand in MIN_PLACE_COUNT titles …
MIN_ADMIN_NAMES = 20
#: … and at least this share of them are places by MAX_ECHO.
ADMIN_SHARE = 0.5
#: A suffix whose three-character names (慈恩寺, 終南山) are places: at least this many stand in MIN_PLACE_COUNT
#: titles, and at least NAME_SHARE of them are places by MAX_ECHO (樓 is not: 黃鶴樓, 岳陽樓 are written).
MIN_SUFFIX_NAMES = 10
NAME_SHARE = 0.75


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


def _is_office(name: str) -> bool:
    """A name ending in an office (李明府, 張少府) or one (樂府 is not a place either: 府 ends 少府)."""
    return any(name.endswith(o) for o in OFFICES if len(o) > 1) or name in OFFICES


def place_candidates(poems: list[tuple[str, str]]) -> tuple[Counter, dict[str, set[str]], Counter]:
    """Each place-shaped title string (two or three characters, a PLACE_SUFFIXES suffix, a name part free of
    NOT_IN_NAME): how many titles write it, the characters before it ("^" the title's start), and how many of
    those poems' bodies write its name part."""
    stop = NOT_IN_NAME | set(RANK) | set(_AFTER_PERSON) | {v for v in ADDRESS_VERBS if len(v) == 1}
    count: Counter = Counter()
    before: dict[str, set[str]] = {}
    echoed: Counter = Counter()
    for title, body in poems:
        seen = set()
        for n in (2, 3):
            for i in range(len(title) - n + 1):
                s = title[i:i + n]
                if s[-1] not in PLACE_SUFFIXES or s in seen or any(ch in stop for ch in s[:-1]):
                    continue
                seen.add(s)
                count[s] += 1
                before.setdefault(s, set()).add(title[i - 1] if i else "^")
                echoed[s] += s[:-1] in body
    return count, before, echoed


def places(poems: list[tuple[str, str]], surnames_found: dict[str, int]) -> tuple[dict[str, int], str, str]:
    """(place → titles, the suffixes of districts, the suffixes whose three-character names are places): see the
    module docstring. A surname before a suffix (李山) or
    before a place (李蘇州: 李 of 蘇州) is a person's, not a place's."""
    count, before, echoed = place_candidates(poems)
    tails: Counter = Counter()
    for s, n in count.items():
        if len(s) == 3:
            tails[s[1:]] = max(tails[s[1:]], n)
    family = set(surnames_found)
    seen = {s: n for s, n in count.items() if n >= MIN_PLACE_COUNT and len(before[s]) >= 2 and not _is_office(s)
            and tails[s] < 0.5 * n and not (s[0] in family and (len(s) == 2 or s[1:] in count))}
    found = {s: n for s, n in sorted(seen.items(), key=lambda x: (-x[1], x[0])) if echoed[s] <= MAX_ECHO * n}
    admin, named = "", ""
    for suffix in PLACE_SUFFIXES:
        names = [s for s in seen if len(s) == 2 and s[-1] == suffix]
        if len(names) >= MIN_ADMIN_NAMES and sum(s in found for s in names) >= ADMIN_SHARE * len(names):
            admin += suffix
        names = [s for s in seen if len(s) == 3 and s[-1] == suffix]
        if len(names) >= MIN_SUFFIX_NAMES and sum(s in found for s in names) >= NAME_SHARE * len(names):
            named += suffix
    return found, admin, named


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(tang_corpus.DEFAULT_CORPUS))
    args = parser.parse_args(argv)
    poems = [(canonical("".join(ch for ch in r["title"] if is_han(ch))),
              canonical("".join(ch for p in r["paragraphs"] for ch in p if is_han(ch))))
             for r in tang_corpus.tang_poems(args.corpus)]
    titles = [t for t, _ in poems]
    found = surnames(titles)
    place_names, admin, named = places([(t, b) for t, b in poems if t and b], found)
    OUT.write_text(json.dumps({
        "made_by": "scripts/build_title_names.py",
        "date": dt.date.today().isoformat(),
        "source": "titles of 全唐詩 (chinese-poetry, MIT)",
        "method": f"a character between a verb of address and a 排行 or an office in ≥ {MIN_COUNT} titles, so "
                  f"followed in ≥ {MIN_SHARE:.0%} of the titles where a verb of address precedes it, and the first "
                  f"character of ≥ {MIN_NAMES} person names (nr) of jieba 0.42.1's dictionary (MIT)",
        "surnames": found,
        "places_method": f"place-shaped strings (a suffix of {PLACE_SUFFIXES}) in ≥ {MIN_PLACE_COUNT} titles after ≥ 2 "
                         f"different characters, not mostly the tail of a longer name, whose name part the bodies of "
                         f"at most {MAX_ECHO:.0%} of their poems write; districts: suffixes with ≥ {MIN_ADMIN_NAMES} "
                         f"one-character names, ≥ {ADMIN_SHARE:.0%} of them places; named: suffixes with "
                         f"≥ {MIN_SUFFIX_NAMES} two-character names, ≥ {NAME_SHARE:.0%} of them places",
        "district_suffixes": admin,
        "name_suffixes": named,
        "places": place_names,
    }, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"{len(place_names)} places, districts {admin}, named {named}")
    print(f"{len(found)} surnames from {len(titles)} titles → {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
