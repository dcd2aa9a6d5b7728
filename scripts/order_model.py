"""起承轉合 as a measurement: the place each line of a 絕句 or 律詩 is written for, and whether a poem keeps its order.

Not part of the grading (docs/BENCHMARKS.md, "Order (issue 14, order15)": it tells a poem from its couplets moved,
but prefers neither 唐詩三百首 to the same poets' other poems nor fine poems to skilled pastiche, and it reads three
celebrated poems as disordered); scripts/eval_order.py fits it in memory and measures it.

A line-position model learned on the 全唐詩 training split (``fit``; never 唐詩三百首, the calibration split or
Song) reads each line's content — its characters and two-character words, its 虛字 and where they stand, a question or a
negation — and gives the log-probability of each place in the poem (a 絕句's four lines: 起 承 轉 合; a 律詩's
eight: 首聯 頷聯 頸聯 尾聯, upper and lower line). Only whole couplets may move (a couplet's two lines and the rhyme
of its even line go together), so a poem's order is read against the other orders of its couplets: ``read_order``
gives the probability of the order as written among them (1/2 is chance for a 絕句's two couplets, 1/24 for a
律詩's four). The last character of an odd line is not read: whether the first line rhymes (首句入韻) says where
a line stands by prosody, which the checker judges, not by sense.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Mapping

import numpy as np

#: Inverse L2 strength of the position model, chosen with ``eval_order.py --dev`` among 0.1, 0.3, 1.
ORDER_C = 0.3
#: The fewest training lines a feature must be seen in, chosen with ``--dev`` among 5, 10, 20.
MIN_DF = 5
#: The shapes read: line count of a 絕句 and of a 律詩 (of five or seven characters a line).
SHAPES = (4, 8)
#: 虛字 whose place in the line the model reads (a turn is often made by one: 卻 忽 不知 遙知 唯有).
TURN_CHARS = frozenset("之乎者也矣焉哉而且以於其不無何豈莫自相亦又猶尚已方乃則即便卻還更只唯惟誰此彼是所與共今未須應可"
                       "能欲忽獨空休那寧安幾")
#: Characters that ask (a question of sense, not of punctuation).
QUESTION_CHARS = frozenset("何誰豈安寧幾那焉孰奚曷胡")
#: Characters that deny.
NEGATION_CHARS = frozenset("不莫無未休勿非")


def units(line: str) -> list[str]:
    """The rhythmic units of a line: 五言 2|3, 七言 2|2|3.

    >>> units("白日依山盡"), units("朝辭白帝彩雲間")
    (['白日', '依山盡'], ['朝辭', '白帝', '彩雲間'])
    """
    return [line[:2], line[2:]] if len(line) <= 5 else [line[:2], line[2:4], line[4:]]


def line_features(line: str, odd: bool) -> list[str]:
    """The features of one line for the position model: characters, two-character words inside a rhythmic unit,
    the first character and word, each 虛字 with its place (1st, 2nd, 3rd, later), a question, a negation, the
    line's length; an odd line without its last character (its rhyme or not is prosody: 首句入韻).

    >>> line_features("舉頭望明月", True)[:4]
    ['c:舉', 'c:頭', 'c:望', 'c:明']
    >>> "w:明月" in line_features("舉頭望明月", False), "w:明月" in line_features("舉頭望明月", True)
    (True, False)
    """
    body = line[:-1] if odd else line
    out = [f"c:{ch}" for ch in dict.fromkeys(body)]
    out += [f"w:{u[i:i + 2]}" for u in units(body) for i in range(len(u) - 1)]
    out += [f"h:{line[0]}", f"h2:{line[:2]}", f"len{len(line)}"]
    out += [f"f{min(i, 3)}:{ch}" for i, ch in enumerate(body) if ch in TURN_CHARS]
    if QUESTION_CHARS & set(body):
        out.append("ask")
    if NEGATION_CHARS & set(body):
        out.append("deny")
    return list(dict.fromkeys(out))


@dataclass(frozen=True)
class PositionModel:
    """One shape's multinomial logistic model of a line's place: feature index, weights (places × features), biases."""

    index: Mapping[str, int]
    weights: np.ndarray
    bias: np.ndarray

    def top_features(self, place: int, k: int = 10) -> list[str]:
        """The ``k`` features that most raise the odds of ``place`` over the other places."""
        names = sorted(self.index, key=self.index.get)
        w = self.weights[place] - np.delete(self.weights, place, axis=0).mean(0)
        return [names[j] for j in np.argsort(-w)[:k]]


def fit(poems: list[list[str]], c: float = ORDER_C, min_df: int = MIN_DF) -> PositionModel:
    """The position model of ``poems`` (all of one line count n): one row per line, labelled with its place 0 … n − 1,
    over the features seen in at least ``min_df`` lines (scikit-learn's LogisticRegression, multinomial, L2)."""
    from scipy import sparse
    from sklearn.linear_model import LogisticRegression

    n = len(poems[0])
    rows = [line_features(line, k % 2 == 0) for p in poems for k, line in enumerate(p)]
    df = Counter(x for r in rows for x in r)
    index = {x: j for j, x in enumerate(sorted(x for x, m in df.items() if m >= min_df))}
    r_idx = [r for r, feats in enumerate(rows) for x in feats if x in index]
    c_idx = [index[x] for feats in rows for x in feats if x in index]
    X = sparse.csr_matrix((np.ones(len(r_idx)), (r_idx, c_idx)), shape=(len(rows), len(index)))
    clf = LogisticRegression(C=c, max_iter=1000).fit(X, np.tile(np.arange(n), len(poems)))
    return PositionModel(index, clf.coef_.astype(np.float32), clf.intercept_.astype(np.float32))


def readable(lines: list[str]) -> bool:
    """Whether the position model reads a poem: four or eight lines, all of five or all of seven characters.

    >>> readable(["白日依山盡", "黃河入海流", "欲窮千里目", "更上一層樓"]), readable(["白日依山盡", "黃河入海流"])
    (True, False)
    """
    return len(lines) in SHAPES and len({len(x) for x in lines}) == 1 and len(lines[0]) in (5, 7)


def position_logp(lines: list[str], model: PositionModel) -> np.ndarray:
    """log P(place | line) for each line (rows) and each place of the poem's shape (columns) under ``model``."""
    z = np.tile(model.bias, (len(lines), 1))
    for r, line in enumerate(lines):
        cols = [j for x in line_features(line, r % 2 == 0) if (j := model.index.get(x)) is not None]
        if cols:
            z[r] += model.weights[:, cols].sum(1)
    z -= z.max(1, keepdims=True)
    return z - np.log(np.exp(z).sum(1, keepdims=True))


@cache
def couplet_orders(n_lines: int) -> tuple[tuple[int, ...], ...]:
    """Every order of a poem's couplets, the written one first: entry s is the couplet set at place s.

    >>> couplet_orders(4)
    ((0, 1), (1, 0))
    >>> len(couplet_orders(8))
    24
    """
    return tuple(itertools.permutations(range(n_lines // 2)))


def order_logps(lp: np.ndarray) -> np.ndarray:
    """The log-likelihood of each couplet order (``couplet_orders``) under the lines' place log-probabilities.

    >>> lp = np.log(np.array([[.7, .1, .1, .1], [.1, .7, .1, .1], [.1, .1, .7, .1], [.1, .1, .1, .7]]))
    >>> [round(float(x), 2) for x in order_logps(lp)]  # as written; the couplets swapped
    [-1.43, -9.21]
    """
    orders = np.array(couplet_orders(len(lp)))  # (orders, couplets)
    k = np.arange(orders.shape[1])
    upper = lp[2 * orders, 2 * k]  # the couplet orders[o][s]'s upper line at place 2s
    lower = lp[2 * orders + 1, 2 * k + 1]
    return (upper + lower).sum(1)


@dataclass(frozen=True)
class OrderReading:
    """How surely a poem's couplets stand in the order written: ``own`` the probability of the written order among
    every order of its couplets (``chance`` each if the lines said nothing of their places); ``margin`` its
    log-likelihood over the likeliest other order's (below 0: another order reads better); ``best``: that order;
    ``turn``: the line (from 0) likeliest at the 轉 place (a 絕句's third line, a 律詩's fifth), and its
    probability there."""

    own: float
    chance: float
    margin: float
    best: tuple[int, ...]
    turn: int
    turn_p: float


def read_order(lines: list[str], models: Mapping[int, PositionModel]) -> OrderReading | None:
    """The order reading of a 絕句 or 律詩 under ``models`` (by line count; ``fit``); None for another shape."""
    if not readable(lines):
        return None
    lp = position_logp(lines, models[len(lines)])
    scores = order_logps(lp)
    post = np.exp(scores - scores.max())
    post /= post.sum()
    other = int(np.argmax(scores[1:])) + 1
    place = len(lines) // 2  # 轉: the third line of four, the fifth of eight (an upper line: only couplets move)
    turn = 2 * int(np.argmax(lp[0::2, place]))
    return OrderReading(float(post[0]), 1.0 / len(scores), float(scores[0] - scores[other]),
                        couplet_orders(len(lines))[other], turn, float(np.exp(lp[turn, place])))
