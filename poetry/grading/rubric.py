"""The rubric: the rules' 品 and criteria, the thresholds, and the 品 a score and its criteria earn.

Thresholds (DEFAULT_THRESHOLDS, adjustable per round by the 詩伯) turn the score into a 品:
  荒牌  score < 荒牌 threshold, or 貫理 < coherence floor: the poem does not hold together;
  下品  the rest below the 中品 threshold when form and tones hold (體不失, 平仄和暢 ≥ form floor);
        without them a low score stays 荒牌;
  中品  score ≥ 中品 threshold;
  上品  score ≥ 上品 threshold and 貼題, 聯句切當, 一氣呵成, 平仄和暢 each ≥ the 上品 floor or in the
        range where three Tang poems in four score on it.
"""

from __future__ import annotations

import math
from enum import Enum
from types import MappingProxyType
from typing import Any, Mapping

from poetry.errors import InvalidThresholdError
from poetry.grading.models import _model

#: The 品, best first.
GRADES = ("上品", "中品", "下品", "荒牌")
#: The rules' words, each measured as a criterion (poetry.grading.criteria).
CRITERIA = ("體不失", "平仄和暢", "貼題", "貫理", "首尾貫通", "聯句切當", "一氣呵成", "語句清新")

#: The criteria the combined score is made of: 語句清新 is derived from 一氣呵成, and 體不失 would only
#: tell 古體 from 近體, which is no fault, so both are left out.
COMBINED_CRITERIA = ("平仄和暢", "貼題", "貫理", "首尾貫通", "聯句切當", "一氣呵成")

#: Default thresholds; a round may override any of them (see ``merge_thresholds``).
DEFAULT_THRESHOLDS = MappingProxyType(
    {
        "上品": 0.85,  # combined score at least this, and every 上品 criterion ≥ "上品_floor"
        "上品_floor": 0.5,
        "中品": 0.5,  # combined score at least this
        "荒牌": 0.2,  # combined score below this: 荒牌
        "貫理_floor": 0.1,  # 貫理 below this: 荒牌 whatever the score
        "form_floor": 0.5,  # 體不失 and 平仄和暢 at least this for 下品 (else a weak poem is 荒牌)
    }
)


def merge_thresholds(overrides: Mapping[str, float] | None) -> dict[str, float]:
    """DEFAULT_THRESHOLDS with a round's overrides (unknown keys and values outside [0, 1] refused)."""
    out = dict(DEFAULT_THRESHOLDS)
    for key, value in (overrides or {}).items():
        if key not in out:
            raise InvalidThresholdError(f"不認得的門檻：{key}")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise InvalidThresholdError(f"門檻「{key}」須是 0 到 1 之間的數。")
        out[key] = float(value)
    return out


def _band_limits(name: str) -> tuple[float, float]:
    """(poor below, good from) for one criterion: the 5% and 25% points of Tang poems' scores."""
    q = _model().get("real_quantiles", {}).get(name)
    return (q[0], q[2]) if q else (0.3, 0.6)


def criterion_bands() -> dict[str, tuple[float, float]]:
    """For each criterion, (poor below, good from): the 5% and 25% points of Tang poems' scores."""
    return {name: _band_limits(name) for name in CRITERIA}


class Band(str, Enum):
    """Where a score falls among Tang poems' scores on the same criterion (``criterion_bands``)."""

    GOOD = "good"  #: at or above the lower quartile of real poems (three Tang poems in four)
    FAIR = "fair"  #: between
    POOR = "poor"  #: below all but the lowest 5% of them


def band_of(name: str, score: float) -> Band:
    """The band of a criterion's score.

    >>> band_of("貫理", 1.0), band_of("貫理", 0.0)
    (<Band.GOOD: 'good'>, <Band.POOR: 'poor'>)
    """
    poor, good = _band_limits(name)
    return Band.GOOD if score >= good else Band.FAIR if score >= poor else Band.POOR


def _floor2(x: float) -> str:
    """Two decimals rounded down, so a score shown as 0.84 is never mistaken for reaching 0.85."""
    return f"{math.floor(x * 100 + 1e-9) / 100:.2f}"


def suggest_grade(score: float, criteria: Mapping[str, Mapping[str, Any]],
                  thresholds: Mapping[str, float] | None = None) -> tuple[str, tuple[str, ...]]:
    """Turn the combined score and the criteria into a 品 and its reasons (see the module docstring).

    >>> suggest_grade(0.05, {"貫理": {"score": 0.02}})[0]
    '荒牌'
    """
    t = merge_thresholds(thresholds)

    def s(name: str) -> float | None:
        return (criteria.get(name) or {}).get("score")

    coherence = s("貫理")
    form_ok = all(s(n) is None or s(n) >= t["form_floor"] for n in ("體不失", "平仄和暢"))
    if score < t["荒牌"]:
        return "荒牌", (f"綜合分 {_floor2(score)}，低於荒牌門檻 {t['荒牌']:.2f}", "事實雜亂，首尾斷續。")
    if coherence is not None and coherence < t["貫理_floor"]:  # a jumble is 荒牌 whatever the score
        return "荒牌", (f"貫理僅 {coherence:.2f}", "事實雜亂，首尾斷續。")
    if score < t["中品"]:
        if not form_ok:
            return "荒牌", (f"綜合分 {_floor2(score)} 未達中品，且體式或平仄不合。",)
        return "下品", (f"題、體不失，平仄和暢，但綜合分 {_floor2(score)} 未達中品門檻 {t['中品']:.2f}，意味平平。",)
    floor = t["上品_floor"]
    # a 上品 criterion is met at the floor, or where three Tang poems in four score (its good band)
    shortfalls = [n for n in ("貼題", "聯句切當", "一氣呵成", "平仄和暢")
                  if s(n) is not None and s(n) < floor and band_of(n, s(n)) is not Band.GOOD]
    if score >= t["上品"] and not shortfalls:
        return "上品", (f"綜合分 {_floor2(score)} 達上品門檻 {t['上品']:.2f}；貼題貫理，聯句切當，一氣呵成。",)
    reasons = [f"綜合分 {_floor2(score)}，語句清新，首尾貫通。"]
    if score < t["上品"]:
        reasons.append(f"未達上品門檻 {t['上品']:.2f}。")
    if shortfalls:
        reasons.append("未入上品：" + "、".join(f"{n} {s(n):.2f}" for n in shortfalls) + f" 低於 {floor:.2f}。")
    return "中品", tuple(reasons)
