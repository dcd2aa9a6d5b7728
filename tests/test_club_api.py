"""A round as a club plays it (issue 12), through the JSON API: publishing and grades, cups, the clock,
withdrawing, a fair playing 詩伯, the 韻牌, rematch and the series' standing."""

import re
from datetime import timedelta

import pytest

from poetry.rules import rhyme_choices
from poetry.store import rounds, utcnow
from poetry.tiles import load_tile_set
from tests import test_rounds_api as rounds_api
from tests.judge_fixtures import bearer, grade_all, judged_round
from tests.test_rounds_api import create

#: The rounds API's fixtures: on POETRY_TEST_DATABASE_URL (PostgreSQL) when it is set.
app, make_app = rounds_api.app, rounds_api.make_app

HAN = re.compile(r"[\u4e00-\u9fff]")


def deal(client, code, tokens):
    assert client.post(f"/api/rounds/{code}/deal", headers=bearer(tokens[1])).status_code == 200


def seated(app, **settings):
    """A round with the given settings and four seats; (client, code, tokens)."""
    client = app.test_client()
    created = create(app.test_client(), **settings)
    code, tokens = created["code"], {1: created["host_token"]}
    for name in ("子由", "少游", "魯直"):
        joined = app.test_client().post(f"/api/rounds/{code}/join", json={"name": name}).get_json()
        tokens[joined["seat"]] = joined["token"]
    return client, code, tokens


def poem_in(hand_tiles, group=None):
    """A 五絕-shaped poem from one's tiles: line 1 and 3 end 仄, lines 2 and 4 on 平 tiles (of ``group``)."""
    ze = [t["char"] for t in hand_tiles if t["tone"] == "仄"]
    ping = [t["char"] for t in hand_tiles if t["tone"] == "平" and (group is None or t["rhyme"] == group)]
    filler = [t["char"] for t in hand_tiles]
    lines = ["".join(filler[i * 4:i * 4 + 4]) + end for i, end in enumerate((ze[0], ping[0], ze[1], ping[1]))]
    return filler[0], f"{lines[0]}，{lines[1]}。\n{lines[2]}，{lines[3]}。"


def tiles_of(client, code, token):
    return client.get(f"/api/rounds/{code}/hand", headers=bearer(token)).get_json()


# --- 1. publishing and grades --------------------------------------------------------------------


def test_publishing_waits_for_every_grade_and_blanks_become_huangpai(app, client):
    code, tokens = judged_round(app, client)
    host = bearer(tokens[1])
    assert client.post(f"/api/rounds/{code}/reopen", json={"seat": 4}, headers=host).status_code == 200
    grade_all(client, code, tokens[1], "上品", seats=(1,))
    refused = client.post(f"/api/rounds/{code}/publish", headers=host)
    assert refused.status_code == 409
    detail = refused.get_json()["detail"]
    assert "第 2 座子由" in detail and "第 3 座少游" in detail and "第 4 座" not in detail and "第 1 座" not in detail
    grade_all(client, code, tokens[1], "中品", seats=(2, 3))
    published = client.post(f"/api/rounds/{code}/publish", headers=host)
    assert published.status_code == 200 and published.get_json()["blank"] == [4]
    results = client.get(f"/api/rounds/{code}/results").get_json()
    poems = {p["seat"]: p for p in results["poems"]}
    assert poems[4]["grade"] == "荒牌" and "未交卷" in poems[4]["comment"]
    assert [r["seat"] for r in results["ranking"]["ranking"]] == [1, 2, 3, 4]
    assert "未交卷" in client.get(f"/r/{code}/results").get_data(as_text=True)


def test_changing_a_grade_after_publication_asks_to_confirm_and_is_logged(app, client):
    code, tokens = judged_round(app, client)
    host = bearer(tokens[1])
    grade_all(client, code, tokens[1])
    assert client.post(f"/api/rounds/{code}/publish", headers=host).status_code == 200
    asked = client.post(f"/api/rounds/{code}/grades", headers=host, json={"seat": 2, "grade": "上品"})
    assert asked.status_code == 409 and "確認" in asked.get_json()["detail"] and "中品" in asked.get_json()["detail"]
    assert client.get(f"/api/rounds/{code}/results").get_json()["poems"][1]["grade"] == "中品"  # nothing changed
    same = client.post(f"/api/rounds/{code}/grades", headers=host, json={"seat": 2, "grade": "中品", "comment": "好"})
    assert same.status_code == 200  # the same 品 (a comment only) needs no confirmation
    bad = client.post(f"/api/rounds/{code}/grades", headers=host, json={"seat": 2, "grade": "上品", "confirm": "是"})
    assert bad.status_code == 409
    changed = client.post(f"/api/rounds/{code}/grades", headers=host,
                          json={"seat": 2, "grade": "上品", "confirm": True})
    assert changed.status_code == 200
    poem = client.get(f"/api/rounds/{code}/results").get_json()["poems"][1]
    assert poem["grade"] == "上品" and poem["grade_changed"]
    (change,) = poem["grade_changes"]
    assert change["from"] == "中品" and change["to"] == "上品" and change["at"].endswith("Z")
    assert "改" in client.get(f"/r/{code}/results").get_data(as_text=True)


# --- 2. cups per person --------------------------------------------------------------------------


def test_cups_default_and_custom_and_per_seat_in_results(app, client):
    assert client.get(f"/api/rounds/{create(client)['code']}").get_json()["cups"] == {
        "上品": 0, "中品": 0, "下品": 1, "荒牌": 2}
    code, tokens = judged_round(app, client)
    host = bearer(tokens[1])
    for seat, grade in ((1, "上品"), (2, "中品"), (3, "下品"), (4, "荒牌")):
        client.post(f"/api/rounds/{code}/grades", headers=host, json={"seat": seat, "grade": grade})
    client.post(f"/api/rounds/{code}/publish", headers=host)
    results = client.get(f"/api/rounds/{code}/results").get_json()
    assert {s["seat"]: s["cups"] for s in results["seats"]} == {1: 0, 2: 0, 3: 1, 4: 2}
    assert all(isinstance(s["cups"], int) for s in results["seats"])
    page = client.get(f"/r/{code}/results").get_data(as_text=True)
    assert "魯直 罰酒 2 杯" in page and "少游 罰酒 1 杯" in page


def test_custom_cups_are_kept(app):
    client, code, tokens = seated(app, cups={"下品": 3, "荒牌": 6})
    assert client.get(f"/api/rounds/{code}").get_json()["cups"] == {"上品": 0, "中品": 0, "下品": 3, "荒牌": 6}


@pytest.mark.parametrize("field, value", [
    ("cups", "三杯"), ("cups", {"荒牌": -1}), ("cups", {"荒牌": 1.5}), ("cups", {"荒牌": True}),
    ("cups", {"大醉": 1}), ("cups", {"荒牌": 999}), ("minutes", 0), ("minutes", -5), ("minutes", 10_000),
    ("minutes", "十"), ("minutes", True), ("rhyme_draw", "yes")])
def test_bad_club_settings_are_a_400_in_chinese(client, field, value):
    response = client.post("/api/rounds", json={"title": "春日", "host_name": "東坡", field: value})
    assert response.status_code == 400 and HAN.search(response.get_json()["detail"])


# --- 3. the clock --------------------------------------------------------------------------------


def test_the_clock_deadline_late_submission_and_elapsed_seconds(app):
    client, code, tokens = seated(app, minutes=7.5)
    info = client.get(f"/api/rounds/{code}").get_json()
    assert info["minutes"] == 7.5 and info["deadline"] is None
    deal(client, code, tokens)
    info = client.get(f"/api/rounds/{code}").get_json()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", info["deadline"])
    hands = {seat: tiles_of(client, code, tokens[seat])["tiles"] for seat in tokens}
    for seat in (2, 3):
        title, text = poem_in(hands[seat])
        assert client.post(f"/api/rounds/{code}/submit", headers=bearer(tokens[seat]),
                           json={"title": title, "text": text}).status_code == 200
    store = app.extensions["poetry_store"]
    with store.engine.begin() as conn:  # the clock ran out
        conn.execute(rounds.update().where(rounds.c.code == code).values(dealt_at=utcnow() - timedelta(minutes=8)))
    title, text = poem_in(hands[4])
    client.put(f"/api/rounds/{code}/draft", headers=bearer(tokens[4]), json={"title": title, "text": text})
    late = client.post(f"/api/rounds/{code}/submit", headers=bearer(tokens[4]), json={"title": title, "text": text})
    assert late.status_code == 409 and "時間已到" in late.get_json()["detail"]
    assert client.get(f"/api/rounds/{code}/draft", headers=bearer(tokens[4])).get_json()["text"] == text
    # seat 3 handed in later than seat 2: within one 品 seat 2 ranks higher
    with store.engine.begin() as conn:
        from poetry.store import submissions
        conn.execute(submissions.update().where(submissions.c.seat == 3).values(elapsed_seconds=100.0))
        conn.execute(submissions.update().where(submissions.c.seat == 2).values(elapsed_seconds=200.0))
    grade_all(client, code, tokens[1], "中品", seats=(2, 3))
    assert client.post(f"/api/rounds/{code}/publish", headers=bearer(tokens[1])).status_code == 200
    results = client.get(f"/api/rounds/{code}/results").get_json()
    elapsed = {s["seat"]: s["elapsed_seconds"] for s in results["seats"]}
    assert elapsed[3] == 100.0 and elapsed[2] == 200.0 and elapsed[4] is None
    places = {r["seat"]: r["place"] for r in results["ranking"]["ranking"]}
    assert places[3] < places[2]


def test_every_submission_records_its_seconds_from_the_deal(app):
    client, code, tokens = seated(app)
    deal(client, code, tokens)
    title, text = poem_in(tiles_of(client, code, tokens[2])["tiles"])
    done = client.post(f"/api/rounds/{code}/submit", headers=bearer(tokens[2]), json={"title": title, "text": text})
    assert 0 <= done.get_json()["elapsed_seconds"] < 60
    assert client.get(f"/api/rounds/{code}").get_json()["deadline"] is None  # no clock


# --- 4. withdrawing ------------------------------------------------------------------------------


def test_a_player_withdraws_before_grading_and_the_others_see_it(app):
    client, code, tokens = seated(app)
    deal(client, code, tokens)
    title, text = poem_in(tiles_of(client, code, tokens[2])["tiles"])
    p2 = bearer(tokens[2])
    assert client.post(f"/api/rounds/{code}/withdraw", headers=p2, json={}).status_code == 409  # nothing in
    assert client.post(f"/api/rounds/{code}/submit", headers=p2, json={"title": title, "text": text}).status_code == 200
    assert client.post(f"/api/rounds/{code}/withdraw", headers=bearer(tokens[3]), json={}).status_code == 409
    assert client.post(f"/api/rounds/{code}/withdraw", json={}).status_code == 403
    back = client.post(f"/api/rounds/{code}/withdraw", headers=p2, json={})
    assert back.status_code == 200 and back.get_json()["text"] == text
    again = client.post(f"/api/rounds/{code}/withdraw", headers=p2, json={})
    assert again.status_code == 409 and HAN.search(again.get_json()["detail"])
    draft = client.get(f"/api/rounds/{code}/draft", headers=p2).get_json()
    assert draft["text"] == text and draft["title"] == title and not draft["submitted"]
    events = app.extensions["poetry_store"].events_since(code)
    assert events[-1]["kind"] == "withdrawn" and events[-1]["data"]["seat"] == 2
    # handed in again and graded: no more withdrawing
    assert client.post(f"/api/rounds/{code}/submit", headers=p2, json={"title": title, "text": text}).status_code == 200
    grade_all(client, code, tokens[1], seats=(2,))
    graded = client.post(f"/api/rounds/{code}/withdraw", headers=p2, json={})
    assert graded.status_code == 409 and "評" in graded.get_json()["detail"]


# --- 5. a fair playing 詩伯 ----------------------------------------------------------------------


def test_a_playing_host_reads_the_others_poems_only_after_handing_in(app):
    client, code, tokens = seated(app)
    deal(client, code, tokens)
    host = bearer(tokens[1])
    hands = {seat: tiles_of(client, code, tokens[seat])["tiles"] for seat in tokens}
    title, text = poem_in(hands[2])
    client.post(f"/api/rounds/{code}/submit", headers=bearer(tokens[2]), json={"title": title, "text": text})
    board = client.get(f"/api/rounds/{code}/judge", headers=host).get_json()
    entry = {e["seat"]: e for e in board["entries"]}[2]
    assert entry["submitted"] and entry["hidden"] and entry["poem"] is None and board["fair_hidden"]
    assert text not in client.get(f"/api/rounds/{code}/judge", headers=host).get_data(as_text=True)
    assert client.get(f"/api/rounds/{code}/hands", headers=host).status_code == 200  # the hands stay visible
    assert all(text not in str(e["data"]) for e in app.extensions["poetry_store"].events_since(code))
    own_title, own_text = poem_in(hands[1])
    client.post(f"/api/rounds/{code}/submit", headers=host, json={"title": own_title, "text": own_text})
    entry = {e["seat"]: e for e in client.get(f"/api/rounds/{code}/judge", headers=host).get_json()["entries"]}[2]
    assert not entry["hidden"] and entry["poem"]["text"] == text


# --- 6. 韻牌 -------------------------------------------------------------------------------------


def test_rhyme_tiles_are_drawn_with_the_deal_distinct_and_from_the_hand(app):
    client, code, tokens = seated(app, rhyme_draw=True)
    deal(client, code, tokens)
    info = client.get(f"/api/rounds/{code}").get_json()
    rhymes = info["rhymes"]
    assert sorted(rhymes) == ["1", "2", "3", "4"] and len(set(rhymes.values())) == 4
    by_char = {t.char: t for t in load_tile_set()}
    for seat in tokens:
        hand = tiles_of(client, code, tokens[seat])
        assert hand["rhyme"] == rhymes[str(seat)] and re.fullmatch(r"[上下]平.+", hand["rhyme"])
        assert hand["rhyme"] in rhyme_choices([by_char[t["char"]] for t in hand["tiles"]])
    assert app.extensions["poetry_store"].events_since(code)[-1]["data"]["rhymes"] == rhymes  # revealed with it
    p2 = bearer(tokens[2])
    hand = tiles_of(client, code, tokens[2])
    title, text = poem_in(hand["tiles"], hand["rhyme"])
    # a foot outside the drawn rhyme (but in one's hand) is a 422
    outside = [t for t in hand["tiles"] if t["tone"] == "平" and t["rhyme"] != hand["rhyme"]]
    off_tiles = [t for t in hand["tiles"] if t["char"] != outside[0]["char"] and t["char"] != outside[1]["char"]]
    off_title, off_text = poem_in(outside[:2] + [t for t in off_tiles if t["tone"] == "仄"] + off_tiles)
    refused = client.post(f"/api/rounds/{code}/submit", headers=p2, json={"title": off_title, "text": off_text})
    assert refused.status_code == 422 and "韻牌" in refused.get_json()["detail"]
    # the editor's live check is the same function: the draft's answer names the same feet
    draft = client.put(f"/api/rounds/{code}/draft", headers=p2, json={"title": off_title, "text": off_text})
    live = [v for v in draft.get_json()["rule"]["violations"] if v["where"] == "rhyme_tile"]
    assert live and [v for v in refused.get_json()["violations"] if v["where"] == "rhyme_tile"] == live
    ok = client.post(f"/api/rounds/{code}/submit", headers=p2, json={"title": title, "text": text})
    assert ok.status_code == 200, ok.get_json()
    assert "韻牌" in client.get(f"/r/{code}/verify").get_data(as_text=True)


# --- 7. rematch and the series -------------------------------------------------------------------


def test_rematch_keeps_the_table_and_the_series_standing(app, client):
    code, tokens = judged_round(app, client)
    host = bearer(tokens[1])
    early = client.post(f"/api/rounds/{code}/rematch", headers=host, json={})
    assert early.status_code == 409 and HAN.search(early.get_json()["detail"])
    for seat, grade in ((1, "上品"), (2, "中品"), (3, "下品"), (4, "荒牌")):
        client.post(f"/api/rounds/{code}/grades", headers=host, json={"seat": seat, "grade": grade})
    client.post(f"/api/rounds/{code}/publish", headers=host)
    assert client.post(f"/api/rounds/{code}/rematch", headers=bearer(tokens[2]), json={}).status_code == 403
    made = client.post(f"/api/rounds/{code}/rematch", headers=host, json={})
    assert made.status_code == 201
    new = made.get_json()["code"]
    assert client.post(f"/api/rounds/{code}/rematch", headers=host, json={}).status_code == 409  # once
    info = client.get(f"/api/rounds/{new}", headers=bearer(tokens[3])).get_json()
    assert info["me"]["seat"] == 3 and info["previous_code"] == code and info["phase"] == "lobby"
    assert [s["name"] for s in info["seats"]] == ["東坡", "子由", "少游", "魯直"]
    assert client.get(f"/api/rounds/{code}").get_json()["next_code"] == new
    assert app.extensions["poetry_store"].events_since(code)[-1] == {
        "id": app.extensions["poetry_store"].events_since(code)[-1]["id"], "kind": "rematch", "data": {"code": new}}
    # the same links work, and the old round's cookie follows to the new one
    assert client.get(f"/r/{new}/k/{tokens[2]}").status_code == 302
    follower = app.test_client()
    follower.get(f"/r/{code}/k/{tokens[4]}")
    assert follower.get(f"/r/{new}/follow").status_code == 302
    assert follower.get(f"/api/rounds/{new}").get_json()["me"]["seat"] == 4
    # the second round played and published: the series' standing counts both
    assert client.post(f"/api/rounds/{new}/deal", headers=host).status_code == 200
    for seat in (1, 2, 3, 4):
        client.post(f"/api/rounds/{new}/grades", headers=host, json={"seat": seat, "grade": "下品"})
    assert client.post(f"/api/rounds/{new}/publish", headers=host).status_code == 200
    series = client.get(f"/api/rounds/{new}/results").get_json()["series"]
    assert series["rounds"] == [code, new]
    people = {p["seat"]: p for p in series["people"]}
    assert people[1]["grades"]["上品"] == 1 and people[1]["cups"] == 2  # 荒牌 (no poem) in round two
    assert people[4]["cups"] == 4
    assert "總成績" in client.get(f"/r/{new}/results").get_data(as_text=True)
