"""The app factory, config layering, the script switch and the import boundary."""

import pathlib
import subprocess
import sys

from flask import Blueprint

from app import create_app, default_config
from poetry.store import Store
from views.limiting import limit_setting
from views.openapi import documented, ok


def test_config_layers(tmp_path, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "sqlite:///" + str(tmp_path / "env.db"))
    app = create_app({"TESTING": True})
    assert app.config["DATABASE_URL"].endswith("env.db")
    assert app.config["SECRET_KEY"]
    assert not create_app().testing


def test_every_setting_has_its_default_in_create_app_and_the_store_is_built_there(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}",
                      "JOIN_LIMIT": 3})
    assert set(default_config(app.instance_path)) <= set(app.config)
    assert app.config["WARM_UP"] is False and app.config["EVENT_STREAM_SECONDS"] == 300
    store = app.extensions["poetry_store"]
    assert isinstance(store, Store)
    with app.test_request_context():  # the join limit is the app's, counted by Flask-Limiter in the database
        assert limit_setting("JOIN_LIMIT") == "3 per 600 seconds"
    views = pathlib.Path(__file__).parent.parent / "views"
    for module in views.glob("*.py"):  # views read settings; they never default them
        source = module.read_text()
        assert "config.setdefault(" not in source and "config.get(" not in source, module.name


def test_serving_app_loads_models_before_it_returns_without_threads(tmp_path):
    """Warm-up runs in the factory's thread: a background loader raced werkzeug's AST use on CPython 3.11."""
    import threading

    from poetry import grading, themes

    before = set(threading.enumerate())
    app = create_app({"SECRET_KEY": "test", "DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}"})
    assert not app.testing and app.config["WARM_UP"]
    started = {t.name for t in set(threading.enumerate()) - before if "process_request_thread" not in t.name}
    assert started == set()  # (a request thread of another test's server may come and go meanwhile)
    assert grading.models._model.cache_info().currsize == 1
    assert themes._lexicon.cache_info().currsize >= 1 and "sklearn.cluster" in sys.modules


def test_index_is_traditional_by_default(client):
    page = client.get("/").get_data(as_text=True)
    assert "詩牌" in page and "首頁" in page


def test_script_switch_converts_pages(client):
    response = client.get("/script/hans", headers={"Referer": "http://localhost/"})
    assert response.status_code == 302
    page = client.get("/").get_data(as_text=True)
    assert "首页" in page and "首頁" not in page
    client.get("/script/hant")
    assert "首頁" in client.get("/").get_data(as_text=True)


def test_unknown_page_is_404_in_chinese(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert "找不到" in response.get_data(as_text=True)
    api = client.get("/api/no-such-thing")
    assert api.status_code == 404 and api.is_json and api.get_json()["detail"]


def test_errors_have_one_shape(client):
    api = client.get("/api/rounds/ZZZZZZ")  # a PoetryError (the store's RoundNotFound)
    detail = "找不到牌局「ZZZZZZ」，請檢查代碼。"
    assert api.status_code == 404 and api.get_json() == {"error": "RoundNotFound", "detail": detail}
    page = client.get("/r/ZZZZZZ")
    assert page.status_code == 404 and page.mimetype == "text/html" and detail in page.get_data(as_text=True)
    client.set_cookie("script", "hans")  # a body too large is a 413 for a 简体 reader too, not a 500
    big = client.post("/api/check", data="x" * (1024 * 1024 + 1), content_type="application/json")
    assert big.status_code == 413 and big.get_json() == {"error": "Request Entity Too Large", "detail": "内容太长了。"}


def test_a_new_route_is_documented_where_it_is_written(app, client):
    bp = Blueprint("extra", __name__)

    @bp.get("/api/extra")
    @documented({"summary": "新路由", "responses": {"200": ok({"type": "object"})}})
    def extra():
        return {}

    app.register_blueprint(bp)
    assert client.get("/api/openapi.json").get_json()["paths"]["/api/extra"]["get"]["summary"] == "新路由"


def test_import_poetry_does_not_load_flask():
    code = "import sys, poetry; assert 'flask' not in sys.modules, 'poetry imported flask'"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_checker_loads_no_numerics():
    """`python -m poetry check` stays fast: the checker never loads numpy, scikit-learn or jieba."""
    code = (
        "import sys; from poetry import check_poem; check_poem('床前明月光，疑是地上霜。舉頭望明月，低頭思故鄉。');"
        "heavy = {'numpy', 'sklearn', 'jieba', 'flask'} & set(sys.modules); assert not heavy, heavy"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_load_arrays_reads_npy_and_npz_whole(tmp_path):
    import numpy as np

    from poetry.data import load_arrays

    np.save(tmp_path / "one.npy", np.arange(6, dtype=np.float16).reshape(2, 3))
    np.savez(tmp_path / "two.npz", a=np.array([1, 2]), s=np.array("山水"))
    assert load_arrays("one.npy", tmp_path)["array"].shape == (2, 3)
    two = load_arrays("two.npz", tmp_path)
    assert sorted(two) == ["a", "s"] and two["a"].tolist() == [1, 2] and str(two["s"]) == "山水"
