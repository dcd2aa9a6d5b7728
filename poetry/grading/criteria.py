"""Each criterion of a poem: a score in [0, 1] and a short Chinese explanation.

體不失 and 平仄和暢 come from the checker's report; 貼題, 貫理, 首尾貫通 and 一氣呵成 from the
calibrated logistic models over the features (poetry.grading.measures); 聯句切當 from the 對仗 model
of each couplet; 語句清新 from the diction (poetry.grading.diction: stock lines, modern words) and 一氣呵成.
The poem is read once.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from poetry.errors import MalformedPoemError
from poetry.grading.diction import Diction, diction, explain_fresh, found_text, freshness
from poetry.grading.explanations import (
    couplet_fault,
    couplet_praise,
    explain_coherence,
    explain_ends,
    explain_fluency,
    explain_relevance,
    same_figure,
)
from poetry.grading.festivals import explain_mixed_days, explain_one_day, festival_fit, festival_relevance, mixed_days
from poetry.grading.measures import (
    clean_title,
    couplet_features,
    features,
    names_an_object,
    parallel_score,
    retitled_features,
)
from poetry.grading.models import _logistic, _model, one_blas_thread
from poetry.grading.piling import PILED_FRESHNESS, explain_piling, piling, piling_level
from poetry.grading.rubric import criterion_bands
from poetry.grading.seasons import explain_mixed_seasons, mixed_seasons, season_fit, season_relevance
from poetry.grading.title_parts import read_title
from poetry.grading.variants import GradedText, as_written, read_for_grading
from poetry.text import MAX_LENGTH, parse_poem

if TYPE_CHECKING:
    from poetry.checker import CheckResult
    from poetry.text import ParsedPoem


#: 貫理 of a poem of fewer lines (a 絕句) comes from a calibrator of its own (two couplets say less).
SHORT_POEM = 6
#: Most lines a poem sent for grading may have.
MAX_LINES = 300
#: The checker's violations that count against 平仄和暢 (tones, rhyme, 孤平, 三平尾, 黏, 對); the rest
#: (重字 …) count against 體不失.
_TONE_KINDS = frozenset({"tone", "rhyme", "lone_ping", "triple_ping_tail", "adhesion", "opposition"})


def _crit(score: float | None, explanation: str, fault: bool | None = None) -> dict[str, Any]:
    """One criterion as the Grade holds it: the score clipped to [0, 1] and rounded, and its explanation; ``fault``
    where the explanation itself decides whether the criterion finds fault (聯句切當 names the loose couplet), which
    the rubric then asks instead of the score's band."""
    out = {"score": None if score is None else round(float(min(max(score, 0.0), 1.0)), 3), "explanation": explanation}
    return out if fault is None else {**out, "fault": fault}


def is_lushi(lines: list[str]) -> bool:
    """Eight lines of five or seven characters: a 律詩 shape, whose middle couplets should be parallel."""
    return len(lines) == 8 and len({len(x) for x in lines}) == 1 and len(lines[0]) in (5, 7)


# --- the criteria ----------------------------------------------------------------------------------


def _check(poem: ParsedPoem | str, hand: str | None, form: str | None = None,
           rhyme_book: str = "pingshui") -> CheckResult:
    """The checker's report of the poem (as its declared ``form``, if any, by the round's rhyme book): the one
    place the grading asks poetry.checker."""
    from poetry.checker import check_poem

    # the faults alone: the grading never shows the characters that would mend them
    return check_poem(poem, hand=hand, form=form, rhyme_book=rhyme_book, suggest_fixes=False)


def _form_criteria(result: CheckResult, lines: list[str]) -> tuple[dict, dict, str | None]:
    """體不失 and 平仄和暢 from the checker's report."""
    form = result.form
    errors = [v for v in result.violations if v.severity == "error"]
    notes = [v for v in result.violations if v.severity != "error"]
    tone_errors = [v for v in errors if v.kind in _TONE_KINDS]
    other_errors = [v for v in errors if v.kind not in _TONE_KINDS]
    n_chars = max(sum(len(x) for x in lines), 1)
    jin = result.verdict in ("regulated", "faults")  # 近體 (律詩, 絕句, 排律), not 古體: the checker's word (Verdict)
    repeated = [v for v in other_errors if v.kind == "repeated_char"]
    shape = [v for v in other_errors if v.kind == "form"]  # a line or line count off the declared form
    if shape:
        return (_crit(0.5, f"不合所宣之體：{shape[0].message}"),
                _crit(math.exp(-0.5 * len(tone_errors) * 10 / max(sum(len(x) for x in lines), 1)),
                      f"平仄押韻有 {len(tone_errors)} 處不合。" if tone_errors else "平仄、押韻皆合。"), form)
    if result.regulated:
        f_score = 1.0 - 0.15 * len(repeated)
        f_expl = f"{form}（{result.pattern or ''}），體式完整。"
        if repeated:
            f_expl = f"{form}，但有重字：{repeated[0].message}"
    elif jin:
        f_score = 0.75 - 0.15 * len(repeated)
        f_expl = f"{form}，格律小有不合。"
    elif result.chars_per_line is None:
        f_score = 0.8
        f_expl = f"{form}：句長不一，是雜言古體。"
    else:
        f_score = 0.9 - 0.15 * len(repeated)
        f_expl = f"{form}，不拘近體格律。" + (result.notes[0] if result.notes else "")
    # 平仄和暢: faults per ten characters, notes counting a fifth
    faults = len(tone_errors) + 0.2 * len([v for v in notes if v.kind in _TONE_KINDS])
    t_score = math.exp(-0.5 * faults * 10 / n_chars)
    if not tone_errors:
        t_expl = "平仄、押韻皆合。" if jin or result.regulated else f"{result.summary}"
    else:
        t_expl = f"平仄押韻有 {len(tone_errors)} 處不合，如：{tone_errors[0].message}"
    return _crit(f_score, f_expl), _crit(t_score, t_expl), form


def _faults_by_criterion(result: CheckResult) -> dict[str, list[str]]:
    """The checker's errors as 平仄和暢's faults (tones, rhyme, 黏對 …) and 體不失's (重字 …), in its words."""
    errors = [v for v in result.violations if v.severity == "error"]
    return {"體不失": [v.message for v in errors if v.kind not in _TONE_KINDS],
            "平仄和暢": [v.message for v in errors if v.kind in _TONE_KINDS]}


def couplet_parallel(a: str, b: str) -> float:
    """How surely two lines form a 對仗 couplet: the parallel model, and 0.9 at least for a couplet built on
    one figure in both lines (巴峽穿巫峽 / 襄陽向洛陽: 當句對), whatever the aligned classes say.

    >>> couplet_parallel("即從巴峽穿巫峽", "便下襄陽向洛陽") >= 0.9
    True
    """
    return max(parallel_score(a, b), 0.9 if same_figure(a, b) else 0.0)


def loose_line() -> float:
    """Below this a 律詩's middle couplet is called 對仗不工: the parallel model's 10% quantile over the middle
    couplets of Tang 律詩 (scripts/build_grading.py), 0.5 for a model without one."""
    return float(_model()["criteria"]["parallel"].get("loose_below", 0.5))


#: A couplet of a poem that is not a 律詩 is called 不甚相屬 only below this (and only then does 聯句切當 find fault,
#: which the 上品 limit asks): the 2% point of the least held couplet of each poem of 唐詩三百首 that is not a 律詩
#: (172 poems, held out of the couplet model's training; 2% 0.020, 3% 0.028, 5% 0.052: scripts/eval_claims.py,
#: "非律詩 聯 (min)"). The old line, 0.14 (the 5% point of all its couplets), told one such poem in nine that a
#: couplet of its own did not hold (元日's 爆竹聲中一歲除／春風送暖入屠蘇, 0.066).
COUPLET_LOOSE_BELOW = 0.02
#: A 律詩's middle couplet is called 對仗不工 (and 聯句切當 finds fault) only below this: the 2% point of the less
#: parallel middle couplet of each 律詩 of 唐詩三百首 (148 poems; 2% 0.079, 3% 0.097, 5% 0.160: scripts/eval_claims.py,
#: "律詩中二聯 對仗 (min)"). The model's own line (``loose_line``, the 10% point over Tang 律詩's middle couplets)
#: told one 律詩 in six of the anthology that it was loose (杜甫's 吳楚東南坼／乾坤日夜浮).
PARALLEL_LOOSE_BELOW = 0.08


def couplet_probs(lines: list[str]) -> list[float]:
    """How well each couplet's two lines hold together (the couplet model; 0.9 at least for one figure in both)."""
    spec = _model()["criteria"].get("couplet")
    probs = []
    for i in range(0, len(lines) - 1, 2):
        p = _logistic(spec, couplet_features(lines[i], lines[i + 1])) if spec else 0.5
        probs.append(max(p, 0.9) if same_figure(lines[i], lines[i + 1]) else p)
    return probs


def _couplet_criterion(lines: list[str]) -> dict[str, Any]:
    """聯句切當: in a 律詩 the 頷聯 and 頸聯 are parallel (對仗); in other poems each couplet's lines hold together."""
    if is_lushi(lines):
        names = ("頷聯", "頸聯")
        pairs = ((lines[2], lines[3]), (lines[4], lines[5]))
        probs = [couplet_parallel(a, b) for a, b in pairs]
        score = float(np.mean(probs))
        weak = [(n, a, b) for n, p, (a, b) in zip(names, probs, pairs) if p < PARALLEL_LOOSE_BELOW]
        if not weak:  # the praise of 工整 only where both couplets reach the model's own line
            return _crit(score, couplet_praise(names, pairs, exact=min(probs) >= loose_line()), fault=False)
        parts = "；".join(f"{n}「{a}／{b}」{couplet_fault(a, b)}" for n, a, b in weak)
        return _crit(score, parts + "（律詩中二聯須對仗）。", fault=True)
    if len(lines) < 2:
        return _crit(None, "只有一句，不成聯。")
    probs = couplet_probs(lines)
    score = float(np.mean(probs))
    k = int(np.argmin(probs))
    if probs[k] < COUPLET_LOOSE_BELOW:
        return _crit(score, f"非律詩，不要求對仗；但「{lines[2 * k]}／{lines[2 * k + 1]}」上下句不甚相屬。", fault=True)
    return _crit(score, "非律詩，不要求對仗；各聯上下句" + ("相承。" if score >= 0.6 else "大體相承。"), fault=False)


#: How much of 貼題 the title's characters written in the body can carry when nothing else in the poem
#: answers the title: 貼題 is the title calibrator's probability times 1 − s·(1 − RESCUE_FLOOR)·(1 − b), s the
#: share of the title's subject characters the body writes and b the probability that they are backed by
#: the rest of the poem (chosen on corpus dev data: see docs/BENCHMARKS.md, issue 14, title14).
RESCUE_FLOOR = 0.5


def relevance(f: dict[str, float]) -> tuple[float, float | None]:
    """貼題 from the features: (score, how far the title's characters that the body writes are backed by the
    rest of the poem, None when the body writes none of them).

    The calibrator learns the poem's own title against another poem's; a jumble titled with one of its own
    words would pass it on the shared characters, so they count fully only as far as the rest of the poem
    answers the title too (the rescue calibrator: real poems against such jumbles).
    """
    crit = _model()["criteria"]
    p = _logistic(crit["relevance"], f)
    if f["rel_shared"] <= 0 or "relevance_rescue" not in crit:
        return p, None
    backed = _logistic(crit["relevance_rescue"], f)
    return p * rescue_factor(f["rel_shared"], backed), backed


def rescue_factor(shared: float, backed: float) -> float:
    """The share of 貼題 kept when ``shared`` of the title's characters are written in the body and they are
    backed by the rest of the poem with probability ``backed`` (RESCUE_FLOOR when all are shared, none backed).

    >>> rescue_factor(1.0, 0.0), rescue_factor(0.5, 0.0), rescue_factor(1.0, 1.0)
    (0.5, 0.75, 1.0)
    """
    return 1.0 - shared * (1.0 - RESCUE_FLOOR) * (1.0 - backed)


# --- a poem ----------------------------------------------------------------------------------------


def _read_poem(text: str, title: str | None) -> tuple[ParsedPoem, list[str], str | None]:
    """Parse the poem once: (the parsed poem, its lines, the title given or else the one in the text)."""
    if text is not None and len(text) > MAX_LENGTH:
        raise MalformedPoemError(f"文字太長：最多 {MAX_LENGTH} 字，現有 {len(text)} 字。")
    parsed = parse_poem(text)
    lines = [x for x in parsed.lines if x]
    if len(lines) > MAX_LINES:
        raise MalformedPoemError(f"詩句太多：最多 {MAX_LINES} 句，現有 {len(lines)} 句。")
    if title is None:
        title = parsed.title
    return parsed, lines, (title or "").strip() or None


def measure_poem(text: str, title: str | None = None, hand: str | None = None, form: str | None = None,
                 rhyme_book: str = "pingshui") -> tuple[list[str], str | None, dict[str, dict[str, Any]], str | None]:
    """The criteria of a poem: (lines, title, {name: {score, explanation}}, form name); ``form``: the
    declared form and ``rhyme_book`` the round's book, which 體不失 and 平仄和暢 judge it by (its faults
    are the editor's).

    >>> from poetry.grading import CRITERIA
    >>> lines, title, criteria, form = measure_poem("國破山河在，城春草木深。感時花濺淚，恨別鳥驚心。", "春望")
    >>> form, sorted(criteria) == sorted(CRITERIA)
    ('五言絕句', True)
    """
    written, criteria, form_name = measure_written(text, title, hand, form, rhyme_book)
    return list(written.shown_lines), written.shown_title, criteria, form_name


def _fresh_criterion(d: Diction, fluency: float, lines: list[str], written: GradedText) -> dict[str, Any]:
    """語句清新 from the diction (stock lines, modern words) and 一氣呵成, lowered for stock scenery piled past the
    range of celebrated poems (piling: 詞藻堆砌); ``diction`` carries what the rubric's 意味平平 reads."""
    fresh, explanation = freshness(d, fluency), None
    piled = piling(lines)
    said = explain_piling(piled) if piled is not None else ""
    if piled is not None and piled.probability > piling_level():
        fresh *= PILED_FRESHNESS
        explanation = f"{said}。"
    criterion = _crit(fresh, explanation or explain_fresh(fresh, lines, d))
    criterion["diction"] = {"modern_share": round(d.modern_share, 3), "stock_share": round(d.stock_share, 3),
                            "found": as_written(found_text(d, lines), written),
                            "piled": None if piled is None else round(piled.probability, 4),
                            "piled_found": as_written(said, written),
                            "everyday": None if piled is None else round(piled.everyday, 3)}
    return criterion


def measure_written(text: str, title: str | None = None, hand: str | None = None, form: str | None = None,
                    rhyme_book: str = "pingshui") -> tuple[GradedText, dict[str, dict[str, Any]], str | None]:
    """``measure_poem``, with the poem as every model read it (its canonical lines and title, and as written)."""
    one_blas_thread()  # small products: threads only spin (once per process)
    parsed, _, title = _read_poem(text, title)
    written = read_for_grading(parsed, title)  # every model reads one form of the characters
    lines, title = list(written.lines), written.title
    f = features(lines, title)
    model = _model()
    crit = model["criteria"]
    criteria: dict[str, dict[str, Any]] = {}
    report = _check(parsed, hand, form, rhyme_book)
    criteria["體不失"], criteria["平仄和暢"], form_name = _form_criteria(report, lines)
    for name, faults in _faults_by_criterion(report).items():  # what fails 體不失, 平仄和暢 (rubric caps the 品)
        criteria[name]["faults"] = faults
    ct = clean_title(title)
    festival = None
    if ct:
        parts = read_title(ct)
        # X有感: 貼題 reads whether the poem answers X (旅夜, not 旅夜書懷); 畫X: the thing painted (雞 of 畫雞)
        occasion = parts.occasion
        p, backed = relevance(retitled_features(f, lines, occasion) if occasion else f)
        if parts.painted:  # the painting or the thing painted, whichever the poem answers
            p, backed = max((p, backed), relevance(retitled_features(f, lines, parts.painted)))
        festival = festival_fit(ct, lines)  # 歲時: 元日 answered by 爆竹、屠蘇, 中秋 not by 茱萸、黃花
        p = festival_relevance(p, festival)
        season = season_fit(ct, lines) if festival is None else None  # 四時: 寒夜 not answered by 鳴蟬、火雲
        p = season_relevance(p, season)
        criteria["貼題"] = _crit(p, explain_relevance(p, ct, lines, backed, festival, season))
        if names_an_object(ct):  # 詠X: the thing goes unnamed by convention; the rubric's 離題 line is lower
            criteria["貼題"]["object_title"] = True
    else:
        criteria["貼題"] = _crit(None, "未給題目，不評貼題。")
    short = len(lines) < SHORT_POEM and "coherence_short" in crit
    p = _logistic(crit["coherence_short"] if short else crit["coherence"], f)
    good = criterion_bands()["貫理"][1]
    if p < good and festival is not None and festival.one_subject(len(lines)):  # the day's customs, line after line
        criteria["貫理"] = _crit(good, explain_one_day(festival, len(lines)))
    else:
        criteria["貫理"] = _crit(p, explain_coherence(p, lines, f))
    if ct and (mixed := mixed_days(ct, lines)):  # 節物雜出: several festivals' customs under one's title (rubric: 荒牌)
        criteria["貫理"]["mixed_days"] = as_written(explain_mixed_days(ct, mixed), written)
    elif clash := mixed_seasons(ct, lines):  # 四時雜出: three seasons' things under one's title, or all four (荒牌 too)
        criteria["貫理"]["mixed_days"] = as_written(explain_mixed_seasons(ct, clash), written)
    p = _logistic(crit["ends"], f)
    criteria["首尾貫通"] = _crit(p, explain_ends(p, lines, criteria["貫理"]["score"]))
    criteria["聯句切當"] = _couplet_criterion(lines)
    fluency = _logistic(crit["fluency"], f)
    criteria["一氣呵成"] = _crit(fluency, explain_fluency(fluency, lines))
    d = diction(lines)  # stock lines and modern words: what 意味平平 is made of (the rubric reads ``diction``)
    criteria["語句清新"] = _fresh_criterion(d, fluency, lines, written)
    for c in criteria.values():
        c["explanation"] = as_written(c["explanation"], written)
    return written, criteria, form_name
