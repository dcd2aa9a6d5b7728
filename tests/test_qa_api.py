"""QA: hostile input on the rounds, check, themes and grade APIs never gives a 5xx, a stack trace or raw HTML.

Every refusal is a 4xx whose ``detail`` is Chinese; 简体 readers get it in 简体; nobody reads another
seat's hand or draft before publication.
"""

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

HAN = re.compile(r"[\u4e00-\u9fff]")
POEM = "床前明月光，疑是地上霜。舉頭望明月，低頭思故鄉。"
HOSTILE = ["<script>alert(1)</script>", "山" * 10000, "a\x00b", "\ud800", "\udfff山", "😀🎉", "\x01\x1f", "\u202e",
           "", "{{7*7}}", "'; DROP TABLE rounds;--"]
VALUES = HOSTILE + [None, 0, -1, 10**30, 1.5, True, [], {}, ["山"], [None], {"a": 1}]


def post(client, url, body, token=None, method="POST", **kwargs):
    """Send any JSON (lone surrogates as \\u escapes, as a browser would) and return the response."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.open(url, method=method, data=json.dumps(body), content_type="application/json",
                       headers=headers, **kwargs)


def assert_polite(response):
    """2xx, or a 4xx JSON answer with a Chinese detail; never a 5xx, never a trace, never our script."""
    body = response.get_data(as_text=True)
    assert response.status_code < 500, body[:300]
    assert "Traceback" not in body
    if response.status_code >= 400:
        detail = response.get_json()["detail"]
        assert HAN.search(detail), detail
    if response.mimetype == "text/html":
        assert "<script>alert(1)</script>" not in body


@pytest.fixture
def dealt(client, app):
    """A dealt round: the 詩伯 and three players, with their tokens."""
    created = post(client, "/api/rounds", {"title": "春日", "host_name": "東坡"}).get_json()
    code, tokens = created["code"], [created["host_token"]]
    for name in ("少游", "魯直", "無咎"):
        joined = post(app.test_client(), f"/api/rounds/{code}/join", {"name": name})
        tokens.append(joined.get_json()["token"])
    assert post(client, f"/api/rounds/{code}/deal", {}, tokens[0]).status_code == 200
    return code, tokens


@pytest.mark.parametrize("field", ["title", "host_name", "penalty"])
def test_lone_surrogate_in_a_round_field_is_refused_in_chinese(client, field):
    body = {"title": "春日", "host_name": "東坡", field: "春\ud800日"}
    response = post(client, "/api/rounds", body)
    assert response.status_code == 400
    assert "U+D800" in response.get_json()["detail"]


def test_lone_surrogate_in_a_draft_and_a_comment_is_refused(client, dealt):
    code, tokens = dealt
    for body in ({"title": "\ud800", "text": "山"}, {"title": "山", "text": "明月\udfff"}):
        response = post(client, f"/api/rounds/{code}/draft", body, tokens[1], method="PUT")
        assert response.status_code == 400, response.get_data(as_text=True)
        assert HAN.search(response.get_json()["detail"])
    response = post(client, f"/api/rounds/{code}/grades", {"seat": 2, "grade": "上品", "comment": "好\ud800"},
                    tokens[0])
    assert response.status_code == 400


def test_an_error_that_echoes_a_lone_surrogate_is_still_json(client):
    response = post(client, "/api/rounds", {"title": "春日", "host_name": "東坡", "tile_set": ["\ud800"]})
    assert response.status_code == 422
    assert "\ufffd" in response.get_json()["detail"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.sampled_from(["title", "host_name", "host_plays", "rhyme_book", "penalty", "composition",
                              "wildcards", "tile_set"]),
       value=st.one_of(st.sampled_from(VALUES), st.text(max_size=50), st.integers(), st.floats(allow_nan=False)))
def test_create_round_with_any_value_is_polite(client, field, value):
    assert_polite(post(client, "/api/rounds", {"title": "春日", "host_name": "東坡", field: value}))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(url=st.sampled_from(["/api/check", "/api/themes", "/api/rounds"]),
       body=st.one_of(st.sampled_from(VALUES), st.dictionaries(st.sampled_from(["text", "chars", "hand", "title"]),
                                                               st.sampled_from(VALUES), max_size=3)))
def test_any_json_body_is_polite(client, url, body):
    assert_polite(post(client, url, body))


@pytest.mark.parametrize("raw, ctype", [(b"\xff\xfe", "application/json"), (b"{", "application/json"),
                                        (b"text=x", "application/x-www-form-urlencoded"), (b"", "text/plain")])
@pytest.mark.parametrize("url", ["/api/check", "/api/themes", "/api/rounds"])
def test_not_json_is_a_400_in_chinese(client, url, raw, ctype):
    response = client.post(url, data=raw, content_type=ctype)
    assert response.status_code == 400
    assert HAN.search(response.get_json()["detail"])


def test_draft_and_hand_are_private_before_publication(client, app, dealt):
    code, tokens = dealt
    assert post(client, f"/api/rounds/{code}/draft", {"title": "春", "text": "密稿"}, tokens[1],
                method="PUT").status_code == 200
    stranger = app.test_client()  # no cookie
    for path in ("hand", "draft", "hands", "results"):
        for token in (None, tokens[2], "x" * 64, ""):
            response = stranger.get(f"/api/rounds/{code}/{path}",
                                    headers={"Authorization": f"Bearer {token}"} if token is not None else {})
            body = response.get_data(as_text=True)
            assert "密稿" not in body
            if path in ("hand", "draft") and token == tokens[2]:
                continue  # seat 3's own hand and (empty) draft
            assert response.status_code in (403, 409), (path, token, response.status_code)
    assert "密稿" not in stranger.get(f"/api/rounds/{code}").get_data(as_text=True)
    assert "密稿" not in stranger.get(f"/r/{code}").get_data(as_text=True)


def test_simplified_reader_gets_api_errors_in_simplified(client):
    client.set_cookie("script", "hans")
    detail = client.get("/api/rounds/ZZZZZZ").get_json()["detail"]
    assert "找不到牌局" in detail and "請" not in detail and "请" in detail
    detail = post(client, "/api/rounds", {"title": "", "host_name": "東坡"}).get_json()["detail"]
    assert "請" not in detail and "请" in detail


def test_error_pages_are_chinese_and_keep_the_views_message(client):
    response = client.get("/no/such/page")
    page = response.get_data(as_text=True)
    assert response.status_code == 404 and "找不到" in page and "Not Found" not in page
    assert 'class="site-footer"' in page and 'class="site-nav"' in page
    response = client.get("/r/ABCDEF/k/not-a-token")
    assert response.status_code == 404
    assert "找不到牌局" in response.get_data(as_text=True) or "私人連結無效" in response.get_data(as_text=True)
    response = client.post("/check")
    assert response.status_code == 405 and "不支援" in response.get_data(as_text=True)
    response = client.get("/r/%3Cscript%3Ealert(1)%3C%2Fscript%3E")
    assert response.status_code == 404 and "<script>alert(1)" not in response.get_data(as_text=True)


def test_round_page_in_simplified_keeps_the_rounds_data_as_given(client, dealt):
    code, tokens = dealt
    client.set_cookie("script", "hans")
    page = client.get(f"/r/{code}").get_data(as_text=True)
    state = re.search(r'id="round-state" data-verbatim>(.*?)</script>', page, re.S).group(1)
    assert "魯直" in state  # names as typed, like the API the page refreshes from
    assert "鲁直" not in state
    assert "詩稿" not in page and "诗稿" in page  # the rest of the page in 简体
    strings = re.search(r'id="round-strings">(.*?)</script>', page, re.S).group(1)
    assert "張" not in strings and "画" in strings  # the words the script writes


def test_check_report_for_a_simplified_reader_names_rhyme_groups_in_simplified(client):
    client.set_cookie("script", "hans")
    report = client.post("/api/check", json={"text": "風急天高猿嘯哀，渚清沙白鳥飛回。"}).get_json()
    cells = report["lines"][0]["chars"]
    assert cells[0]["char"] == "風"  # the poem as typed
    assert cells[0]["groups"] == ["上平一东"]
    assert cells[5]["groups"] == ["去声十八啸"]


def test_every_api_route_is_in_the_openapi_document(app, client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
            assert path in paths, path
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                assert method.lower() in paths[path], (path, method)


def test_a_json_answer_that_echoes_a_lone_surrogate_is_never_a_500(client):
    # /api/grade echoes the title; whatever a view echoes, the JSON layer keeps it encodable.
    response = post(client, "/api/grade", {"text": POEM, "title": "靜夜\ud800"})
    assert response.status_code < 500
    assert "\ufffd" in response.get_data(as_text=True) or response.status_code == 400


@pytest.mark.parametrize("field", ["title", "text", "hand"])
def test_grade_refuses_control_characters_by_name(client, field):
    body = {"text": POEM, "title": "靜夜思", field: (POEM if field == "text" else "靜夜") + "\ud800"}
    response = post(client, "/api/grade", body)
    assert response.status_code == 400
    assert "控制字元" in response.get_json()["detail"]


def test_a_round_page_that_is_not_yet_open_leads_back_to_the_round(client, dealt):
    code, tokens = dealt
    early = client.get(f"/r/{code}/results")  # not yet published
    assert early.status_code == 409
    assert f'href="/r/{code}">回牌局</a>' in early.get_data(as_text=True)
    player = client.get(f"/r/{code}/k/{tokens[1]}")  # a player's seat cookie, not the 詩伯's
    assert player.status_code in (200, 302)
    if player.status_code == 200:  # this browser held the 詩伯's seat: the link asks before switching
        csrf = re.search(r'name="csrf" value="([^"]+)"', player.get_data(as_text=True)).group(1)
        assert client.post(f"/r/{code}/k/{tokens[1]}", data={"csrf": csrf}).status_code == 303
    refused = client.get(f"/r/{code}/judge")
    assert refused.status_code == 403 and f'href="/r/{code}">回牌局</a>' in refused.get_data(as_text=True)
    unknown = client.get("/r/ZZZZZZ/verify")  # no such round: no link to it
    assert unknown.status_code == 404 and "回牌局" not in unknown.get_data(as_text=True)


def test_the_dashboard_says_who_has_not_handed_in_yet(app, client):
    """Mid-round the standing counts a missing poem as 荒牌 (交白卷): the 詩伯 is told it is only for now."""
    from tests.judge_fixtures import judged_round

    code, tokens = judged_round(app, client)
    client.get(f"/r/{code}/k/{tokens[1]}")
    assert "尚未交卷" not in client.get(f"/r/{code}/judge").get_data(as_text=True)  # all four in
    reopened = client.post(f"/api/rounds/{code}/reopen", json={"seat": 2},
                           headers={"Authorization": f"Bearer {tokens[1]}"})
    assert reopened.status_code == 200
    page = client.get(f"/r/{code}/judge").get_data(as_text=True)
    waiting = re.search(r'id="standing-waiting">(.*?)</p>', page).group(1)
    assert waiting.startswith("子由尚未交卷") and "暫計荒牌" in waiting
