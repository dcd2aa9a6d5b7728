"""Build the fix-suggestion table of the checker from the 全唐詩 corpus.

    python scripts/build_suggestions.py [--corpus ../shared/corpus] [--out data/suggest_bigrams.tsv]
                                        [--words data/suggest_words.tsv]

The checker (poetry/checker.py) ranks the characters it offers for a faulty position by how well they fit
their neighbours in Tang verse: a smoothed bigram model, P(c | left neighbour) · P(right neighbour | c),
within the line. This script counts what it needs and writes one row per character:

    char  count  as_left  as_right  as_partner  followers  predecessors  partners

``count`` is the character's frequency in the lines, ``as_left`` / ``as_right`` how often it opens / closes
an adjacent pair inside a line, ``followers`` the characters seen right after it (``清12 邊8 …``: a
character then its count, most frequent first) and ``predecessors`` those seen right before it.
``partners`` are the characters facing it at the same place in the other line of a couplet (對仗:
風急 / 渚清), over couplets of two five- or seven-character lines, ``as_partner`` how often it faces one.
Pairs seen fewer than MIN_PAIR times (partners: MIN_PARTNER) are dropped, and characters seen fewer than
MIN_CHAR times.

Cleaning: editorial notes in parentheses (also across paragraphs), ``[字]`` brackets and ``□`` gaps break
the line (no pair is counted across them); anything not a CJK ideograph goes. The corpus' wrong
traditional forms are repaired only where the context is clear (鬆 → 松 except in 蓬鬆-like words for
loose hair, 徵人/遠徵 → 征人/遠征, 幹坤 → 乾坤, 萬裏/千裏 … → 萬里/千里); 裏 (inside) and 徵 (宮徵, 徵君)
are right in most of their uses and stay.

Words (data/suggest_words.tsv): the adjacent pairs of the counted lines seen at least MIN_WORD times
whose simplified form (OpenCC t2s) is a word of jieba's dictionary (poetry.themes.tokenizer), with their
counts: the suggestions prefer a char that makes a real word with its neighbour (人家, not 殺人).

Held out (never counted), so that scripts/eval_suggestions.py measures on poems the table has not seen:
every poem of 唐詩三百首 (a corpus poem whose normalised text equals an anthology poem's, half of whose
lines are lines of one anthology poem, or that shares a line with an anthology poem of the same author),
and a development split for tuning: every third poem of four or eight lines of the grading's calibration split
(scripts/build_grading.py), which the character LMs (data/lm_chars*.npz) never saw either, so the weights
of table, LMs and words are tuned on poems none of them knows.
A rebuild from the same corpus gives the same files; it takes about a minute on one core.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from scripts import tang_corpus  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"
DEFAULT_OUT = ROOT / "data" / "suggest_bigrams.tsv"

MIN_PAIR = 2
MIN_PARTNER = 3
MIN_CHAR = 2
MIN_WORD = 3
DEV_EVERY = 3  # every third of them: about as many as the table held out before (1,145)
DEFAULT_WORDS = ROOT / "data" / "suggest_words.tsv"

_NOTE = re.compile(r"[（(][^（）()]*[）)]")
_NOTE_ACROSS = re.compile(r"[（(][^）)]*[）)]", re.S)
_BRACKET = re.compile(r"[\[［][^\]］]*[\]］]")
_LINE_SPLIT = re.compile(r"[，。？！；：、,.?!;:\s]+")
_NOT_HAN = re.compile(r"[^\u3400-\u4dbf\u4e00-\u9fff]+")
#: context-bound repairs of the corpus' conversion faults (each (pattern, replacement) on a line)
_REPAIRS = (
    (re.compile(r"(?<![蓬鬅髻梳輕薄鬆])鬆(?!鬆)"), "松"),
    (re.compile(r"徵(?=[人夫途馬帆衣鴻鞍蓬戍客])"), "征"),
    (re.compile(r"(?<=[遠長西東南北出])徵"), "征"),
    (re.compile(r"幹(?=坤)"), "乾"),
    (re.compile(r"(?<=[萬千百十數幾])裏"), "里"),
)


def clean_lines(paragraphs: list[str]) -> list[list[str]]:
    """The lines of a poem, each a list of segments (a gap, bracket or stray mark splits a line).

    >>> clean_lines(["渚清沙白鳥飛回(一作：廻)，萬[里]悲秋□作客。"])
    [['渚清沙白鳥飛回'], ['萬', '悲秋', '作客']]
    """
    text = "\n".join(paragraphs)
    previous = None
    while previous != text:
        previous, text = text, _NOTE.sub("", text)
    text = _NOTE_ACROSS.sub("", text)
    text = _BRACKET.sub("|", text)
    lines = []
    for part in _LINE_SPLIT.split(text):
        segments = [s for s in _NOT_HAN.split(part) if s]
        if segments:
            fixed = []
            for seg in segments:
                for pattern, repl in _REPAIRS:
                    seg = pattern.sub(repl, seg)
                fixed.append(seg)
            lines.append(fixed)
    return lines


def plain_lines(poem: list[list[str]]) -> list[str]:
    """Lines of a cleaned poem with no gap in them (for matching and evaluation)."""
    return ["".join(line) for line in poem]


def load_corpus(corpus: Path) -> list[dict]:
    """全唐詩, every poem kept (its index is its place in the corpus), cleaned by clean_lines."""
    return tang_corpus.load_tang(corpus, clean_lines, keep_empty=True)


def load_anthology(corpus: Path) -> list[dict]:
    """唐詩三百首 with the anthology's form labels, cleaned like the corpus."""
    return tang_corpus.load_anthology(corpus, clean_lines)


def held_out(poems: list[dict], anthology: list[dict]) -> set[int]:
    """Indices of corpus poems that are (versions of) anthology poems: same normalised text, half of
    their lines lines of one anthology poem, or a line shared with an anthology poem by the same poet."""
    texts = {"".join(plain_lines(p["lines"])) for p in anthology}
    owner: dict[str, set[int]] = defaultdict(set)
    for j, p in enumerate(anthology):
        for line in plain_lines(p["lines"]):
            if len(line) >= 4:
                owner[line].add(j)
    held = set()
    for i, poem in enumerate(poems):
        lines = plain_lines(poem["lines"])
        if not lines:
            continue
        if "".join(lines) in texts:
            held.add(i)
            continue
        shared = Counter(j for line in lines for j in owner.get(line, ()))
        if not shared:
            continue
        if shared.most_common(1)[0][1] * 2 >= len(lines):
            held.add(i)
        elif any(anthology[j]["author"] == poem["author"] for j in shared):
            held.add(i)  # another version of it by the same poet, or a poem quoting it in part
    return held


def lm_unseen(corpus: Path) -> set[str]:
    """Corpus ids of the poems of four or eight lines that the grading's LMs never saw (its calibration
    split; scripts/build_grading.py's own reading of the corpus and its own seeded draw)."""
    from scripts import build_grading as grading

    poems = grading.load_corpus(corpus)
    held = grading.heldout_matches(poems, grading.load_anthology(corpus))
    _, calib = grading.split_corpus(poems, held)
    return {poems[i]["id"] for i in calib if len(poems[i]["lines"]) in (4, 8)}


def split(poems: list[dict], anthology: list[dict], dev_ids: set[str]) -> tuple[list[int], list[int], set[int]]:
    """(training indices, development indices, held-out anthology matches); the development poems are
    every DEV_EVERY-th of those of ``dev_ids`` (lm_unseen) not held out."""
    held = held_out(poems, anthology)
    rest = [i for i in range(len(poems)) if i not in held]
    dev = [i for i in rest if poems[i]["id"] in dev_ids][::DEV_EVERY]
    dev_set = set(dev)
    return [i for i in rest if i not in dev_set], dev, held


def words_of(pairs: Counter) -> list[tuple[str, int]]:
    """Adjacent pairs seen at least MIN_WORD times that jieba's dictionary knows (simplified), most seen first."""
    from poetry.text import to_simplified
    from poetry.themes import tokenizer

    freq = tokenizer().FREQ
    often = sorted(((a + b, n) for (a, b), n in pairs.items() if n >= MIN_WORD), key=lambda t: (-t[1], t[0]))
    simple = to_simplified("\n".join(w for w, _ in often)).split("\n")
    return [(w, n) for (w, n), s in zip(often, simple) if freq.get(s, 0) > 0]


def write_words(words: list[tuple[str, int]], out: Path) -> None:
    with open(out, "w", encoding="utf-8") as fh:
        fh.write("# Words of the checker's suggestions: adjacent pairs of the counted lines of 全唐詩\n"
                 f"# (chinese-poetry, MIT) seen >= {MIN_WORD} times whose simplified form (OpenCC t2s) is in jieba's\n"
                 "# dictionary (MIT); by scripts/build_suggestions.py, the same poems held out.\n"
                 "# word<TAB>count; don't edit.\n")
        fh.writelines(f"{w}\t{n}\n" for w, n in words)


def count(poems: list[dict], train: list[int]) -> tuple[Counter, Counter, Counter]:
    """(char counts, adjacent pairs within a line, facing pairs of couplets, both ways)."""
    unigrams: Counter = Counter()
    pairs: Counter = Counter()
    facing: Counter = Counter()
    for i in train:
        lines = poems[i]["lines"]
        for line in lines:
            for seg in line:
                unigrams.update(seg)
                pairs.update(zip(seg, seg[1:]))
        for k in range(0, len(lines) - 1, 2):
            first, second = lines[k], lines[k + 1]
            if len(first) == 1 and len(second) == 1 and len(first[0]) == len(second[0]) in (5, 7):
                facing.update(zip(first[0], second[0]))
                facing.update(zip(second[0], first[0]))
    return unigrams, pairs, facing


def write_table(unigrams: Counter, pairs: Counter, facing: Counter, out: Path, n_train: int, n_dev: int,
                n_held: int) -> None:
    as_partner: Counter = Counter()
    partners: dict[str, list] = defaultdict(list)
    for (a, b), n in facing.items():
        as_partner[a] += n
        if n >= MIN_PARTNER and unigrams[a] >= MIN_CHAR and unigrams[b] >= MIN_CHAR:
            partners[a].append((n, b))
    as_left: Counter = Counter()
    as_right: Counter = Counter()
    followers: dict[str, list] = defaultdict(list)
    predecessors: dict[str, list] = defaultdict(list)
    for (a, b), n in pairs.items():
        as_left[a] += n
        as_right[b] += n
        if n >= MIN_PAIR and unigrams[a] >= MIN_CHAR and unigrams[b] >= MIN_CHAR:
            followers[a].append((n, b))
            predecessors[b].append((n, a))

    def row(items: list) -> str:
        items.sort(key=lambda t: (-t[0], t[1]))
        return " ".join(f"{c}{n}" for n, c in items)

    chars = sorted((c for c, n in unigrams.items() if n >= MIN_CHAR), key=lambda c: (-unigrams[c], c))
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as fh:
        fh.write("# Fix suggestions of the checker: adjacent-character counts within the lines of 全唐詩\n")
        fh.write("# (chinese-poetry corpus, MIT licence), by scripts/build_suggestions.py."
                 " Auto-generated, don't edit.\n")
        fh.write(f"# poems counted {n_train}; held out: {n_held} 唐詩三百首 matches, {n_dev} development poems"
                 " (4/8-line poems of the grading LMs' calibration split).\n")
        fh.write(f"# tokens {sum(unigrams.values())}; pairs {sum(pairs.values())}, seen >= {MIN_PAIR} kept; "
                 f"facing pairs {sum(facing.values())}, seen >= {MIN_PARTNER} kept.\n")
        fh.write("# char\tcount\tas_left\tas_right\tas_partner\tfollowers (char+count …)\tpredecessors\tpartners\n")
        for c in chars:
            fh.write(f"{c}\t{unigrams[c]}\t{as_left[c]}\t{as_right[c]}\t{as_partner[c]}\t{row(followers.get(c, []))}"
                     f"\t{row(predecessors.get(c, []))}\t{row(partners.get(c, []))}\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--words", type=Path, default=DEFAULT_WORDS)
    args = parser.parse_args(argv)
    poems = load_corpus(args.corpus)
    anthology = load_anthology(args.corpus)
    train, dev, held = split(poems, anthology, lm_unseen(args.corpus))
    unigrams, pairs, facing = count(poems, train)
    write_table(unigrams, pairs, facing, args.out, len(train), len(dev), len(held))
    words = words_of(pairs)
    write_words(words, args.words)
    print(f"{len(words)} words → {args.words} ({args.words.stat().st_size / 1e6:.2f} MB)")
    size = args.out.stat().st_size
    print(f"{len(poems)} poems: {len(train)} counted, {len(dev)} development, {len(held)} held out (唐詩三百首); "
          f"{len(unigrams)} chars, {len(pairs)} pairs → {args.out} ({size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
