"""A dealt round with four real poems handed in, for the judge's API and browser tests.

The poems are put in the submissions table directly (the composition rule is the rounds' concern and
is tested there); everything else goes through the rounds API.
"""

import json

from poetry.store import submissions, utcnow

POEMS = {
    1: ("山居秋暝", "空山新雨後，天氣晚來秋。\n明月松間照，清泉石上流。\n"
                   "竹喧歸浣女，蓮動下漁舟。\n隨意春芳歇，王孫自可留。"),
    2: ("春望", "國破山河在，城春草木深。\n感時花濺淚，恨別鳥驚心。\n"
               "烽火連三月，家書抵萬金。\n白頭搔更短，渾欲不勝簪。"),
    # 春望 and 山居秋暝 interleaved: each line fine, the whole a jumble
    3: ("春望", "國破山河在，天氣晚來秋。\n感時花濺淚，清泉石上流。\n"
               "烽火連三月，蓮動下漁舟。\n白頭搔更短，王孫自可留。"),
    4: ("登高", "風急天高猿嘯哀，渚清沙白鳥飛回。\n無邊落木蕭蕭下，不盡長江滾滾來。\n"
               "萬里悲秋常作客，百年多病獨登臺。\n艱難苦恨繁霜鬢，潦倒新停濁酒杯。"),
}


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def judged_round(app, client, penalty="罰酒三杯"):
    """A round with the 詩伯 at seat 1 and three players, dealt, four poems in. Returns (code, tokens)."""
    created = client.post("/api/rounds", json={"title": "秋日雅集", "host_name": "東坡", "penalty": penalty})
    assert created.status_code == 201, created.get_json()
    code, tokens = created.get_json()["code"], {1: created.get_json()["host_token"]}
    for name in ("子由", "少游", "魯直"):
        joined = app.test_client().post(f"/api/rounds/{code}/join", json={"name": name}).get_json()
        tokens[joined["seat"]] = joined["token"]
    assert client.post(f"/api/rounds/{code}/deal", headers=bearer(tokens[1])).status_code == 200
    store = app.extensions["poetry_store"]
    from poetry.checker import check_poem
    from poetry.rules import _report_of

    with store.engine.begin() as conn:
        round_id = store.authenticate(code, tokens[1]).round_id
        for seat, (title, text) in POEMS.items():
            report = json.dumps(_report_of(check_poem(text)), ensure_ascii=False)
            conn.execute(submissions.insert().values(round_id=round_id, seat=seat, title=title, text=text,
                                                     report=report, locked=True, submitted_at=utcnow()))
    return code, tokens


def grade_all(client, code, token, grade="中品", seats=(1, 2, 3, 4)):
    """The 詩伯 grades the poems handed in (publishing waits for every 品, issue 12)."""
    for seat in seats:
        response = client.post(f"/api/rounds/{code}/grades", headers=bearer(token), json={"seat": seat, "grade": grade})
        assert response.status_code == 200, response.get_json()
