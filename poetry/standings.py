"""The standings of a round: the 詩伯's dashboard, the ranking by the final 品, the results and the history.

The grading (poetry.grading) only suggests a 品; the 詩伯 decides. This module puts the two side by
side for a round and, once the 詩伯 has judged, ranks the seats by the rules of 詩牌:

  more 上品 wins; 下品 and 荒牌 lose and drink (下品 the round's penalty once, 荒牌 twice);
  a seat that hands in no poem is 荒牌 (交白卷); equal 品 share a place.

The store (poetry.store) keeps the rounds; this module reads it and never writes.

    >>> rank_round([{"seat": 1, "name": "甲", "grade": "中品", "submitted": True},
    ...             {"seat": 2, "name": "乙", "grade": "下品", "submitted": True}])["summary"]
    '勝：甲（中品）；負：乙（下品）罰酒一杯。'
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Mapping

from poetry.errors import PoetryError
from poetry.grading import CRITERIA, GRADES, criterion_bands, grade_poem, grade_to_dict, merge_thresholds

if TYPE_CHECKING:
    from poetry.store import Seat, Store

#: Rank of each 品 (lower is better); a poem not handed in counts as 荒牌 (交白卷).
GRADE_RANK = MappingProxyType({g: i for i, g in enumerate(GRADES)})
DEFAULT_PENALTY = "罰酒一杯"


def _drink(grade: str, penalty: str) -> str:
    """What a loser drinks under the round's rule: 下品 the penalty once, 荒牌 twice."""
    penalty = (penalty or "").strip() or DEFAULT_PENALTY
    return penalty if grade == "下品" else f"{penalty}，荒牌加倍（兩次）"


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


def rank_round(poems: list[Mapping[str, Any]], penalty: str = "") -> dict[str, Any]:
    """Rank the seats of a round by the 詩伯's final 品; name the winners, the losers and their drinks.

    ``poems``: one entry per writing seat, {"seat", "name", "grade" (None if not yet graded),
    "submitted"}. More 上品 wins; 下品 and 荒牌 lose; a seat without a poem is 荒牌 (交白卷); equal 品
    share a place. ``complete`` is False while some submitted poem has no 品 yet.

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
                     "submitted": bool(p.get("submitted")), "graded": grade is not None})
    graded = [r for r in rows if r["grade"] is not None]
    graded.sort(key=lambda r: (GRADE_RANK[r["grade"]], r["seat"]))
    place, previous = 0, None
    for i, r in enumerate(graded):
        if r["grade"] != previous:
            place, previous = i + 1, r["grade"]
        r["place"] = place
    ungraded = [dict(r, place=None) for r in rows if r["grade"] is None]
    best = graded[0]["grade"] if graded else None
    winners = [r for r in graded if best in ("上品", "中品") and r["grade"] == best]
    losers = [dict(r, drink=_drink(r["grade"], penalty)) for r in graded if r["grade"] in ("下品", "荒牌")]
    complete = not ungraded
    return {"ranking": graded + ungraded, "winners": winners, "losers": losers, "complete": complete,
            "summary": _summary(graded, winners, losers, complete)}


def _tiles_used(lines: list[str], original: str, hand: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The hand's tiles that appear in the poem (as typed or as its traditional form), in poem order."""
    by_char = {t["char"]: t for t in hand}
    seen, out = set(), []
    for ch in "".join(lines) + original:
        t = by_char.get(ch)
        if t is not None and ch not in seen:
            seen.add(ch)
            out.append({"char": ch, "tone": t.get("tone", ""), "rhyme_foot": any(x.endswith(ch) for x in lines)})
    return out


def _suggestion(sub: Mapping[str, Any], hand: list[Mapping[str, Any]],
                thresholds: Mapping[str, float] | None) -> dict[str, Any]:
    """The grading's suggestion for a submission, as plain data."""
    try:
        g = grade_poem(sub["text"], title=sub["title"], thresholds=thresholds,
                       hand="".join(t["char"] for t in hand) or None)
    except PoetryError as exc:  # a poem the grading cannot read is still shown, with the reason
        return {"grade": "荒牌", "score": 0.0, "criteria": {}, "reasons": [getattr(exc, "message", "無法評量這首詩。")],
                "form": None, "title": sub["title"], "lines": []}
    return grade_to_dict(g)


def _poem_entry(sub: Mapping[str, Any], hand: list[Mapping[str, Any]],
                thresholds: Mapping[str, float] | None) -> dict[str, Any]:
    """A submission as the dashboard shows it: the checker's marks and faults, the tiles used, the suggestion."""
    report = sub.get("report") or {}
    if not isinstance(report, dict):
        report = {}
    violations = report.get("violations") or []
    suggestion = _suggestion(sub, hand, thresholds)
    return {
        "title": sub["title"], "text": sub["text"], "locked": sub["locked"],
        "lines": [[{"char": c.get("char"), "tone": c.get("tone"), "mark": c.get("mark"), "status": c.get("status")}
                   for c in line.get("chars", [])] for line in report.get("lines") or []],
        "faults": [v.get("message") for v in violations if v.get("severity") == "error"],
        "notes": [v.get("message") for v in violations if v.get("severity") != "error"],
        "summary": report.get("summary"),
        "form": report.get("form"),
        "tiles_used": _tiles_used(suggestion.get("lines", []), sub["text"], hand),
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
    entries = []
    for seat in info["seats"]:
        if not seat["plays"]:
            continue
        sub, final = subs.get(seat["seat"]), finals.get(seat["seat"])
        entries.append({
            "seat": seat["seat"], "name": seat["name"], "is_host": seat["is_host"],
            "submitted": bool(sub and sub["locked"]),
            "poem": _poem_entry(sub, hands.get(seat["seat"], []), thresholds) if sub else None,
            "final": {"grade": final["grade"], "comment": final["comment"]} if final else None,
        })
    ranking = rank_round([{"seat": e["seat"], "name": e["name"], "submitted": e["submitted"],
                           "grade": e["final"]["grade"] if e["final"] else None} for e in entries],
                         info.get("penalty", ""))
    return {"round": info, "entries": entries, "ranking": ranking,
            "thresholds": merge_thresholds(thresholds), "criteria_names": list(CRITERIA), "bands": criterion_bands()}


def round_results(store: Store, code: str) -> dict[str, Any]:
    """The published results of a round with the ranking (what GET /api/rounds/<code>/results adds)."""
    results = store.results(code)
    info = store.round_info(code)
    ranking = rank_round([{"seat": p["seat"], "name": p["name"], "submitted": p["submitted"], "grade": p["grade"]}
                          for p in results["poems"]], info.get("penalty", ""))
    return {**results, "penalty": info.get("penalty", ""), "ranking": ranking}


def round_history(store: Store, seats: list[Seat]) -> list[dict[str, Any]]:
    """The rounds of the given seats (one per round), newest first, each with its phase and ranking."""
    out = []
    for seat in seats:
        try:
            info = store.round_info(seat.code, seat)
            ranking = round_results(store, seat.code)["ranking"] if info["phase"] == "published" else None
        except PoetryError:  # a round deleted meanwhile: leave it out
            continue
        out.append({"code": info["code"], "title": info["title"], "phase": info["phase"],
                    "me": info["me"], "created_at": info["created_at"], "published_at": info["published_at"],
                    "penalty": info["penalty"], "ranking": ranking,
                    "players": [s["name"] for s in info["seats"] if s["plays"]]})
    out.sort(key=lambda r: r["published_at"] or r["created_at"] or "", reverse=True)
    return out
