"""The graded sets' format (tests/data/graded_set*.json): what scripts/eval_grading.py reads and what keeps them apart.

Each set is a 詩伯's grades given before the software ran; these tests check the files, never the software's grades.
"""

import ast
import json
from pathlib import Path

from poetry.grading import GRADES

ROOT = Path(__file__).resolve().parent.parent
KINDS = {"fine", "skilled", "flat", "weak", "jumble", "wrong_title"}


def graded_sets_listed() -> tuple[str, ...]:
    """GRADED_SETS as scripts/eval_grading.py spells it, read without importing the script (it loads the models)."""
    tree = ast.parse((ROOT / "scripts" / "eval_grading.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "GRADED_SETS" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError("scripts/eval_grading.py has no GRADED_SETS")


def load(path: str) -> dict:
    return json.loads((ROOT / path).read_text(encoding="utf-8"))


def test_every_graded_set_is_evaluated():
    """A set written into tests/data but left out of GRADED_SETS would never be reported."""
    on_disk = {f"tests/data/{p.name}" for p in (ROOT / "tests" / "data").glob("graded_set*.json")}
    assert on_disk == set(graded_sets_listed())


def test_each_poem_has_a_kind_a_grade_and_a_note():
    for path in graded_sets_listed():
        data = load(path)
        assert data["about"].strip(), path
        for p in data["poems"]:
            assert set(p) == {"kind", "title", "text", "grade", "note"}, (path, p["title"])
            assert p["kind"] in KINDS and p["grade"] in GRADES, (path, p["title"])
            assert p["title"] and p["text"] and p["note"], (path, p["title"])


def test_the_rules_words_bound_jumbles_and_wrong_titles():
    """A jumble breaks 事實、首尾 (荒牌) or at least the 體 it was cut from, and a title the poem does not treat fails
    題、體不失: neither is above 下品 (fresh4's 初夏 jumble keeps one rhyme and one season and breaks only 粘: 下品)."""
    for path in graded_sets_listed():
        for p in load(path)["poems"]:
            if p["kind"] == "jumble":
                assert GRADES.index(p["grade"]) >= GRADES.index("下品"), (path, p["title"])
            if p["kind"] == "wrong_title":
                assert GRADES.index(p["grade"]) >= GRADES.index("下品"), (path, p["title"])


def test_no_fine_poem_is_in_two_sets():
    """A held-out set is clean only if its fine poems were not already graded in another set."""
    seen: dict[str, str] = {}
    for path in graded_sets_listed():
        for p in load(path)["poems"]:
            if p["kind"] == "fine":
                assert p["text"] not in seen, (path, p["title"], seen.get(p["text"]))
                seen[p["text"]] = path
