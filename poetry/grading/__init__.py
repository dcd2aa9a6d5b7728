"""THE GRADING: the rules' words as measured criteria, one combined score, and a suggested 品.

The rules of 詩牌 grade a poem:
  上品 貼題貫理，聯句切當，一氣呵成;  中品 語句清新，首尾貫通;
  下品 題、體不失，平仄和暢，但意味平平;  荒牌 事實雜亂，首尾斷續.

Each criterion below is a score in [0, 1] with a short Chinese explanation:
  體不失 / 平仄和暢   the checker's report (form recognised and kept; tones and rhyme);
  貼題               the body fits the title (topic vectors + TF-IDF over jieba words, title-body
                     character PMI and learned weights of those pairs; and by meaning, the title's own
                     characters taken out of the body: what poems under the title's words talk about,
                     the title's expansion in topic space, scenes of the themes lexicon — title_meaning.py);
                     title characters the body writes count fully only as far as the rest of the poem
                     answers the title too (``criteria.relevance``), so a jumble titled with one of its
                     own words is not rescued by it;
  貫理 / 首尾貫通     line-to-line and first-to-last coherence (topic vectors, rhyme); 貫理 also asks
                     whether each couplet's lines belong together rather than to two poems taken in
                     turns (``_couplet_coherence``);
  聯句切當           in a 律詩 the 頷聯 and 頸聯 are parallel (``couplet_features`` and ``parallel_score``
                     in measures.py), else the couplets hold together;
  一氣呵成 / 語句清新 fluency under the character trigram LMs (poetry/lm.py, both directions), how well each
                     character fits the rest of the poem (topic vectors) and a per-character detector
                     of characters swapped in (``char_features``); how much is stock phrase.

The learned scores are calibrated probabilities: each criterion is a logistic model fitted by
scripts/build_grading.py on corpus poems against the degraded copies that criterion should notice
(lines shuffled across poems, characters replaced keeping the tones, titles swapped, two poems'
lines taken in turns). One combined model over the log of the criteria gives ``Grade.score``:
small boosted trees, each criterion's effect constrained to be monotone (a better criterion never
lowers the score), so that one clearly failed criterion (a garbled line, a jumble, a borrowed title)
can sink the poem whatever the others say.
唐詩三百首 is held out of all of it.

Thresholds (DEFAULT_THRESHOLDS, adjustable per round by the 詩伯) turn the score into a 品: see
poetry.grading.rubric. Ranking a round by the 詩伯's final 品 is poetry.standings' concern.

The package, one room a concern:
  models.py     the model files, loaded once; the logistic and boosted-tree models they hold;
  measures.py   the raw features of a poem (LMs, topic vectors, title, rhyme, 對仗, swapped characters);
  title_meaning.py  貼題 by meaning: title words against what the body talks about, and the passages that answer;
  criteria.py   each criterion's score and explanation (``measure_poem``; the poem is parsed once);
  rubric.py     GRADES, CRITERIA, the thresholds and the 品 a score earns (``suggest_grade``);
  __init__.py   the combined score and ``grade_poem``, and the public names of all of them.

    >>> grade_poem("國破山河在，城春草木深。感時花濺淚，恨別鳥驚心。", "春望").form
    '五言絕句'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from poetry.grading.criteria import MAX_LINES, SHORT_POEM, is_lushi, measure_poem, measure_written
from poetry.grading.measures import (
    CHAR_FEATURES,
    COUPLET_FEATURES,
    CRITERION_FEATURES,
    answers_occasion,
    asks_nothing,
    char_features,
    char_suspicion,
    clean_title,
    couplet_features,
    detector_features,
    features,
    parallel_score,
    relevance_waived,
    suspicious_chars,
    title_demand,
    title_information,
    title_pair_score,
    title_topic,
)
from poetry.grading.models import _model, combined_score, reload_models, warm_up
from poetry.grading.rubric import (
    COMBINED_CRITERIA,
    CRITERIA,
    DEFAULT_THRESHOLDS,
    GENERIC_TITLES,
    GRADES,
    TELLING_TITLE,
    Band,
    band_of,
    criterion_bands,
    merge_thresholds,
    suggest_grade,
)
from poetry.grading.taste import _taste_model, blend, competence, held_out_spec, taste_of
from poetry.grading.variants import GradedText

__all__ = [
    "CHAR_FEATURES",
    "COMBINED_CRITERIA",
    "COUPLET_FEATURES",
    "CRITERIA",
    "CRITERION_FEATURES",
    "DEFAULT_THRESHOLDS",
    "GENERIC_TITLES",
    "GRADES",
    "MAX_LINES",
    "SHORT_POEM",
    "TELLING_TITLE",
    "TITLE_INFORMATION_FULL",
    "Band",
    "Grade",
    "applying",
    "answers_occasion",
    "asks_nothing",
    "band_of",
    "base_score",
    "char_features",
    "char_suspicion",
    "clean_title",
    "combined_features",
    "combined_score",
    "couplet_features",
    "criterion_bands",
    "detector_features",
    "features",
    "grade_poem",
    "grade_to_dict",
    "held_out_spec",
    "is_lushi",
    "measure_poem",
    "measure_written",
    "merge_thresholds",
    "parallel_score",
    "relevance_waived",
    "reload_models",
    "scored",
    "suggest_grade",
    "suspicious_chars",
    "title_demand",
    "title_enough",
    "title_information",
    "title_pair_score",
    "title_topic",
    "warm_up",
]


@dataclass(frozen=True)
class Grade:
    """A suggested 品 with the measured criteria behind it.

    ``criteria`` maps each name of CRITERIA to {"score": float in [0, 1] or None (not applicable),
    "explanation": Chinese text}; ``reasons`` says in Chinese why this 品 and not the next.
    """

    grade: str  # 上品 | 中品 | 下品 | 荒牌
    score: float  # combined model, probability-like in [0, 1]
    criteria: Mapping[str, Mapping[str, Any]]
    reasons: tuple[str, ...]
    form: str | None = None  # the checker's form name, e.g. 五言律詩
    title: str | None = None
    lines: tuple[str, ...] = field(default=())
    #: 格調 (poetry.grading.taste): {"label", "score", "z", "explanation"}, None without a taste model
    taste: Mapping[str, Any] | None = None


#: A title whose characters call for body characters this strongly (the two most telling title
#: characters' strongest PMI) counts fully in 貼題's share of the combined score; vaguer titles
#: (雜詩, 無題) count less.
TITLE_INFORMATION_FULL = 5.0


def combined_features(criteria: Mapping[str, Mapping[str, Any]], neutral: Mapping[str, float] | None = None,
                      title_info: float | None = None) -> dict[str, float]:
    """The combined model's input: the log of each criterion's score (or its neutral value if it does not apply).

    The logarithm keeps a criterion that is confidently met near 0 and lets one that clearly fails
    (a jumble, a garbled line, a borrowed title) pull the whole score down. 貼題 is scaled by how much
    the title says (``title_info``, see TITLE_INFORMATION_FULL).
    """
    out = {}
    for name in COMBINED_CRITERIA:
        score = (criteria.get(name) or {}).get("score")
        out[name] = math.log(max(score, 1e-3)) if score is not None else (neutral or {}).get(name, math.log(0.5))
    if title_info is not None and (criteria.get("貼題") or {}).get("score") is not None:
        out["貼題"] *= min(1.0, title_info / TITLE_INFORMATION_FULL)
    return out


def grade_poem(text: str, title: str | None = None, thresholds: Mapping[str, float] | None = None,
               hand: str | None = None, form: str | None = None, rhyme_book: str = "pingshui") -> Grade:
    """Measure a poem against the rules' words and suggest a 品.

    >>> g = grade_poem("白日依山盡，黃河入海流。欲窮千里目，更上一層樓。", title="登鸛雀樓")
    >>> g.grade in GRADES and 0 <= g.score <= 1
    True

    ``form`` (the declared form) and ``rhyme_book`` (the round's) are what the checker judges the poem by, as
    in the editor and on the dashboard. Raises MalformedPoemError for text that cannot be read as a poem
    (empty, one line, too long).
    """
    written, criteria, form_name = measure_written(text, title, hand, form, rhyme_book)
    lines, title = list(written.shown_lines), written.shown_title
    score, taste = scored(written, criteria)
    # what the title asks is read as the models read it (简体 钟山 is 鍾山, where OpenCC shows 鐘山)
    grade, reasons = suggest_grade(score, applying(criteria, written.title), thresholds, title_demand(written.title))
    return Grade(grade, score, MappingProxyType(criteria), reasons, form_name, title, tuple(lines),
                 MappingProxyType(taste) if taste else None)


def scored(written: GradedText, criteria: Mapping[str, Mapping[str, Any]],
           taste_spec: Mapping[str, Any] | None = None) -> tuple[float, dict[str, Any] | None]:
    """The combined score of a measured poem (``measure_written``) and its 格調: the anthologist's taste lifts
    the poems the combiner already finds competent (``taste.blend``). ``taste_spec``: another taste model
    than the shipped one (scripts/eval_grading.py scores the anthology with ``held_out_spec``)."""
    score = base_score(criteria, written.title)
    taste = taste_of(list(written.lines), list(written.shown_lines), criteria, taste_spec)
    if taste is not None:
        spec = taste_spec or _taste_model()
        score = round(blend(score, taste["z"], spec["weight"], competence(criteria)), 3)
    return score, taste


def base_score(criteria: Mapping[str, Mapping[str, Any]], title: str | None) -> float:
    """The combined model's score of the criteria, before taste (scripts/build_taste.py learns on it)."""
    spec = _model()["combined"]
    # 貼題 left out takes its neutral value; what the title asks scales it: the information of the title without its
    # names, places, dates and formulas (title_demand; measured against the whole title's: docs/BENCHMARKS.md title14b)
    features = combined_features(title_enough(applying(criteria, title)), spec.get("neutral"), title_demand(title))
    return round(combined_score(spec, features), 3)


def title_enough(criteria: Mapping[str, Mapping[str, Any]]) -> Mapping[str, Mapping[str, Any]]:
    """不即不離: 貼題 as the combined score weighs it. A poem that treats its title as closely as the median Tang poem
    treats its own (the real poems' 50% point) is fully on its title: writing more of the title's words earns nothing
    more (pastiche repeats its title; a fine poem under a place's or an occasion's title does not). Between the 10%
    point and the median the score rises in a straight line to 1; below the 10% point it is as measured, so a
    borrowed title weighs as before. The combiner itself is fitted on 貼題 as measured (against borrowed titles).

    >>> [round(title_enough({"貼題": {"score": x}})["貼題"]["score"], 2) for x in (0.05, 0.754, 0.95)]
    [0.05, 1.0, 1.0]
    """
    q = _model().get("real_quantiles", {}).get("貼題")
    score = (criteria.get("貼題") or {}).get("score")
    if not q or score is None or score <= q[1]:
        return criteria
    lifted = min(1.0, q[1] + (1.0 - q[1]) * (score - q[1]) / (q[3] - q[1]))
    return {**criteria, "貼題": {**criteria["貼題"], "score": lifted}}


def applying(criteria: Mapping[str, Mapping[str, Any]], title: str | None) -> Mapping[str, Mapping[str, Any]]:
    """The criteria that apply to a poem under ``title``: all of them, or without 貼題 when the title asks nothing
    (``asks_nothing``): then neither 離題 nor 上品's 貼題貫理 asks it, and the combined score takes its neutral value;
    a poem that answers the occasion of its feeling's title keeps it (``relevance_waived``: 觀書有感).

    >>> list(applying({"貼題": {"score": 0.1}, "貫理": {"score": 0.9}}, "次韻子由"))
    ['貫理']
    """
    if relevance_waived(title, (criteria.get("貼題") or {}).get("score")):
        return {name: c for name, c in criteria.items() if name != "貼題"}
    return criteria


def grade_to_dict(g: Grade) -> dict[str, Any]:
    """A Grade as plain JSON-ready data."""
    return {
        "grade": g.grade,
        "score": g.score,
        "criteria": {k: dict(v) for k, v in g.criteria.items()},
        "reasons": list(g.reasons),
        "form": g.form,
        "title": g.title,
        "lines": list(g.lines),
        "taste": dict(g.taste) if g.taste else None,
    }
