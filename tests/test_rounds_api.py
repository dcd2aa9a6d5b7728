"""A whole round through the JSON API: a 詩伯 and three players, every forbidden action, hostile input."""

import os
import re

import pytest

from app import create_app
from poetry import tiles
from poetry.store import rate_limits
from poetry.text import split_lines

#: Run these tests on another database (e.g. PostgreSQL) with POETRY_TEST_DATABASE_URL=postgresql+psycopg://…
OTHER_DATABASE = os.environ.get("POETRY_TEST_DATABASE_URL")


def database_url(tmp_path, name):
    return OTHER_DATABASE or f"sqlite:///{tmp_path / name}"


@pytest.fixture
def make_app():
    """create_app(config); the apps' database connections are closed after the test."""
    apps = []

    def make(config):
        apps.append(create_app({"TESTING": True, "SECRET_KEY": "test", **config}))
        with apps[-1].extensions["poetry_store"].engine.begin() as conn:  # a shared PostgreSQL database:
            conn.execute(rate_limits.delete())  # each test starts with fresh rate-limit windows
        return apps[-1]

    yield make
    for made in apps:
        made.extensions["poetry_store"].engine.dispose()


@pytest.fixture
def app(tmp_path, make_app):
    """As conftest's app, on POETRY_TEST_DATABASE_URL when it is set; joining limited only loosely."""
    return make_app({"JOIN_LIMIT": 10_000, "DATABASE_URL": database_url(tmp_path, "test.sqlite3")})


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def create(client, **overrides):
    body = {"title": "春日山行", "host_name": "東坡", "penalty": "罰酒三杯", **overrides}
    response = client.post("/api/rounds", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


@pytest.fixture
def table(app):
    """A round with the 詩伯 (seat 1) and three players seated; tokens by seat."""
    created = create(app.test_client())
    client = app.test_client()  # no cookie: every call below says who it is with a Bearer token
    code = created["code"]
    tokens = {1: created["host_token"]}
    for name in ("子由", "少游", "魯直"):
        joined = app.test_client().post(f"/api/rounds/{code}/join", json={"name": name})
        assert joined.status_code == 201
        tokens[joined.get_json()["seat"]] = joined.get_json()["token"]
    return client, code, tokens


def hand_of(client, code, token):
    response = client.get(f"/api/rounds/{code}/hand", headers=bearer(token))
    assert response.status_code == 200
    return [t["char"] for t in response.get_json()["tiles"]]


def quatrain_from(hand):
    """A 五絕-shaped text built from one's own tiles (the rule, not the art, is under test)."""
    chars = hand[:20]
    lines = ["".join(chars[i:i + 5]) for i in range(0, 20, 5)]
    return "".join(hand[20:22]), f"{lines[0]}，{lines[1]}。\n{lines[2]}，{lines[3]}。"


def test_a_whole_round_and_every_forbidden_action(table):
    client, code, tokens = table
    url = f"/api/rounds/{code}"
    host, p2, p3, p4 = (bearer(tokens[s]) for s in (1, 2, 3, 4))

    info = client.get(url).get_json()
    assert info["phase"] == "lobby" and [s["seat"] for s in info["seats"]] == [1, 2, 3, 4]
    assert info["seats"][0]["is_host"] and info["me"] is None
    assert client.get(url, headers=p3).get_json()["me"]["seat"] == 3

    # the table is full; nobody but the 詩伯 deals; nothing to read before the deal
    assert client.post(url + "/join", json={"name": "不速之客"}).status_code == 409
    assert client.post(url + "/deal", headers=p2).status_code == 403
    assert client.post(url + "/deal").status_code == 403
    assert client.get(url + "/hand", headers=p2).status_code == 409
    assert client.put(url + "/draft", headers=p2, json={"title": "", "text": "早"}).status_code == 409
    assert client.get(url + "/results").status_code == 409
    assert client.post(url + "/publish", headers=host).status_code == 409

    dealt = client.post(url + "/deal", headers=host)
    assert dealt.status_code == 200
    deal = dealt.get_json()
    assert re.fullmatch(r"[0-9a-f]{64}", deal["commitment"])
    assert deal["first_seat"] == tiles.first_seat(deal["count_tile"]["strokes"], host_seat=1)
    assert client.post(url + "/deal", headers=host).status_code == 409

    hands = {seat: hand_of(client, code, tokens[seat]) for seat in tokens}
    assert all(len(h) == 150 for h in hands.values())
    assert len(set().union(*map(set, hands.values()))) == 600
    assert client.get(url + "/hands", headers=p2).status_code == 403
    assert client.get(url + "/hands").status_code == 403
    record = client.get(url + "/hands", headers=host).get_json()["hands"]
    assert {h["seat"]: [t["char"] for t in h["tiles"]] for h in record} == hands

    # drafts: private, saved as one types
    title, text = quatrain_from(hands[2])
    saved = client.put(url + "/draft", headers=p2, json={"title": title, "text": text})
    assert saved.status_code == 200 and saved.get_json()["revision"] == 1
    assert client.get(url + "/draft", headers=p2).get_json()["text"] == text
    assert client.get(url + "/draft", headers=p3).get_json()["text"] == ""
    assert client.get(url + "/draft").status_code == 403

    # the composition rule: a rhyme foot from someone else's hand is refused with the reason
    foreign = hands[3][0]
    lines = split_lines(text)
    bad = f"{lines[0]}，{lines[1][:-1]}{foreign}。{lines[2]}，{lines[3]}。"
    refused = client.post(url + "/submit", headers=p2, json={"title": title, "text": bad})
    assert refused.status_code == 422
    assert f"「{foreign}」" in refused.get_json()["detail"]
    assert refused.get_json()["violations"][0]["line"] == 2

    submitted = client.post(url + "/submit", headers=p2, json={"title": title, "text": text})
    assert submitted.status_code == 200 and submitted.get_json()["submitted"]
    assert client.post(url + "/submit", headers=p2, json={"title": title, "text": text}).status_code == 409
    assert client.put(url + "/draft", headers=p2, json={"title": title, "text": "改"}).status_code == 409
    assert [s["submitted"] for s in client.get(url).get_json()["seats"]] == [False, True, False, False]

    # only the 詩伯 reopens, and only what was submitted
    assert client.post(url + "/reopen", headers=p3, json={"seat": 2}).status_code == 403
    assert client.post(url + "/reopen", headers=host, json={"seat": 3}).status_code == 409
    assert client.post(url + "/reopen", headers=host, json={"seat": 9}).status_code == 404
    assert client.post(url + "/reopen", headers=host, json={"seat": "2"}).status_code == 400
    assert client.post(url + "/reopen", headers=host, json={"seat": 2}).status_code == 200
    assert client.put(url + "/draft", headers=p2, json={"title": title, "text": text + "\n"}).status_code == 200
    assert client.post(url + "/submit", headers=p2, json={"title": title, "text": text}).status_code == 200

    for seat, headers in ((1, host), (3, p3), (4, p4)):
        title, text = quatrain_from(hands[seat])
        assert client.post(url + "/submit", headers=headers, json={"title": title, "text": text}).status_code == 200

    assert client.post(url + "/publish", headers=p4).status_code == 403
    refused = client.post(url + "/publish", headers=host)  # issue 12: not while a poem handed in has no 品
    assert refused.status_code == 409 and "第 1 座" in refused.get_json()["detail"]
    for seat in (1, 2, 3, 4):
        assert client.post(url + "/grades", headers=host, json={"seat": seat, "grade": "中品"}).status_code == 200
    assert client.post(url + "/publish", headers=host).status_code == 200
    assert client.post(url + "/publish", headers=host).status_code == 409
    assert client.post(url + "/reopen", headers=host, json={"seat": 2}).status_code == 409
    assert client.post(url + "/submit", headers=p3, json={"title": "x", "text": "y"}).status_code in (400, 409)

    results = client.get(url + "/results").get_json()
    assert [p["seat"] for p in results["poems"]] == [1, 2, 3, 4]
    assert all(p["submitted"] and p["text"] for p in results["poems"])
    # every poem 中品: the ranking is complete and nobody drinks
    assert results["ranking"]["complete"] is True and not results["ranking"]["losers"]
    assert results["penalty"]
    reveal = results["reveal"]
    assert len(reveal["order"]) == 600
    assert tiles.verify_deal(reveal["salt"], reveal["order"], deal["commitment"])
    replayed = tiles.replay_deal(reveal["salt"], reveal["order"], host_seat=1)
    assert replayed.first_seat == deal["first_seat"] and replayed.count_tile.char == deal["count_tile"]["char"]
    assert {h["seat"]: [t["char"] for t in h["tiles"]] for h in results["hands"]} == {
        seat: list(chars) for seat, chars in replayed.hands.items()}


def test_unknown_round_is_404_everywhere(client):
    for method, path in [("get", ""), ("post", "/join"), ("post", "/deal"), ("get", "/hand"), ("get", "/results"),
                         ("get", "/events")]:
        response = getattr(client, method)(f"/api/rounds/NOSUCH{path}", json={"name": "甲"})
        assert response.status_code == 404, path
        assert "找不到" in response.get_json()["detail"]
    assert client.get("/r/NOSUCH").status_code == 404
    assert client.get("/api/rounds/%3Cscript%3E").status_code == 404


def test_cookie_writes_need_the_csrf_header(client):
    created = create(client)  # the response sets the 詩伯's cookie on this client
    code = created["code"]
    for name in ("甲", "乙", "丙"):
        client.application.test_client().post(f"/api/rounds/{code}/join", json={"name": name})
    me = client.get(f"/api/rounds/{code}").get_json()["me"]
    assert me["is_host"]  # the cookie authenticates reads
    refused = client.post(f"/api/rounds/{code}/deal")
    assert refused.status_code == 403 and "CSRF" in refused.get_json()["detail"]
    page = client.get(f"/r/{code}").get_data(as_text=True)
    csrf = re.search(r'name="csrf-token" content="([0-9a-f]+)"', page).group(1)
    assert client.post(f"/api/rounds/{code}/deal", headers={"X-CSRF-Token": csrf}).status_code == 200


HOSTILE = {
    "html": "<img src=x onerror=alert(1)>",
    "script": "<script>alert('詩')</script>",
    "long": "長" * 10_000,
    "control": "春\x07日",
    "number": 12345,
    "list": ["春", "日"],
    "object": {"$gt": ""},
}


@pytest.mark.parametrize("field", ["title", "host_name", "penalty", "rhyme_book", "composition", "host_plays",
                                   "wildcards", "tile_set"])
@pytest.mark.parametrize("kind", list(HOSTILE))
def test_hostile_input_when_opening_a_round(client, field, kind):
    body = {"title": "春日", "host_name": "東坡", field: HOSTILE[kind]}
    response = client.post("/api/rounds", json=body)
    if kind in ("html", "script") and field in ("title", "host_name", "penalty"):
        # stored as typed and escaped wherever shown (below), unless longer than the field allows
        assert response.status_code == 201 or "太長" in response.get_json()["detail"]
        return
    assert 400 <= response.status_code < 500, response.get_json()
    assert response.get_json()["detail"]


@pytest.mark.parametrize("kind", list(HOSTILE))
def test_hostile_names_drafts_and_poems(table, kind):
    client, code, tokens = table
    url = f"/api/rounds/{code}"
    value = HOSTILE[kind]
    late = client.application.test_client().post(url + "/join", json={"name": value})
    assert 400 <= late.status_code < 500
    client.post(url + "/deal", headers=bearer(tokens[1]))
    for body in ({"title": value, "text": "春"}, {"title": "春", "text": value}):
        response = client.put(url + "/draft", headers=bearer(tokens[2]), json=body)
        if kind in ("html", "script"):  # markup is text like any other: kept as typed, escaped when shown
            assert response.status_code == 200
            draft = client.get(url + "/draft", headers=bearer(tokens[2])).get_json()
            assert (draft["title"], draft["text"]) == (body["title"], body["text"])
        else:
            assert 400 <= response.status_code < 500 and response.get_json()["detail"]
    for path, method, body in [("/submit", "post", {"title": value, "text": "春"}),
                               ("/submit", "post", {"title": "春", "text": value}),
                               ("/reopen", "post", {"seat": value})]:
        token = tokens[1] if path == "/reopen" else tokens[2]
        response = getattr(client, method)(url + path, headers=bearer(token), json=body)
        assert 400 <= response.status_code < 500, (path, body, response.get_json())
        assert response.get_json()["detail"]


@pytest.mark.parametrize("payload, content_type", [("not json", "application/json"), ("[1, 2]", "application/json"),
                                                   ("name=甲", "application/x-www-form-urlencoded"), ("", None)])
def test_bodies_that_are_not_json_objects(table, payload, content_type):
    client, code, tokens = table
    for path, token in (("/api/rounds", None), (f"/api/rounds/{code}/join", None),
                        (f"/api/rounds/{code}/reopen", tokens[1]), (f"/api/rounds/{code}/submit", tokens[2])):
        headers = bearer(token) if token else {}
        response = client.post(path, data=payload.encode(), content_type=content_type, headers=headers)
        assert response.status_code == 400, path
        assert "JSON" in response.get_json()["detail"]


def test_user_strings_are_escaped_in_pages(client):
    created = create(client, title="<script>alert(1)</script>", host_name="<b>主</b>",
                     penalty="<img src=x onerror=alert(2)>")
    page = client.get(f"/r/{created['code']}").get_data(as_text=True)
    assert "<script>alert(1)" not in page and "<img src=x" not in page and "<b>主</b>" not in page
    assert "&lt;script&gt;alert(1)" in page or "\\u003cscript\\u003e" in page


def test_drafts_survive_an_app_restart(tmp_path, make_app):
    config = {"DATABASE_URL": database_url(tmp_path, "restart.sqlite3"), "JOIN_LIMIT": 10_000}
    first = make_app(config).test_client()
    created = create(first)
    code, host = created["code"], created["host_token"]
    players = [first.application.test_client().post(f"/api/rounds/{code}/join", json={"name": n}).get_json()
               for n in ("甲", "乙", "丙")]
    first.post(f"/api/rounds/{code}/deal", headers=bearer(host))
    token = players[1]["token"]
    text = "獨坐幽篁裏\n彈琴復長嘯"
    assert first.put(f"/api/rounds/{code}/draft", headers=bearer(token),
                     json={"title": "竹里館", "text": text}).status_code == 200

    first.application.extensions["poetry_store"].engine.dispose()  # the first server is gone
    second = make_app(config).test_client()
    draft = second.get(f"/api/rounds/{code}/draft", headers=bearer(token)).get_json()
    assert (draft["title"], draft["text"]) == ("竹里館", text)
    assert second.get(f"/api/rounds/{code}").get_json()["phase"] == "dealt"


def test_joining_is_rate_limited(tmp_path, make_app):
    app = make_app({"JOIN_LIMIT": 2, "DATABASE_URL": f"sqlite:///{tmp_path / 'rate.sqlite3'}"})
    code = create(app.test_client())["code"]
    client = app.test_client()
    assert client.post("/api/rounds/GUESS1/join", json={"name": "甲"}).status_code == 404
    assert client.post(f"/api/rounds/{code}/join", json={"name": "甲"}).status_code == 201
    limited = app.test_client().post(f"/api/rounds/{code}/join", json={"name": "乙"})
    assert limited.status_code == 429 and "頻繁" in limited.get_json()["detail"]


def test_custom_tile_set_is_validated(client):
    standard = [t.char for t in tiles.load_tile_set()]
    assert client.post("/api/rounds", json={"title": "自訂", "host_name": "主",
                                            "tile_set": standard}).status_code == 201
    short = client.post("/api/rounds", json={"title": "自訂", "host_name": "主", "tile_set": standard[:599]})
    assert short.status_code == 422 and "600" in short.get_json()["detail"]
    csv_text = "char\n" + "\n".join(standard[:-1] + [standard[0]])
    dupe = client.post("/api/rounds", json={"title": "自訂", "host_name": "主", "tile_set": csv_text})
    assert dupe.status_code == 422 and "重複" in dupe.get_json()["detail"]


def test_a_judging_host_and_four_players(client):
    created = create(client, host_plays=False, composition="jizi", wildcards=2)
    code, host = created["code"], created["host_token"]
    assert created["seat"] == 0
    seats = [client.application.test_client().post(f"/api/rounds/{code}/join", json={"name": n}).get_json()
             for n in ("甲", "乙", "丙", "丁")]
    assert [s["seat"] for s in seats] == [1, 2, 3, 4]
    deal = client.post(f"/api/rounds/{code}/deal", headers=bearer(host)).get_json()
    assert deal["first_seat"] == tiles.first_seat(deal["count_tile"]["strokes"], host_seat=None)
    assert client.get(f"/api/rounds/{code}/hand", headers=bearer(host)).status_code == 403
    token = seats[0]["token"]
    hand = hand_of(client, code, token)
    # 集字: two characters from outside the hand are covered by the two blanks, a third is not
    outside = [c for c in "山江風月花雪雲水天人" if c not in hand]
    poem = "".join(hand[:5]) + "，" + "".join(hand[5:8]) + outside[0] + outside[1] + "。"
    title = hand[0]
    assert client.post(f"/api/rounds/{code}/submit", headers=bearer(token),
                       json={"title": title, "text": poem + hand[8] + outside[2]}).status_code == 422
    ok = client.post(f"/api/rounds/{code}/submit", headers=bearer(token), json={"title": title, "text": poem})
    assert ok.status_code == 200


def test_events_stream_public_changes(tmp_path, make_app):
    app = make_app({"EVENT_STREAM_SECONDS": 0, "JOIN_LIMIT": 10_000,
                    "DATABASE_URL": database_url(tmp_path, "events.sqlite3")})
    client = app.test_client()
    created = create(client)
    code = created["code"]
    assert client.application.test_client().post(f"/api/rounds/{code}/join", json={"name": "甲"}).status_code == 201
    response = client.get(f"/api/rounds/{code}/events")
    assert response.mimetype == "text/event-stream"
    body = response.get_data(as_text=True)
    assert body.count("event: seats") == 2 and '"name": "甲"' in body
    last = re.findall(r"^id: (\d+)$", body, re.M)[-1]
    again = client.get(f"/api/rounds/{code}/events", headers={"Last-Event-ID": last}).get_data(as_text=True)
    assert "event:" not in again
    assert client.get(f"/api/rounds/{code}/events?after=99999999999999999999").status_code == 200
    assert client.get(f"/api/rounds/{code}/events?after=abc").status_code == 400


def test_openapi_lists_every_api_route(client):
    spec = client.get("/api/openapi.json").get_json()
    assert spec["openapi"].startswith("3.")
    documented = {(path, method) for path, ops in spec["paths"].items() for method in ops}
    for rule in client.application.url_map.iter_rules():
        if not rule.rule.startswith("/api/") or not rule.endpoint.startswith("rounds."):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert (path, method.lower()) in documented, (path, method)


def test_pages_render(client):
    assert client.get("/r/new").status_code == 200
    created = create(client)
    code = created["code"]
    page = client.get(f"/r/{code}")
    assert page.status_code == 200 and "春日山行" in page.get_data(as_text=True)
    assert client.get(f"/r/{code.lower()}").status_code == 200
    other = client.application.test_client()
    link = other.get(f"/r/{code}/k/{created['host_token']}")
    assert link.status_code == 302 and link.headers["Referrer-Policy"] == "no-referrer"
    assert other.get(f"/api/rounds/{code}").get_json()["me"]["is_host"]
    assert other.get(f"/r/{code}/k/not-a-token").status_code == 404
    assert client.get(f"/r/{code}/verify").status_code == 200
    assert client.get(f"/r/join?code={code.lower()}").headers["Location"].endswith(f"/r/{code}")
