"""The standings of a round: the 詩伯's dashboard, the ranking by the final 品, the results and the history.

The grading (poetry.grading) only suggests a 品; the 詩伯 decides. This module puts the two side by
side for a round and, once the 詩伯 has judged, ranks the seats by the rules of 詩牌:

  more 上品 wins; 下品 and 荒牌 lose and drink the round's cups (default 下品 one, 荒牌 two);
  a seat that hands in no poem is 荒牌 (交白卷); equal 品 share a place, unless the round had a
  clock: then, within one 品, the faster poem ranks higher (以詩作的遲速和優劣論高下).

The store (poetry.store) keeps the rounds; this module reads it and never writes.

    >>> rank_round([{"seat": 1, "name": "甲", "grade": "中品", "submitted": True},
    ...             {"seat": 2, "name": "乙", "grade": "下品", "submitted": True}])["summary"]
    '勝：甲（中品）；負：乙（下品）罰酒 1 杯。'
"""

from __future__ import annotations

import dataclasses
import json
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Mapping

from poetry.errors import PoetryError
from poetry.grading import CRITERIA, GRADES, criterion_bands, grade_poem, grade_to_dict, merge_thresholds
from poetry.rules import DEFAULT_CUPS, HandIndex, tile_for, tile_marks, tiles_used

if TYPE_CHECKING:
    from poetry.store import Seat, Store

#: Rank of each 品 (lower is better); a poem not handed in counts as 荒牌 (交白卷).
GRADE_RANK = MappingProxyType({g: i for i, g in enumerate(GRADES)})


def _drink(cups: int) -> str:
    """What a loser drinks, as the pages say it: 「罰酒 N 杯」 (the free-text penalty is only a note).

    >>> _drink(2)
    '罰酒 2 杯'
    """
    return f"罰酒 {cups} 杯" if cups else "不罰"


def _summary(graded: list[dict[str, Any]], winners: list[dict[str, Any]], losers: list[dict[str, Any]],
             complete: bool) -> str:
    """One Chinese sentence: who won, who drinks what, whether some poem still waits for its 品."""
    if not graded:
        return "詩伯尚未評品。"
    parts = []
    if winners:
        parts.append("勝：" + "、".join(f"{w['name']}（{w['grade']}）" for w in winners))
    if losers:
        parts.append("負：" + "、".join(f"{x['name']}（{x['grade']}）{x['drink']}" for x in losers))
    else:
        parts.append("無人受罰")
    return "；".join(parts) + ("。" if complete else "（尚有詩未評）。")


def rank_round(poems: list[Mapping[str, Any]], penalty: str = "", cups: Mapping[str, int] | None = None,
               by_speed: bool = False) -> dict[str, Any]:
    """Rank the seats of a round by the 詩伯's final 品; name the winners, the losers and their drinks.

    ``poems``: one entry per writing seat, {"seat", "name", "grade" (None if not yet graded),
    "submitted"}. More 上品 wins; 下品 and 荒牌 lose; a seat without a poem is 荒牌 (交白卷); equal 品
    share a place. ``complete`` is False while some submitted poem has no 品 yet. ``cups`` gives each
    品's cups (DEFAULT_CUPS); every entry carries ``cups``. With ``by_speed`` (a round with a clock),
    within one 品 the poem with fewer ``elapsed_seconds`` ranks higher. ``penalty`` is only a note.

    >>> r = rank_round([{"seat": 1, "name": "甲", "grade": "上品", "submitted": True},
    ...                 {"seat": 2, "name": "乙", "grade": "荒牌", "submitted": True}], "罰酒一杯")
    >>> [x["place"] for x in r["ranking"]], r["losers"][0]["name"], r["winners"][0]["name"]
    ([1, 2], '乙', '甲')
    """
    rows = []
    for p in poems:
        grade = p.get("grade")
        if not p.get("submitted"):
            grade = "荒牌"
        rows.append({"seat": p["seat"], "name": p.get("name", ""), "grade": grade,
                     "submitted": bool(p.get("submitted")), "graded": grade is not None,
                     "elapsed_seconds": p.get("elapsed_seconds"),
                     "cups": int((cups or DEFAULT_CUPS).get(grade, 0)) if grade else 0})
    graded = [r for r in rows if r["grade"] is not None]
    graded.sort(key=lambda r: (GRADE_RANK[r["grade"]], _speed(r, by_speed), r["seat"]))
    place, previous = 0, None
    for i, r in enumerate(graded):
        if (r["grade"], _speed(r, by_speed)) != previous:
            place, previous = i + 1, (r["grade"], _speed(r, by_speed))
        r["place"] = place
    ungraded = [dict(r, place=None) for r in rows if r["grade"] is None]
    best = graded[0]["grade"] if graded else None
    winners = [r for r in graded if best in ("上品", "中品") and r["grade"] == best]
    losers = [dict(r, drink=_drink(r["cups"])) for r in graded if r["grade"] in ("下品", "荒牌")]
    complete = not ungraded
    return {"ranking": graded + ungraded, "winners": winners, "losers": losers, "complete": complete,
            "summary": _summary(graded, winners, losers, complete)}


def _speed(row: Mapping[str, Any], by_speed: bool) -> float:
    """The sort key of speed within one 品: seconds to hand in (a round with a clock), else all equal."""
    if not by_speed or row.get("elapsed_seconds") is None:
        return float("inf") if by_speed else 0.0
    return float(row["elapsed_seconds"])


def _tiles_used(title: str, lines: list[str], hand: list[Mapping[str, Any]], rules: Mapping[str, Any]
                ) -> tuple[int, list[dict[str, Any]]]:
    """(the count, the tiles) a poem takes from the hand, title included, by the round's one rule
    (poetry.rules.tile_marks: the same number as the editor's 「已用」)."""
    by_char = {t["char"]: t for t in hand}
    index = HandIndex.of([t["char"] for t in hand])
    marks = tile_marks(title, lines, index, rules.get("composition", "rhyme_feet"), rules.get("wildcards", 0))
    feet = {row[-1] for row in marks["lines"] if row}
    seen: dict[str, dict[str, Any]] = {}
    for tile in [t for row in marks["lines"] for t in row] + [tile_for(c, index) for c in title]:
        if tile in by_char and tile not in seen:
            seen[tile] = {"char": tile, "tone": by_char[tile].get("tone", ""), "rhyme_foot": tile in feet}
    return marks["used"], list(seen.values())


def _suggestion(sub: Mapping[str, Any], hand: list[Mapping[str, Any]], thresholds: Mapping[str, float] | None,
                rhyme_book: str = "pingshui") -> dict[str, Any]:
    """The grading's suggestion for a submission (as its declared form, by the round's rhyme book), as plain data."""
    try:
        g = grade_poem(sub["text"], title=sub["title"], thresholds=thresholds,
                       hand="".join(t["char"] for t in hand) or None, form=sub.get("form"), rhyme_book=rhyme_book)
    except PoetryError as exc:  # a poem the grading cannot read is still shown, with the reason
        return {"grade": "荒牌", "score": 0.0, "criteria": {}, "reasons": [getattr(exc, "message", "無法評量這首詩。")],
                "form": None, "title": sub["title"], "lines": []}
    return grade_to_dict(g)


def poem_verdict(text: str, form: str | None, hand: str, rhyme_book: str) -> dict[str, Any]:
    """The editor's verdict on a poem (POST /api/check for this text, form, hand and rhyme book), as
    plain data: the dashboard shows the same faults at the same places."""
    from poetry.checker import check_poem

    try:
        report = check_poem(text, rhyme_book=rhyme_book, hand=hand or None, form=form)
    except PoetryError as exc:
        return {"error": exc.message}
    return json.loads(json.dumps(dataclasses.asdict(report), ensure_ascii=False, default=str))


def _poem_entry(sub: Mapping[str, Any], hand: list[Mapping[str, Any]], rules: Mapping[str, Any],
                thresholds: Mapping[str, float] | None) -> dict[str, Any]:
    """A submission as the dashboard shows it: the editor's marks and faults (judged now, as declared),
    the tiles used, the suggestion."""
    rhyme_book = rules.get("rhyme_book", "pingshui")
    report = poem_verdict(sub["text"], sub.get("form"), "".join(t["char"] for t in hand), rhyme_book)
    violations = [{k: v.get(k) for k in ("line", "pos", "kind", "severity", "message")}
                  for v in report.get("violations") or []]
    suggestion = _suggestion(sub, hand, thresholds, rhyme_book)
    typed = ["".join(c.get("char", "") for c in line.get("chars", [])) for line in report.get("lines") or []]
    count, tiles = _tiles_used(sub["title"], typed, hand, rules)
    return {
        "title": sub["title"], "text": sub["text"], "locked": sub["locked"],
        "lines": [[{"char": c.get("char"), "tone": c.get("tone"), "mark": c.get("mark"), "status": c.get("status")}
                   for c in line.get("chars", [])] for line in report.get("lines") or []],
        "violations": violations,
        "faults": [v["message"] for v in violations if v["severity"] == "error"],
        "notes": [v["message"] for v in violations if v["severity"] != "error"] + list(report.get("notes") or []),
        "summary": report.get("summary") or report.get("error"),
        "form": sub.get("form") or report.get("form"),
        "declared_form": sub.get("form"),
        "regulated": report.get("regulated"),
        "verdict": report.get("verdict"),
        "tiles_count": count,
        "tiles_used": tiles,
        "suggestion": suggestion,
    }


def round_dashboard(store: Store, code: str, viewer: Seat | None,
                    thresholds: Mapping[str, float] | None = None) -> dict[str, Any]:
    """Everything the 詩伯 judges a round by: each submission with its report, tiles, criteria, suggested 品.

    ``viewer`` is the seat asking; only the 詩伯 may see this before publication (NotAllowed otherwise,
    through the store's own check of the hands).
    """
    info = store.round_info(code, viewer)
    hands = {h["seat"]: h["tiles"] for h in store.hands(code, viewer)["hands"]}  # 詩伯 only (403)
    subs = {s["seat"]: s for s in store.submissions_of(code)}
    finals = {g["seat"]: g for g in store.list_grades(code)}
    # a playing 詩伯 reads the others' poems only once their own is handed in (the hands stay visible)
    fair = info["phase"] == "published" or store.may_read_poems(code, viewer)
    entries = []
    for seat in info["seats"]:
        if not seat["plays"]:
            continue
        sub, final = subs.get(seat["seat"]), finals.get(seat["seat"])
        hidden = bool(sub) and not fair and seat["seat"] != viewer.seat
        entries.append({
            "seat": seat["seat"], "name": seat["name"], "is_host": seat["is_host"],
            "submitted": bool(sub and sub["locked"]), "hidden": hidden,
            "elapsed_seconds": sub.get("elapsed_seconds") if sub else None,
            "poem": _poem_entry(sub, hands.get(seat["seat"], []), info, thresholds) if sub and not hidden else None,
            "final": {"grade": final["grade"], "comment": final["comment"]} if final else None,
        })
    ranking = ranking_of(info, [{"seat": e["seat"], "name": e["name"], "submitted": e["submitted"],
                                 "elapsed_seconds": e["elapsed_seconds"],
                                 "grade": e["final"]["grade"] if e["final"] else None} for e in entries])
    return {"round": info, "entries": entries, "ranking": ranking, "fair_hidden": not fair,
            "thresholds": merge_thresholds(thresholds), "criteria_names": list(CRITERIA), "bands": criterion_bands()}


def round_results(store: Store, code: str) -> dict[str, Any]:
    """The published results of a round with the ranking (what GET /api/rounds/<code>/results adds)."""
    results = _round_results(store, code)
    return {**results, "series": series_standing(store, code)}


def _round_results(store: Store, code: str) -> dict[str, Any]:
    """round_results without the series' standing (which reads every round of the series this way)."""
    results = store.results(code)
    info = store.round_info(code)
    hands = {h["seat"]: h["tiles"] for h in results["hands"]}
    elapsed, changes = store.elapsed_of(code), store.grade_log(code)
    for poem in results["poems"]:  # the editor's and the dashboard's count of tiles used; time; 品 changes
        poem["tiles_count"] = tiles_used(poem["title"], poem["text"], [t["char"] for t in hands.get(poem["seat"], [])],
                                         info["composition"], info["wildcards"]) if poem["submitted"] else 0
        poem["elapsed_seconds"] = elapsed.get(poem["seat"]) if poem["submitted"] else None
        poem["grade_changes"] = changes.get(poem["seat"], [])
        poem["grade_changed"] = bool(poem["grade_changes"])
    ranking = ranking_of(info, [{"seat": p["seat"], "name": p["name"], "submitted": p["submitted"],
                                 "grade": p["grade"], "elapsed_seconds": p["elapsed_seconds"]}
                                for p in results["poems"]])
    by_seat = {r["seat"]: r for r in ranking["ranking"]}
    seats = [{**seat, "cups": by_seat[seat["seat"]]["cups"] if seat["seat"] in by_seat else 0,
              "elapsed_seconds": elapsed.get(seat["seat"]), "grade": by_seat.get(seat["seat"], {}).get("grade")}
             for seat in results["seats"]]
    return {**results, "seats": seats, "penalty": info.get("penalty", ""), "cups": info["cups"],
            "minutes": info["minutes"], "rhymes": info["rhymes"], "next_code": info["next_code"],
            "previous_code": info["previous_code"], "ranking": ranking}


def ranking_of(info: Mapping[str, Any], poems: list[Mapping[str, Any]]) -> dict[str, Any]:
    """rank_round under a round's own rule: its cups, and speed within one 品 when it had a clock."""
    return rank_round(poems, info.get("penalty", ""), info.get("cups"), by_speed=bool(info.get("minutes")))


def series_standing(store: Store, code: str) -> dict[str, Any] | None:
    """An evening's standing over a round and its rematches: 品 and cups per person (None: a single round).

    Only published rounds count; people are the same seats throughout (a rematch keeps them).
    """
    codes = store.series(code)
    if len(codes) < 2:
        return None
    people: dict[int, dict[str, Any]] = {}
    counted = []
    for each in codes:
        try:
            ranking = _round_results(store, each)["ranking"]
        except PoetryError:  # not yet published (the evening's last round, still playing)
            continue
        counted.append(each)
        for r in ranking["ranking"]:
            person = people.setdefault(r["seat"], {"seat": r["seat"], "name": r["name"], "cups": 0,
                                                   "grades": dict.fromkeys(GRADES, 0)})
            if r["grade"]:
                person["grades"][r["grade"]] += 1
            person["cups"] += r["cups"]
    standing = sorted(people.values(), key=lambda p: (*(-p["grades"][g] for g in GRADES[:2]), p["cups"], p["seat"]))
    return {"rounds": counted, "codes": codes, "people": standing}


def round_history(store: Store, seats: list[Seat]) -> list[dict[str, Any]]:
    """The rounds of the given seats (one per round), newest first, each with its phase and ranking."""
    out = []
    for seat in seats:
        try:
            info = store.round_info(seat.code, seat)
            results = round_results(store, seat.code) if info["phase"] == "published" else None
            ranking = results["ranking"] if results else None
        except PoetryError:  # a round deleted meanwhile: leave it out
            continue
        out.append({"code": info["code"], "title": info["title"], "phase": info["phase"],
                    "me": info["me"], "created_at": info["created_at"], "published_at": info["published_at"],
                    "penalty": info["penalty"], "ranking": ranking,
                    "series": results["series"] if results else None,
                    "players": [s["name"] for s in info["seats"] if s["plays"]]})
    out.sort(key=lambda r: r["published_at"] or r["created_at"] or "", reverse=True)
    return out
