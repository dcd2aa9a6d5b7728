"""Standings of a round: the ranking by the 詩伯's final 品, who wins and who drinks."""

import doctest

import poetry.standings
from poetry.standings import rank_round


def seats(*grades, submitted=None):
    names = "甲乙丙丁"
    return [{"seat": i + 1, "name": names[i], "grade": g,
             "submitted": True if submitted is None else submitted[i]} for i, g in enumerate(grades)]


def test_rank_round_ties_share_a_place_and_losers_drink():
    r = rank_round(seats("中品", "上品", "上品", "荒牌"), "罰酒一杯")
    assert [(x["name"], x["place"]) for x in r["ranking"]] == [("乙", 1), ("丙", 1), ("甲", 3), ("丁", 4)]
    assert [w["name"] for w in r["winners"]] == ["乙", "丙"]
    assert [(x["name"], x["drink"]) for x in r["losers"]] == [("丁", "罰酒一杯，荒牌加倍（兩次）")]
    assert r["complete"] and r["summary"].startswith("勝：乙（上品）、丙（上品）")


def test_rank_round_blank_paper_is_huangpai_and_ungraded_waits():
    r = rank_round(seats("上品", None, "下品", None, submitted=[True, True, True, False]))
    by_name = {x["name"]: x for x in r["ranking"]}
    assert by_name["丁"]["grade"] == "荒牌" and not by_name["丁"]["submitted"]
    assert by_name["乙"]["place"] is None and not r["complete"]
    assert {x["name"]: x["drink"] for x in r["losers"]} == {"丙": "罰酒一杯", "丁": "罰酒一杯，荒牌加倍（兩次）"}


def test_rank_round_no_winner_when_all_lose():
    r = rank_round(seats("下品", "荒牌", "下品", "荒牌"), "唱曲一支")
    assert r["winners"] == [] and len(r["losers"]) == 4
    assert all(x["drink"].startswith("唱曲一支") for x in r["losers"])
    assert rank_round(seats(None, None, None, None))["summary"] == "詩伯尚未評品。"


def test_standings_doctests_hold():
    result = doctest.testmod(poetry.standings)
    assert result.attempted > 0 and result.failed == 0
