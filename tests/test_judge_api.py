"""POST /api/grade: a poem in, its grade and criteria out; bad input answers 400 in Chinese."""

import pytest

from poetry.grading import CRITERIA, GRADES

SHANJU = "空山新雨後，天氣晚來秋。明月松間照，清泉石上流。竹喧歸浣女，蓮動下漁舟。隨意春芳歇，王孫自可留。"


def test_grade_a_poem(client):
    res = client.post("/api/grade", json={"title": "山居秋暝", "text": SHANJU})
    assert res.status_code == 200
    body = res.get_json()
    assert body["grade"] in GRADES and 0 <= body["score"] <= 1
    assert set(body["criteria"]) == set(CRITERIA)
    assert body["form"] == "五言律詩" and body["title"] == "山居秋暝"
    assert body["reasons"]


def test_thresholds_per_request(client):
    res = client.post("/api/grade", json={"title": "山居秋暝", "text": SHANJU, "thresholds": {"荒牌": 0.999}})
    assert res.status_code == 200 and res.get_json()["grade"] == "荒牌"


def test_simplified_input(client):
    res = client.post("/api/grade", json={"title": "山居秋暝", "text": "空山新雨后，天气晚来秋。明月松间照，清泉石上流。竹喧归浣女，莲动下渔舟。随意春芳歇，王孙自可留。"})
    assert res.status_code == 200
    assert res.get_json()["lines"][0] == "空山新雨後"


@pytest.mark.parametrize(
    "payload,needle",
    [
        (None, "JSON"),
        ([SHANJU], "JSON"),
        ({"title": "山居秋暝"}, "text"),
        ({"text": 5}, "text"),
        ({"text": ""}, "text"),
        ({"text": "hello"}, "漢字"),
        ({"text": "空山新雨後"}, "一句"),
        ({"text": SHANJU, "title": 3}, "title"),
        ({"text": SHANJU * 50}, "太長"),
        ({"text": SHANJU, "color": "red"}, "不認得"),
        ({"text": SHANJU, "thresholds": {"中品": 3}}, "0 到 1"),
        ({"text": SHANJU, "thresholds": {"甲品": 0.3}}, "門檻"),
        ({"text": SHANJU, "thresholds": [0.5]}, "thresholds"),
    ],
)
def test_bad_requests_answer_400_in_chinese(client, payload, needle):
    if payload is None:
        res = client.post("/api/grade", data="不是 JSON", content_type="text/plain")
    else:
        res = client.post("/api/grade", json=payload)
    assert res.status_code == 400
    body = res.get_json()
    assert needle in body["detail"]
