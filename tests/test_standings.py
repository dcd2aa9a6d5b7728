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
    assert [(x["name"], x["drink"], x["cups"]) for x in r["losers"]] == [("丁", "罰酒 2 杯", 2)]  # cups (issue 12)
    assert r["complete"] and r["summary"].startswith("勝：乙（上品）、丙（上品）")


def test_rank_round_blank_paper_is_huangpai_and_ungraded_waits():
    r = rank_round(seats("上品", None, "下品", None, submitted=[True, True, True, False]))
    by_name = {x["name"]: x for x in r["ranking"]}
    assert by_name["丁"]["grade"] == "荒牌" and not by_name["丁"]["submitted"]
    assert by_name["乙"]["place"] is None and not r["complete"]
    assert {x["name"]: x["drink"] for x in r["losers"]} == {"丙": "罰酒 1 杯", "丁": "罰酒 2 杯"}


def test_rank_round_no_winner_when_all_lose():
    r = rank_round(seats("下品", "荒牌", "下品", "荒牌"), "唱曲一支")
    assert r["winners"] == [] and len(r["losers"]) == 4
    assert [x["cups"] for x in r["losers"]] == [1, 1, 2, 2]  # the penalty text is only a note now
    custom = rank_round(seats("下品", "荒牌", "下品", "荒牌"), "", {"上品": 0, "中品": 0, "下品": 3, "荒牌": 5})
    assert [x["drink"] for x in custom["losers"]] == ["罰酒 3 杯", "罰酒 3 杯", "罰酒 5 杯", "罰酒 5 杯"]


def test_rank_round_with_a_clock_puts_the_faster_poem_first_within_one_grade():
    poems = seats("中品", "中品", "上品", "中品")
    for poem, seconds in zip(poems, (300.0, 120.5, 400.0, None), strict=True):
        poem["elapsed_seconds"] = seconds
    r = rank_round(poems, by_speed=True)
    assert [(x["name"], x["place"]) for x in r["ranking"]] == [("丙", 1), ("乙", 2), ("甲", 3), ("丁", 4)]
    assert [x["place"] for x in rank_round(poems)["ranking"]] == [1, 2, 2, 2]  # no clock: equal 品 share
    assert rank_round(seats(None, None, None, None))["summary"] == "詩伯尚未評品。"


def test_standings_doctests_hold():
    result = doctest.testmod(poetry.standings)
    assert result.attempted > 0 and result.failed == 0
