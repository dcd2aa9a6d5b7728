"""The app factory, config layering, the script switch and the import boundary."""

import subprocess
import sys

from app import create_app


def test_config_layers(tmp_path, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "sqlite:///" + str(tmp_path / "env.db"))
    app = create_app({"TESTING": True})
    assert app.config["DATABASE_URL"].endswith("env.db")
    assert app.config["SECRET_KEY"]
    assert not create_app().testing


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
