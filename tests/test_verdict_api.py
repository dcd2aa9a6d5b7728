"""One verdict for a poem inside a round (issue 9): the editor (POST /api/check), the draft, the submission
and the 詩伯's dashboard agree on which tiles a poem uses, its form and its faults."""

import pytest

from poetry.text import to_simplified
from tests.test_rounds_api import app, bearer, create, hand_of, make_app  # noqa: F401

#: 「白日依山盡」 with two faults: 見 (仄 for 平 at 3:2) and 頂 (仄 for 平 at 4:4).
FLAWED = "白日依山盡，黃河入海流。欲見千里目，更上一頂樓。"


def dealt_round(app, lacking: str = "", **settings):  # noqa: F811
    """A dealt round of a playing 詩伯 and three players; (client, code, host, a player): the first, or the first
    whose hand lacks one of the characters ``lacking`` (the deal is random; a tile is in one hand only, so of three
    players one at least lacks both feet of a couplet)."""
    client = app.test_client()
    created = create(client, **settings)
    code = created["code"]
    joined = [app.test_client().post(f"/api/rounds/{code}/join", json={"name": name}).get_json()
              for name in ("山谷", "少游", "放翁")]
    host = bearer(created["host_token"])
    assert client.post(f"/api/rounds/{code}/deal", headers=host).status_code == 200
    tokens = [j["token"] for j in joined]
    if lacking:
        tokens = [t for t in tokens if not set(lacking) <= set(hand_of(client, code, t))]
    return client, code, host, bearer(tokens[0])


def own_quatrain(hand):
    """A 五言 quatrain-shaped text and a title of one's own tiles (the rule, not the art, is under test)."""
    chars = hand[:20]
    return "".join(hand[20:22]), "，".join("".join(chars[i:i + 5]) for i in range(0, 20, 5)) + "。"


@pytest.mark.parametrize("composition", ["rhyme_feet", "jizi"])
def test_a_simplified_player_submits_a_poem_of_their_own_tiles(app, composition):  # noqa: F811
    client, code, _, player = dealt_round(app, composition=composition)
    hand = hand_of(client, code, player["Authorization"].split()[1])
    title, text = own_quatrain(hand)
    title, text = to_simplified(title), to_simplified(text)
    check = client.post("/api/check", json={"text": text, "hand": "".join(hand), "title": title,
                                            "rule": "jizi" if composition == "jizi" else "rhyme"}).get_json()
    assert all(c["in_hand"] for line in check["lines"] for c in line["chars"])
    saved = client.put(f"/api/rounds/{code}/draft", headers=player, json={"title": title, "text": text}).get_json()
    assert saved["rule"]["violations"] == [] and saved["rule"]["tiles_used"] == check["tiles"]["used"]
    r = client.post(f"/api/rounds/{code}/submit", headers=player, json={"title": title, "text": text})
    assert r.status_code == 200, r.get_json()


def test_the_draft_keeps_its_form_and_the_rule_verdict_matches_the_refusal(app):  # noqa: F811
    client, code, _, player = dealt_round(app, lacking="流樓")  # a player who holds both feet may submit it
    url = f"/api/rounds/{code}"
    bad = client.put(url + "/draft", headers=player, json={"title": "", "text": FLAWED, "form": "七古"})
    assert bad.status_code == 400 and "七言絕句" in bad.get_json()["detail"]
    saved = client.put(url + "/draft", headers=player, json={"title": "登樓", "text": FLAWED, "form": "五言絕句"})
    assert saved.get_json()["form"] == "五言絕句"
    assert client.get(url + "/draft", headers=player).get_json()["form"] == "五言絕句"
    verdict = saved.get_json()["rule"]["violations"]
    refused = client.post(url + "/submit", headers=player, json={"title": "登樓", "text": FLAWED, "form": "五言絕句"})
    assert refused.status_code == 422
    messages = [v["message"] for v in refused.get_json()["violations"]]
    assert messages == [v["message"] for v in verdict] and len(messages) == len(set(messages))
    # nothing typed is lost on refusal
    assert client.get(url + "/draft", headers=player).get_json()["text"] == FLAWED


def test_the_dashboard_shows_the_editors_verdict_and_count(app):  # noqa: F811
    client, code, host, player = dealt_round(app, composition="jizi", wildcards=10)
    hand = hand_of(client, code, player["Authorization"].split()[1])
    title, text = own_quatrain(hand)
    declared = "七言絕句"  # a 五言 text declared 七言: every line is a fault of form
    r = client.post(f"/api/rounds/{code}/submit", headers=player, json={"title": title, "text": text, "form": declared})
    assert r.status_code == 200, r.get_json()
    editor = client.post("/api/check", json={"text": text, "hand": "".join(hand), "form": declared, "title": title,
                                             "rule": "jizi", "wildcards": 10}).get_json()
    # a playing 詩伯 reads the others' poems once his own is in (issue 12)
    host_title, host_text = own_quatrain(hand_of(client, code, host["Authorization"].split()[1]))
    assert client.post(f"/api/rounds/{code}/submit", headers=host,
                       json={"title": host_title, "text": host_text, "form": declared}).status_code == 200
    board = client.get(f"/api/rounds/{code}/judge", headers=host).get_json()
    poem = next(e["poem"] for e in board["entries"] if e["seat"] == 2)
    assert poem["form"] == declared
    keys = ("line", "pos", "kind", "severity", "message")
    assert poem["violations"] == [{k: v[k] for k in keys} for v in editor["violations"]]
    assert any(v["kind"] == "form" and v["severity"] == "error" for v in poem["violations"])
    assert poem["tiles_count"] == editor["tiles"]["used"]
    criteria = poem["suggestion"]["criteria"]
    assert criteria["體不失"]["score"] < 0.9 and "格律無失" not in client.get(
        f"/r/{code}/judge", headers=host).get_data(as_text=True)
    for seat in (1, 2):  # publishing waits for every poem handed in to be graded (issue 12)
        assert client.post(f"/api/rounds/{code}/grades", headers=host,
                           json={"seat": seat, "grade": "下品"}).status_code == 200
    assert client.post(f"/api/rounds/{code}/publish", headers=host).status_code == 200
    results = client.get(f"/api/rounds/{code}/results").get_json()
    assert next(p for p in results["poems"] if p["seat"] == 2)["tiles_count"] == editor["tiles"]["used"]
    assert f"用牌 {editor['tiles']['used']}" in client.get(f"/r/{code}/results").get_data(as_text=True)
