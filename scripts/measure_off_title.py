"""Where 離題 comes from: real poems called off their own titles, and poems under another poem's title caught,
by the kind of title (issue 14, title15).

    nice python scripts/measure_off_title.py [--corpus ../shared/corpus] [--song-dir …/quantangshi] [--n 1500]
        [--dump FILE.jsonl] [--show KIND]

Three sets, each graded under its own titles and under another poem's (a seeded derangement within the set, the
title differing once cleaned): 唐詩三百首 (held out of training), ``--n`` poems of the Tang calibration split
(build_grading.split_corpus: fitted on, never trained on: the set to tune on) and ``--n`` regular-shape 全宋詩 poems
by held-out authors (tang_corpus.song_sample: evaluation only). A poem is called 離題 when one of its reasons starts
with 「離題」 (the rubric's cap). Titles are sorted into kinds by their words (``title_kinds``, a poem may be of
several): the kinds the rubric's mistakes were seen in, places and post stations, people and addressees, journeys
and lodgings, festivals, seasons, 詠物. ``--dump`` writes one JSON line per graded pair (what the title parser read,
the title's demand, 貼題, the 品) for analysis; ``--show KIND`` lists the own-title 離題 poems of that kind (Tang
calibration and Song only: 唐詩三百首 is listed by count).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import build_grading as build  # noqa: E402
import tang_corpus  # noqa: E402

from poetry.grading import grade_poem, title_demand, warm_up  # noqa: E402
from poetry.grading.festivals import festival_of  # noqa: E402
from poetry.grading.measures import clean_title, names_an_object  # noqa: E402
from poetry.grading.seasons import season_of  # noqa: E402
from poetry.grading.title_parts import PLACE_SUFFIXES, read_title  # noqa: E402

#: The kinds a title is sorted into, in the order of the tables.
KINDS = ("place", "people", "journey", "festival", "season", "object", "other")
#: Words of the place a poem was written at (驛 鋪 寺 庵 店 …): PLACE_SUFFIXES and the lodgings Song titles name.
PLACE_CHARS = frozenset(PLACE_SUFFIXES + "鋪店庵軒齋園墅莊橋浦港塘坡岡堰")
#: Verbs of address: a visit, a farewell, a letter, an answer.
PEOPLE_WORDS = ("送", "寄", "贈", "懷", "訪", "酬", "和", "答", "示", "呈", "謝", "哭", "挽", "別", "陪", "招", "逢",
                "喜", "憶", "簡", "同", "約", "邀", "問", "弔")
#: Words of a journey, a lodging, a stay.
JOURNEY_WORDS = ("宿", "泊", "過", "道中", "途中", "舟", "行", "歸", "還", "發", "出", "入", "登", "遊", "游", "渡",
                 "次", "至", "到", "赴", "經", "晨炊", "早行", "夜行", "抵")


def title_kinds(title: str) -> tuple[str, ...]:
    """The kinds of a clean title (several may hold; ``other`` when none).

    >>> title_kinds("葛溪驛"), title_kinds("過松源晨炊漆公店"), title_kinds("元日")
    (('place',), ('place', 'journey'), ('festival',))
    """
    parts = read_title(title)
    kinds = []
    if parts.places or any(ch in PLACE_CHARS for ch in title):
        kinds.append("place")
    if parts.addressee or any(w in title for w in PEOPLE_WORDS):
        kinds.append("people")
    if any(w in title for w in JOURNEY_WORDS):
        kinds.append("journey")
    if festival_of(title):
        kinds.append("festival")
    elif season_of(title)[0]:
        kinds.append("season")
    if names_an_object(title):
        kinds.append("object")
    return tuple(kinds) or ("other",)


def deranged(poems: list[dict], seed: int = 15) -> list[str]:
    """For each poem the title of another poem of the set (differing once cleaned), seeded."""
    rng = random.Random(seed)
    titles = [p["title"] for p in poems]
    out = []
    for p in poems:
        t = rng.choice(titles)
        while clean_title(t) == clean_title(p["title"]):
            t = rng.choice(titles)
        out.append(t)
    return out


def graded(poem: dict, title: str) -> dict:
    """One graded pair: what the rubric did with the poem under ``title``, and what the parser read."""
    g = grade_poem(build.as_text(poem["lines"]), title=title)
    ct = clean_title(title)
    parts = read_title(ct) if ct else None
    fit = g.criteria.get("貼題") or {}
    return {"title": title, "kinds": title_kinds(ct) if ct else ("other",), "topic": parts.asked if parts else "",
            "places": list(parts.places) if parts else [], "persons": list(parts.addressee) if parts else [],
            "demand": round(title_demand(title), 3), "fit": fit.get("score"), "grade": g.grade, "score": g.score,
            "off": any(r.startswith("離題") for r in g.reasons), "lines": poem["lines"]}


def measure(label: str, poems: list[dict], dump, show: str | None) -> None:
    """Grade the set under its own and other titles, and print the rates by kind."""
    others = deranged(poems)
    by_kind: dict[str, Counter] = defaultdict(Counter)
    shown = []
    for p, other in zip(poems, others, strict=True):
        own, borrowed = graded(p, p["title"]), graded(p, other)
        for rec, which in ((own, "own"), (borrowed, "other")):
            rec.update(set=label, which=which, author=p.get("author", ""))
            if dump:
                dump.write(json.dumps(rec, ensure_ascii=False) + "\n")
            for kind in rec["kinds"] + ("all",):
                by_kind[kind][which] += 1
                by_kind[kind][which + "_off"] += rec["off"]
                by_kind[kind][which + "_upper"] += rec["grade"] == "上品"
        if own["off"] and show and show in own["kinds"] and "三百首" not in label:
            shown.append(own)
    print(f"\n{label}: {len(poems)} poems\n")
    print("| title kind | own titles | called 離題 | 上品 | others' titles | caught (離題) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for kind in ("all",) + KINDS:
        c = by_kind[kind]
        if c["own"] or c["other"]:
            print(f"| {kind} | {c['own']} | {c['own_off']} ({c['own_off'] / max(c['own'], 1):.1%}) | "
                  f"{c['own_upper'] / max(c['own'], 1):.0%} | {c['other']} | "
                  f"{c['other_off']} ({c['other_off'] / max(c['other'], 1):.1%}) |")
    for rec in shown:
        print(f"  {rec['title']} topic={rec['topic']} places={rec['places']} persons={rec['persons']} "
              f"demand={rec['demand']} 貼題={rec['fit']:.3f} | {'，'.join(rec['lines'][:4])}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=tang_corpus.DEFAULT_CORPUS)
    parser.add_argument("--song-dir", type=Path, default=tang_corpus.DEFAULT_SONG)
    parser.add_argument("--n", type=int, default=1500, help="poems of the Tang calibration split and of 全宋詩")
    parser.add_argument("--dump", type=Path, help="write each graded pair as a JSON line")
    parser.add_argument("--show", choices=KINDS, help="list the own-title 離題 poems of this kind")
    parser.add_argument("--only", choices=("anthology", "tang", "song"), action="append")
    args = parser.parse_args(argv)
    warm_up()
    dump = args.dump.open("w", encoding="utf-8") if args.dump else None
    only = set(args.only or ("anthology", "tang", "song"))
    anthology = build.load_anthology(args.corpus)
    if "anthology" in only:
        measure("唐詩三百首 (held out)", [p for p in anthology if len(p["lines"]) >= 2 and p["title"]], dump, None)
    if "tang" in only:
        poems = build.load_corpus(args.corpus)
        _, calibration = build.split_corpus(poems, build.heldout_matches(poems, anthology))
        pool = [poems[i] for i in calibration if poems[i]["title"] and len(poems[i]["lines"]) <= 24]
        measure("Tang calibration split (tune here)", random.Random(15).sample(pool, min(args.n, len(pool))),
                dump, args.show)
    if "song" in only:
        song = tang_corpus.song_sample(args.n, build._clean, corpus=args.corpus)
        measure("全宋詩, held-out authors (evaluation only)", song, dump, args.show)
    if dump:
        dump.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
