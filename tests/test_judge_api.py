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
    res = client.post("/api/grade", json={"title": "山居秋暝", "text": SHANJU, "thresholds": {"中品": 0.999}})
    assert res.status_code == 200 and res.get_json()["grade"] == "下品"
    broken = SHANJU.replace("明月松間照", "松間明月照")  # a line out of its tones: the form is broken
    res = client.post("/api/grade", json={"title": "山居秋暝", "text": broken, "thresholds": {"貫理_floor": 1.0}})
    assert res.status_code == 200 and res.get_json()["grade"] == "荒牌"
    res = client.post("/api/grade", json={"title": "山居秋暝", "text": broken})
    assert res.status_code == 200 and res.get_json()["grade"] == "下品"


def test_simplified_input(client):
    res = client.post("/api/grade", json={"title": "山居秋暝",
                                          "text": ("空山新雨后，天气晚来秋。明月松间照，清泉石上流。"
                                                   "竹喧归浣女，莲动下渔舟。随意春芳歇，王孙自可留。")})
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


# --- the 詩伯's dashboard and grades ------------------------------------------------------------

from tests.judge_fixtures import bearer, judged_round  # noqa: E402


@pytest.fixture
def judged(app, client):
    code, tokens = judged_round(app, client)
    return client, code, tokens


def test_dashboard_data_for_the_judge(judged):
    client, code, tokens = judged
    res = client.get(f"/api/rounds/{code}/judge", headers=bearer(tokens[1]))
    assert res.status_code == 200
    data = res.get_json()
    entries = {e["seat"]: e for e in data["entries"]}
    assert set(entries) == {1, 2, 3, 4}
    for e in entries.values():
        s = e["poem"]["suggestion"]
        assert s["grade"] in GRADES and set(s["criteria"]) == set(CRITERIA)
        assert e["poem"]["lines"] and e["poem"]["lines"][0][0]["mark"]
    # the jumbled poem is suggested below the real ones
    assert entries[3]["poem"]["suggestion"]["score"] < min(entries[s]["poem"]["suggestion"]["score"] for s in (1, 2, 4))
    assert entries[3]["poem"]["suggestion"]["grade"] in ("下品", "荒牌")
    assert data["ranking"]["summary"] == "詩伯尚未評品。"


def test_dashboard_thresholds_from_the_query(judged):
    client, code, tokens = judged
    data = client.get(f"/api/rounds/{code}/judge?荒牌=0.999", headers=bearer(tokens[1])).get_json()
    assert data["thresholds"]["荒牌"] == 0.999
    # every poem falls under the threshold: 荒牌 where its sense is scattered, else 下品 saying why (事實雜亂 is
    # what 荒牌 means; the default grades had 上品 and 中品 among them)
    suggestions = [e["poem"]["suggestion"] for e in data["entries"]]
    assert {s["grade"] for s in suggestions} <= {"下品", "荒牌"} and any(s["grade"] == "荒牌" for s in suggestions)
    assert all("未見事實雜亂" in s["reasons"][0] for s in suggestions if s["grade"] == "下品")


def test_dashboard_offers_every_threshold_and_the_switch(judged):
    """Every rubric threshold is on the dashboard with its label; 失格荒牌 is a checkbox that takes effect."""
    from poetry.grading import DEFAULT_THRESHOLDS
    from poetry.grading.rubric import THRESHOLD_LABELS

    client, code, tokens = judged
    assert set(THRESHOLD_LABELS) == set(DEFAULT_THRESHOLDS)
    page = client.get(f"/r/{code}/judge?失格荒牌=1", headers=bearer(tokens[1])).get_data(as_text=True)
    for key, label in THRESHOLD_LABELS.items():
        assert f'name="{key}"' in page and label in page
    assert 'type="checkbox" name="失格荒牌" value="1" checked' in page
    assert page.count('class="criterion taste"') == 4  # 格調 beside the criteria, for every poem
    # a title no poem can treat well enough: every poem is off its title; with the switch that is 荒牌
    capped = client.get(f"/api/rounds/{code}/judge?貼題_floor=1", headers=bearer(tokens[1])).get_json()
    assert {e["poem"]["suggestion"]["grade"] for e in capped["entries"]} <= {"下品", "荒牌"}
    dropped = client.get(f"/api/rounds/{code}/judge?貼題_floor=1&失格荒牌=1", headers=bearer(tokens[1])).get_json()
    assert dropped["thresholds"]["失格荒牌"] == 1.0
    assert {e["poem"]["suggestion"]["grade"] for e in dropped["entries"]} == {"荒牌"}


@pytest.mark.parametrize("who", [None, 2])
def test_only_the_judge_sees_the_dashboard_and_grades(judged, who):
    client, code, tokens = judged
    client = client.application.test_client()  # no seat cookie
    headers = bearer(tokens[who]) if who else {}
    assert client.get(f"/api/rounds/{code}/judge", headers=headers).status_code == 403
    assert client.get(f"/r/{code}/judge", headers=headers).status_code == 403
    res = client.post(f"/api/rounds/{code}/grades", headers=headers, json={"seat": 2, "grade": "上品"})
    assert res.status_code == 403 and "詩伯" in res.get_json()["detail"]


def test_grading_ranks_names_losers_and_publishes(judged):
    client, code, tokens = judged
    host = bearer(tokens[1])
    for seat, grade in ((1, "上品"), (2, "上品"), (3, "荒牌")):
        res = client.post(f"/api/rounds/{code}/grades", headers=host,
                          json={"seat": seat, "grade": grade, "comment": "好" if seat == 1 else ""})
        assert res.status_code == 200
    ranking = res.get_json()["ranking"]
    assert not ranking["complete"] and "尚有詩未評" in ranking["summary"]
    ranking = client.post(f"/api/rounds/{code}/grades", headers=host,
                          json={"seat": 4, "grade": "下品"}).get_json()["ranking"]
    assert ranking["complete"]
    assert [(r["seat"], r["place"]) for r in ranking["ranking"]] == [(1, 1), (2, 1), (4, 3), (3, 4)]
    assert {w["seat"] for w in ranking["winners"]} == {1, 2}
    drinks = {x["seat"]: x["drink"] for x in ranking["losers"]}
    assert drinks[4] == "罰酒 1 杯" and drinks[3] == "罰酒 2 杯"  # cups per person (issue 12)
    # a grade changed replaces the old one
    client.post(f"/api/rounds/{code}/grades", headers=host, json={"seat": 4, "grade": "中品"})
    assert client.post(f"/api/rounds/{code}/publish", headers=host).status_code == 200
    results = client.get(f"/api/rounds/{code}/results").get_json()
    assert {p["seat"]: p["grade"] for p in results["poems"]} == {1: "上品", 2: "上品", 3: "荒牌", 4: "中品"}
    # the published results carry the ranking: 荒牌 (seat 3) is the only loser once seat 4 rose to 中品
    assert results["ranking"]["complete"]
    assert [loser["seat"] for loser in results["ranking"]["losers"]] == [3]
    page = client.get(f"/r/{code}/results")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "成績單" in html and "少游 罰酒 2 杯" in html and "好" in html and "魯直" in html  # cups (issue 12)
    # the 品第圖: each name on its grade's rung, longer rungs for higher grades
    import re
    rungs = dict(re.findall(r'<div class="rung" data-grade="(\S*)">(.*?)</div>', html, re.S))
    assert list(rungs) == ["上品", "中品", "下品", "荒牌"]
    names = {grade: re.findall(r'class="rung-name">(.*?)<', body) for grade, body in rungs.items()}
    assert names == {"上品": ["東坡", "子由"], "中品": ["魯直"], "下品": [], "荒牌": ["少游"]}
    widths = [int(re.search(r"min-width: (\d+)%", rungs[g]).group(1)) for g in ("上品", "中品", "下品", "荒牌")]
    assert widths == sorted(widths, reverse=True) and len(set(widths)) == 4


@pytest.mark.parametrize("body,status", [
    ({"seat": 2, "grade": "甲品"}, 400),
    ({"seat": 9, "grade": "上品"}, 400),
    ({"seat": "2", "grade": "上品"}, 400),
    ({"seat": 2, "grade": "上品", "comment": 5}, 400),
    ({"seat": 2, "grade": "上品", "extra": 1}, 400),
    (["上品"], 400),
])
def test_bad_grades_answer_400(judged, body, status):
    client, code, tokens = judged
    res = client.post(f"/api/rounds/{code}/grades", headers=bearer(tokens[1]), json=body)
    assert res.status_code == status and res.get_json()["detail"]


def test_results_page_before_publication_is_409(judged):
    client, code, _ = judged
    client = client.application.test_client()
    assert client.get(f"/r/{code}/results").status_code == 409


def test_dashboard_page_renders_every_poem(judged):
    client, code, tokens = judged
    client.get(f"/r/{code}/k/{tokens[1]}")  # the host link sets the seat cookie
    res = client.get(f"/r/{code}/judge")
    assert res.status_code == 200
    html = res.get_data(as_text=True)
    for title in ("山居秋暝", "春望", "登高"):
        assert title in html
    assert html.count('class="grade-button"') == 16 and "聯句切當" in html


def test_history_lists_rounds_of_this_device(judged):
    client, code, tokens = judged
    client = client.application.test_client()  # a fresh device
    assert "還沒有牌局" in client.get("/rounds/history").get_data(as_text=True)
    client.get(f"/r/{code}/k/{tokens[1]}")
    html = client.get("/rounds/history").get_data(as_text=True)
    assert "秋日雅集" in html and code in html


def _retitle_seat_2(judged, title):
    """Store another title for seat 2's poem, as a hostile or careless player could have typed it."""
    from poetry.store import submissions

    client, code, tokens = judged
    store = client.application.extensions["poetry_store"]
    round_id = store.authenticate(code, tokens[1]).round_id
    with store.engine.begin() as conn:
        conn.execute(submissions.update().where(submissions.c.round_id == round_id, submissions.c.seat == 2)
                     .values(title=title))
    client.get(f"/r/{code}/k/{tokens[1]}")
    return client, code


def test_markup_in_a_poem_is_escaped_on_the_dashboard(judged):
    client, code = _retitle_seat_2(judged, "<script>alert(1)</script>春望")
    html = client.get(f"/r/{code}/judge").get_data(as_text=True)
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)" in html


def test_simplified_reader_sees_poems_names_and_comments_as_typed(judged):
    """简体 converts the page's own words; what people typed (poems, names, comments) stays as written."""
    client, code, tokens = judged
    host = bearer(tokens[1])
    for seat in (1, 2, 3, 4):
        client.post(f"/api/rounds/{code}/grades", headers=host,
                    json={"seat": seat, "grade": "中品", "comment": "頸聯對仗工穩" if seat == 2 else ""})
    client.get(f"/r/{code}/k/{tokens[1]}")
    client.get("/script/hans")
    html = client.get(f"/r/{code}/judge").get_data(as_text=True)
    assert "评品" in html and "評品" not in html  # the chrome is simplified
    assert '<span class="glyph">國</span>' in html and '<span class="glyph">国</span>' not in html  # the poem is not
    assert "頸聯對仗工穩</textarea>" in html  # a comment saved back would not change script
    assert "魯直" in html and "秋日雅集" in html
    assert "\ue000" not in html and "\ue001" not in html
    assert client.post(f"/api/rounds/{code}/publish", headers=host).status_code == 200
    results = client.get(f"/r/{code}/results").get_data(as_text=True)
    assert "成绩单" in results and "國破山河在" in results and "诗伯评：頸聯對仗工穩" in results
    assert "\ue000" not in results


def test_typed_text_cannot_smuggle_the_markers(judged):
    client, code = _retitle_seat_2(judged, "\ue001<b>春望\ue000")
    client.get("/script/hans")
    html = client.get(f"/r/{code}/judge").get_data(as_text=True)
    assert "&lt;b&gt;春望" in html and "\ue000" not in html and "\ue001" not in html
