"""The round store without Flask: schema and migrations, the round's rules, drafts that outlive the process."""

import functools
import hashlib
import os
import random
import threading
import uuid

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from poetry import tiles
from poetry.errors import BadInput, NotAllowed, RoundNotFound, WrongPhase
from poetry.rules import check_composition, rhyme_feet
from poetry.store import Store, clean_text, metadata, seats, utcnow
from poetry.text import split_lines

#: Run these tests on another database (e.g. PostgreSQL) with POETRY_TEST_DATABASE_URL=postgresql+psycopg://…
OTHER_DATABASE = os.environ.get("POETRY_TEST_DATABASE_URL")


def database_url(tmp_path, name):
    return OTHER_DATABASE or f"sqlite:///{tmp_path / name}"


@pytest.fixture
def store(tmp_path):
    store = Store(database_url(tmp_path, "store.sqlite3"))
    yield store
    store.engine.dispose()


def seeded(seed):
    return functools.partial(tiles.deal_round, rng=random.Random(seed))


def full_table(store, host_plays=True):
    created = store.create_round(title="春日山行", host_name="東坡", host_plays=host_plays)
    code = created["code"]
    host = store.authenticate(code, created["host_token"])
    players = {}
    for name in ("子由", "少游", "魯直", "無咎")[: 3 if host_plays else 4]:
        joined = store.join(code, name)
        players[joined["seat"]] = store.authenticate(code, joined["token"])
    return code, host, players


def test_migrations_build_exactly_the_declared_schema(store):
    with store.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), metadata) == []
    Store(store.engine)  # upgrading an up-to-date database changes nothing and does not fail


def test_seats_deal_and_hands_follow_the_count(store):
    code, host, players = full_table(store)
    assert host.seat == 1 and host.is_host and sorted(players) == [2, 3, 4]
    deal = store.deal(code, host, deal_fn=seeded(11))
    expected = tiles.deal_round(tiles.load_tile_set(), host_seat=1, rng=random.Random(11))
    assert deal["commitment"] == expected.commitment
    assert deal["first_seat"] == tiles.first_seat(expected.count_tile.strokes, host_seat=1)
    for seat, viewer in [(1, host), *players.items()]:
        hand = store.hand(code, viewer)
        assert [t["char"] for t in hand["tiles"]] == list(expected.hands[seat])
        assert all(t["tone"] in ("平", "仄") and t["strokes"] > 0 for t in hand["tiles"])
    record = store.hands(code, host)["hands"]
    assert sorted(len(h["tiles"]) for h in record) == [150] * 4
    with pytest.raises(NotAllowed):
        store.hands(code, players[2])


def test_a_judging_host_sits_at_zero_and_the_count_starts_at_seat_one(store):
    code, host, players = full_table(store, host_plays=False)
    assert host.seat == 0 and sorted(players) == [1, 2, 3, 4]
    deal = store.deal(code, host, deal_fn=seeded(5))
    expected = tiles.deal_round(tiles.load_tile_set(), host_seat=None, rng=random.Random(5))
    assert deal["first_seat"] == expected.first_seat
    with pytest.raises(NotAllowed):
        store.hand(code, host)  # a 詩伯 who does not play has no hand of their own
    assert len(store.hands(code, host)["hands"]) == 4


def test_phases_are_enforced(store):
    code, host, players = full_table(store)
    with pytest.raises(WrongPhase):
        store.save_draft(code, players[2], "", "未抽牌")
    with pytest.raises(NotAllowed):
        store.deal(code, players[3])
    store.deal(code, host, deal_fn=seeded(1))
    with pytest.raises(WrongPhase):
        store.deal(code, host)
    with pytest.raises(WrongPhase):
        store.join(code, "後來者")
    with pytest.raises(WrongPhase):
        store.results(code)
    with pytest.raises(RoundNotFound):
        store.round_info("ZZZZZZ")


def test_drafts_survive_a_new_store_on_the_same_file(tmp_path):
    url = database_url(tmp_path, "restart.sqlite3")
    first = Store(url)
    code, host, players = full_table(first)
    first.deal(code, host, deal_fn=seeded(2))
    first.save_draft(code, players[3], "江村", "清江一曲抱村流\n長夏江村事事幽")
    first.engine.dispose()

    second = Store(url)
    request_cleanup = second.engine.dispose
    draft = second.get_draft(code, players[3])
    assert draft["title"] == "江村" and draft["text"].startswith("清江一曲抱村流")
    assert draft["revision"] == 1 and not draft["submitted"]
    request_cleanup()


def test_grades_are_stored_and_listed(store):
    code, host, players = full_table(store)
    with pytest.raises(WrongPhase):
        store.set_grade(code, 2, "上品")
    store.deal(code, host, deal_fn=seeded(3))
    store.set_grade(code, 2, "中品", "頷聯工穩")
    store.set_grade(code, 2, "上品", "改定")
    store.set_grade(code, 4, "荒牌")
    assert [(g["seat"], g["grade"], g["comment"]) for g in store.list_grades(code)] == [
        (2, "上品", "改定"), (4, "荒牌", "")]
    with pytest.raises(BadInput):
        store.set_grade(code, 3, "絕品")


def test_joining_is_rate_limited_per_client_in_the_database(tmp_path):
    """The limiter's windows are rows of the store's database: every worker and every restart sees one count."""
    from limits import parse
    from limits.strategies import FixedWindowRateLimiter

    from poetry.store import DatabaseStorage

    url = database_url(tmp_path, "rate.sqlite3")
    store = Store(url)
    join_limit = parse("3 per 10 minutes")
    limiter = FixedWindowRateLimiter(DatabaseStorage(engine=store.engine))
    guesser, guest = f"203.0.113.9-{uuid.uuid4()}", f"198.51.100.1-{uuid.uuid4()}"
    assert [limiter.hit(join_limit, "join", guesser) for _ in range(4)] == [True, True, True, False]
    assert limiter.hit(join_limit, "join", guest)
    store.engine.dispose()
    restarted = Store(url)  # the count is in the database
    assert not FixedWindowRateLimiter(DatabaseStorage(engine=restarted.engine)).hit(join_limit, "join", guesser)
    restarted.engine.dispose()


def test_the_database_limit_holds_under_a_burst(tmp_path):
    """60 concurrent counts of one key each get their own number: a limit of 20 lets exactly 20 through."""
    from concurrent.futures import ThreadPoolExecutor

    from limits import parse
    from limits.strategies import FixedWindowRateLimiter

    from poetry.store import DatabaseStorage

    store = Store(database_url(tmp_path, "burst.sqlite3"))
    limiter = FixedWindowRateLimiter(DatabaseStorage(engine=store.engine))
    key = f"burst-{uuid.uuid4()}"
    with ThreadPoolExecutor(max_workers=12) as pool:
        allowed = list(pool.map(lambda _: limiter.hit(parse("20 per 10 minutes"), "join", key), range(60)))
    assert allowed.count(True) == 20
    store.engine.dispose()


def test_tokens_are_stored_only_as_hashes(store):
    created = store.create_round(title="密", host_name="主")
    joined = store.join(created["code"], "客")
    with store.engine.connect() as conn:
        stored = [row.token_hash for row in conn.execute(seats.select())]
    for token in (created["host_token"], joined["token"]):
        assert len(token) >= 32
        assert token not in stored and hashlib.sha256(token.encode()).hexdigest() in stored
    assert store.authenticate(created["code"], joined["token"]).name == "客"
    assert store.authenticate(created["code"], hashlib.sha256(joined["token"].encode()).hexdigest()) is None
    assert store.authenticate("OTHER1", joined["token"]) is None


def test_concurrent_joins_never_seat_more_than_four(store):
    code = store.create_round(title="搶座", host_name="主")["code"]
    outcomes = []

    def join(i):
        try:
            outcomes.append(store.join(code, f"客{i}")["seat"])
        except WrongPhase:
            outcomes.append(None)

    threads = [threading.Thread(target=join, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(s for s in outcomes if s) == [2, 3, 4]
    assert len(store.round_info(code)["seats"]) == 4


def test_events_record_public_changes_in_order(store):
    code, host, players = full_table(store)
    store.deal(code, host, deal_fn=seeded(4))
    kinds = [e["kind"] for e in store.events_since(code)]
    assert kinds == ["seats"] * 4 + ["dealt"]
    dealt = store.events_since(code)[-1]["data"]
    assert set(dealt) == {"commitment", "count_tile", "first_seat", "turn_order", "hand_size"}  # no hands
    assert store.events_since(code, after=store.events_since(code)[-1]["id"]) == []


@pytest.mark.parametrize("value, message", [
    ("<b>" * 20, "太長"), ("春\x00日", "控制字元"), ("春\u202e日", "控制字元"),
    (12, "必須是文字"), (["春"], "必須是文字"),
])
def test_clean_text_refuses_bad_strings(value, message):
    with pytest.raises(BadInput, match=message):
        clean_text(value, "title", "標題")


def test_poem_lines_and_rhyme_feet_of_a_real_quatrain():
    lines = split_lines("白日依山盡，黃河入海流。欲窮千里目，更上一層樓。")
    assert lines == ["白日依山盡", "黃河入海流", "欲窮千里目", "更上一層樓"]
    book = {"盡": "仄", "流": "平", "目": "仄", "樓": "平"}
    assert rhyme_feet(lines, lambda c: book.get(c) == "平") == [(2, "流"), (4, "樓")]
    # 首句入韻: 杜牧〈山行〉's first line ends on 斜 (下平六麻), a rhyme foot too
    lines = split_lines("遠上寒山石徑斜，白雲生處有人家。停車坐愛楓林晚，霜葉紅於二月花。")
    assert [c for _, c in rhyme_feet(lines, lambda c: c in "斜家花")] == ["斜", "家", "花"]


def test_composition_rules():
    poem = "白日依山盡，黃河入海流。欲窮千里目，更上一層樓。"
    is_ping = lambda c: c in "流樓"  # noqa: E731
    hand = "登鸛雀樓流"
    assert check_composition("登樓", poem, hand, "rhyme_feet", is_ping=is_ping) == []
    missing = check_composition("登樓", poem, "登鸛雀樓", "rhyme_feet", is_ping=is_ping)
    assert [(v["where"], v["char"]) for v in missing] == [("rhyme", "流")]
    assert "第 2 句" in missing[0]["message"]
    title = check_composition("登高", poem, hand, "rhyme_feet", is_ping=is_ping)
    assert [(v["where"], v["char"]) for v in title] == [("title", "高")]
    # 集字: every character from the hand, each tile once; blanks cover what is missing
    full = "".join(split_lines(poem))
    assert check_composition("", poem, full, "jizi") == []
    short = check_composition("", poem, full.replace("樓", ""), "jizi")
    assert [v["char"] for v in short] == ["樓"]
    assert check_composition("", poem, full.replace("樓", ""), "jizi", wildcards=1) == []
    twice = check_composition("", "山山", "山", "jizi")
    assert twice[0]["count"] == 1 and "只有一張" in twice[0]["message"]


def test_submit_and_publish_racing_one_wins_and_the_other_is_a_409(store, monkeypatch):
    """Publish lands while a submission's transaction is open: the submission is either refused (409) or
    wholly before publication (its event first). On PostgreSQL both lock the round's row (FOR UPDATE)."""
    from sqlalchemy import event

    import poetry.store.store as store_module

    monkeypatch.setattr(store_module, "check_composition", lambda *args: [])  # any poem may be handed in here
    code, host, players = full_table(store)
    store.deal(code, host, deal_fn=seeded(3))
    submitter = threading.current_thread()
    published = threading.Event()

    def publish():
        try:
            store.publish(code, host)
        except WrongPhase:  # the submission won, and publishing waits for its 品 (issue 12)
            store.set_grade(code, players[2].seat, "中品")
            store.publish(code, host)
        published.set()

    def publish_mid_submission(conn, cursor, statement, *args):
        if threading.current_thread() is submitter and statement.lstrip().startswith("SELECT rounds.phase") \
                and not published.is_set() and not getattr(publish_mid_submission, "started", False):
            publish_mid_submission.started = True
            threading.Thread(target=publish, daemon=True).start()
            published.wait(1.0)  # a locked row keeps it waiting; without the lock it publishes now

    event.listen(store.engine, "after_cursor_execute", publish_mid_submission)
    try:
        outcome = store.submit(code, players[2], "靜夜思", "床前明月光，疑是地上霜。舉頭望明月，低頭思故鄉。")
    except WrongPhase:
        outcome = None
    finally:
        event.remove(store.engine, "after_cursor_execute", publish_mid_submission)
    assert published.wait(30)
    kinds = [e["kind"] for e in store.events_since(code)]
    if outcome is not None:  # the submission won: its event comes before publication
        assert kinds.index("submitted") < kinds.index("published"), kinds
    else:
        assert "submitted" not in kinds


@pytest.mark.parametrize("look_alike", ["子由\u200b", "子\u200d由", "\ufeff子由", "子由\u00a0"])
def test_look_alike_names_are_one_name_in_the_database(store, look_alike):
    from sqlalchemy.exc import IntegrityError

    code, host, players = full_table(store)
    with pytest.raises(BadInput):
        store.join(code, look_alike)
    with pytest.raises(IntegrityError), store.engine.begin() as conn:  # the database refuses one too
        conn.execute(seats.insert().values(round_id=host.round_id, seat=9, name="子由", token_hash="x" * 64,
                                           is_host=False, joined_at=utcnow()))
