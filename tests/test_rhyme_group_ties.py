"""The rhyme group of a poem whose feet tie between two groups does not depend on the hash seed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# 車 is common in 下平六麻 and in 上平六魚: two feet of 車 give both groups two votes (a tie), and line 1's foot
# (坐, 仄) breaks nothing.
TIED = "白日依山坐，停雲望去車。青山看不足，獨坐望歸車。"

PROBE = f"""
import json
from poetry.checker import check_poem
from poetry.prosody import get_rhyme_book
book = get_rhyme_book("pingshui")
print(json.dumps({{
    "group": check_poem({TIED!r}).rhyme_group,
    "set_order": list(frozenset(r.group for r in book.lookup("車").readings)),
    "book_order": [r.group for r in book.lookup("車").readings],
}}, ensure_ascii=False))
"""


def _probe(seed: str) -> dict:
    env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_a_tied_foot_takes_the_same_group_under_any_hash_seed():
    zero, five = _probe("0"), _probe("5")
    # the two seeds iterate the char's groups in different orders (else the test proves nothing)
    assert zero["set_order"] != five["set_order"]
    assert zero["group"] == five["group"] == zero["book_order"][0] == "下平六麻"
