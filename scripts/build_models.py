"""Build the character vectors of the themes feature from the 全唐詩 corpus.

    python scripts/build_models.py [--corpus ../shared/corpus/quantangshi.jsonl.gz] [--out data/]

Writes data/vectors.npy (float16, one L2-normalised row per character) and data/vectors_vocab.txt
(one character a line, in the same order, most frequent first). Method:

1. Clean each poem: drop editorial notes in parentheses (also when split across paragraphs), `[字]`
   brackets, `□` gaps and anything that is not a CJK ideograph; 鬆 → 松 (a known conversion fault of the corpus).
2. Keep the VOCAB most frequent characters. Build sparse incidence matrices (context × character) for two
   kinds of context: a line (句) and a couplet (聯, one paragraph). The co-occurrence counts are the sum of
   X.T @ X over the two, diagonal dropped. (Whole short poems as a third context made the themes worse on
   the tune half of the gold: ARI 0.48 against 0.57. `--parallel W` adds the same-place pairs of a couplet's
   two lines (對仗: 山/水, 月/風) with weight W; off by default, as W = 1 or 3 gave tune ARI 0.634 / 0.628
   against 0.641 with the final grouping method.)
3. Positive PMI with context-distribution smoothing (α = 0.75), then scikit-learn TruncatedSVD
   (fixed random_state) to DIM dimensions, rows scaled by √σ and L2-normalised.

4. Words (詞) for drafting: two-character sequences of the lines seen at least MIN_WORD_COUNT times whose
   simplified form is a word of jieba's dictionary (through poetry.themes.tokenizer(), the one place that
   imports jieba), written to data/vectors_words.tsv with their corpus counts, most used first.

5. Theme association (data/vectors_themes.npz) for the lexicon data/themes.json: a poem whose title holds
   one of a theme's ``title_keys`` (送 別 餞 → 送別; 塞 從軍 烽 → 邊塞) counts as a poem of that theme (a poem
   may have several). For each character c and theme t, a smoothed PMI over poems:
   log((df(c, t) + S) / (N_t · df(c) / N + S)) with S = ASSOC_SMOOTHING, centred over the themes per
   character; saved as float16 with the theme names (arrays "assoc" rows in the order of
   data/vectors_vocab.txt, and "themes"). `--themes-only` rebuilds just this file (after editing the lexicon).

A rebuild from the same corpus gives the same files. It runs in about a minute on one core.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np
from scipy import sparse
from tqdm import tqdm

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "quantangshi.jsonl.gz"

VOCAB = 6000
DIM = 160
WEIGHTS = {"line": 1.0, "couplet": 1.0, "parallel": 0.0}
MIN_WORD_COUNT = 10
SEED = 20261129
ASSOC_SMOOTHING = 10.0  # pseudo-count of the title association (3 / 10 / 30 alike on the dev gold; 10 best)
EIGEN_POWER = 0.5  # rows are U · Σ^p

_NOTE = re.compile(r"[（(][^（）()]*[）)]")
_BRACKET = re.compile(r"\[[^\]]*\]")
_LINE_SPLIT = re.compile(r"[，。？！；：、,.?!;:]+")
_FIXES = str.maketrans({"鬆": "松"})


def is_han(ch: str) -> bool:
    """A CJK unified ideograph (basic block or extension A)."""
    return "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf"


def clean_poem(paragraphs: list[str]) -> list[list[str]]:
    """Couplets of a poem, each a list of cleaned lines (Han characters only)."""
    text = "\n".join(paragraphs)
    text = _NOTE.sub("", text)
    # a note opened in one paragraph and closed in a later one
    text = re.sub(r"[（(][^）)]*[）)]", "", text, flags=re.S)
    text = _BRACKET.sub("", text).replace("□", "").translate(_FIXES)
    couplets = []
    for para in text.split("\n"):
        lines = ["".join(c for c in part if is_han(c)) for part in _LINE_SPLIT.split(para)]
        lines = [line for line in lines if line]
        if lines:
            couplets.append(lines)
    return couplets


def clean_title(title: str) -> str:
    """A poem's title without notes in parentheses, Han characters only: 送友人（一作送客）→ 送友人."""
    return "".join(c for c in _BRACKET.sub("", _NOTE.sub("", title or "")) if is_han(c)).translate(_FIXES)


def build_theme_assoc(corpus: Path, vocab: list[str], themes_file: Path) -> tuple[list[str], np.ndarray]:
    """(theme names, vocab × themes float32): each character's association with each lexicon theme, learned
    from the poems whose titles mark them as of the theme (step 5 of the module docstring)."""
    lexicon = json.loads(themes_file.read_text(encoding="utf-8"))["themes"]
    names = [t["name"] for t in lexicon]
    keys = [t.get("title_keys", "").split() for t in lexicon]
    index = {ch: i for i, ch in enumerate(vocab)}
    df = np.zeros(len(vocab))
    df_theme = np.zeros((len(vocab), len(names)))
    per_theme = np.zeros(len(names))
    total = 0
    with gzip.open(corpus, "rt", encoding="utf-8") as fh:
        for raw in tqdm(fh, total=57607, desc="theme titles", unit="poem"):
            doc = json.loads(raw)
            poem = clean_poem(doc.get("paragraphs") or [])
            if not poem:
                continue
            ids = sorted({index[c] for couplet in poem for line in couplet for c in line if c in index})
            total += 1
            df[ids] += 1
            title = clean_title(doc.get("title") or "")
            for t, words in enumerate(keys):
                if any(w in title for w in words):
                    per_theme[t] += 1
                    df_theme[ids, t] += 1
    expected = per_theme[None, :] * df[:, None] / max(total, 1)
    assoc = np.log((df_theme + ASSOC_SMOOTHING) / (expected + ASSOC_SMOOTHING))
    assoc -= assoc.mean(axis=1, keepdims=True)
    print("poems marked per theme: " + " ".join(f"{n} {int(k)}" for n, k in zip(names, per_theme)))
    return names, assoc.astype(np.float32)


def write_theme_assoc(corpus: Path, out: Path, themes_file: Path) -> None:
    vocab = (out / "vectors_vocab.txt").read_text(encoding="utf-8").split("\n")
    vocab = [c for c in vocab if c]
    names, assoc = build_theme_assoc(corpus, vocab, themes_file)
    save_npz(out / "vectors_themes.npz", assoc=assoc.astype(np.float16), themes=np.array(names))


def save_npz(path: Path, **arrays: np.ndarray) -> None:
    """Like np.savez, but byte-identical on a rebuild (np.savez stamps each member with the current time)."""
    import io
    import zipfile

    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as zf:
        for name, array in arrays.items():
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.asarray(array), allow_pickle=False)
            zf.writestr(zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0)), buffer.getvalue())


def read_corpus(path: Path) -> list[list[list[str]]]:
    """All poems, cleaned."""
    poems = []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for raw in tqdm(fh, total=57607, desc="reading", unit="poem"):
            poem = clean_poem(json.loads(raw).get("paragraphs") or [])
            if poem:
                poems.append(poem)
    return poems


def incidence(contexts: list[list[int]], n_chars: int) -> sparse.csr_matrix:
    """Binary context × character matrix (a character counts once per context)."""
    rows, cols = [], []
    for i, ids in enumerate(contexts):
        unique = set(ids)
        rows.extend([i] * len(unique))
        cols.extend(unique)
    data = np.ones(len(rows), dtype=np.float32)
    return sparse.csr_matrix((data, (rows, cols)), shape=(len(contexts), n_chars))


def build(corpus: Path, vocab_size: int = VOCAB, dim: int = DIM) -> tuple[list[str], np.ndarray]:
    """Return (vocabulary, float32 vectors) for the corpus."""
    from sklearn.decomposition import TruncatedSVD

    poems = read_corpus(corpus)
    freq = Counter(ch for poem in poems for couplet in poem for line in couplet for ch in line)
    vocab = [ch for ch, _ in sorted(freq.items(), key=lambda kv: (-kv[1], kv[0]))[:vocab_size]]
    index = {ch: i for i, ch in enumerate(vocab)}

    contexts: dict[str, list[list[int]]] = {"line": [], "couplet": [], "parallel": []}
    for poem in tqdm(poems, desc="contexts", unit="poem"):
        for couplet in poem:
            if len(couplet) == 2 and len(couplet[0]) == len(couplet[1]):
                # 對仗: the characters in the same place of the two lines of a couplet (山/水, 月/風)
                for a, b in zip(*couplet):
                    if a != b and a in index and b in index:
                        contexts["parallel"].append([index[a], index[b]])
            couplet_ids = []
            for line in couplet:
                ids = [index[c] for c in line if c in index]
                if ids:
                    contexts["line"].append(ids)
                couplet_ids.extend(ids)
            if couplet_ids:
                contexts["couplet"].append(couplet_ids)

    n = len(vocab)
    counts = sparse.csr_matrix((n, n), dtype=np.float64)
    for kind in tqdm(tuple(WEIGHTS), desc="co-occurrence", unit="kind"):
        if not WEIGHTS[kind]:
            continue
        x = incidence(contexts[kind], n)
        counts = counts + WEIGHTS[kind] * (x.T @ x).astype(np.float64)
    counts = counts.tolil()
    counts.setdiag(0)
    counts = counts.tocsr()
    counts.eliminate_zeros()

    # PPMI with context-distribution smoothing
    row = np.asarray(counts.sum(axis=1)).ravel()
    col = np.asarray(counts.sum(axis=0)).ravel() ** 0.75
    coo = counts.tocoo()
    pmi = np.log(coo.data * col.sum() / (row[coo.row] * col[coo.col]))
    keep = pmi > 0
    ppmi = sparse.csr_matrix((pmi[keep], (coo.row[keep], coo.col[keep])), shape=(n, n))

    with tqdm(total=1, desc="svd", unit="step") as bar:
        svd = TruncatedSVD(n_components=dim, algorithm="randomized", n_iter=7, random_state=SEED)
        u = svd.fit_transform(ppmi)  # = U · Σ
        bar.update(1)
    vectors = u * svd.singular_values_ ** (EIGEN_POWER - 1.0)  # U · Σ^p
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-12
    return vocab, vectors.astype(np.float32)


def build_words(corpus: Path, vocab: list[str]) -> list[tuple[str, int]]:
    """Two-character words of the corpus that jieba's dictionary knows, with their corpus counts."""
    from poetry.text import to_simplified
    from poetry.themes import tokenizer

    known = set(vocab)
    counts: Counter[str] = Counter()
    for poem in read_corpus(corpus):
        for couplet in poem:
            for line in couplet:
                counts.update(line[i : i + 2] for i in range(len(line) - 1))
    freq = tokenizer().FREQ
    words = []
    for word, n in tqdm(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])), desc="words", unit="bigram"):
        if n < MIN_WORD_COUNT:
            break
        if word[0] in known and word[1] in known and freq.get(to_simplified(word), 0) > 0:
            words.append((word, n))
    return words


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--out", type=Path, default=ROOT / "data")
    parser.add_argument("--vocab", type=int, default=VOCAB)
    parser.add_argument("--dim", type=int, default=DIM)
    parser.add_argument("--parallel", type=float, default=WEIGHTS["parallel"],
                        help="weight of the same-place pairs of a couplet's two lines")
    parser.add_argument("--no-words", action="store_true", help="skip data/vectors_words.tsv (experiments)")
    parser.add_argument("--themes", type=Path, default=ROOT / "data" / "themes.json", help="the theme lexicon")
    parser.add_argument("--themes-only", action="store_true",
                        help="rebuild only data/vectors_themes.npz (after editing the lexicon's title_keys)")
    args = parser.parse_args(argv)
    WEIGHTS["parallel"] = args.parallel
    if not args.corpus.exists():
        print(f"corpus not found: {args.corpus}", file=sys.stderr)
        return 1
    if args.themes_only:
        write_theme_assoc(args.corpus, args.out, args.themes)
        return 0
    vocab, vectors = build(args.corpus, args.vocab, args.dim)
    args.out.mkdir(parents=True, exist_ok=True)
    np.save(args.out / "vectors.npy", vectors.astype(np.float16))
    with open(args.out / "vectors_vocab.txt", "w", encoding="utf-8") as fh:
        fh.write("\n".join(vocab) + "\n")
    write_theme_assoc(args.corpus, args.out, args.themes)
    if args.no_words:
        print(f"{len(vocab)} characters × {vectors.shape[1]} dimensions (words skipped)")
        return 0
    words = build_words(args.corpus, vocab)
    with open(args.out / "vectors_words.tsv", "w", encoding="utf-8") as fh:
        fh.write("# word<TAB>count in the lines of 全唐詩; made by scripts/build_models.py, do not edit\n")
        fh.writelines(f"{w}\t{n}\n" for w, n in words)
    size = sum((args.out / name).stat().st_size
               for name in ("vectors.npy", "vectors_vocab.txt", "vectors_words.tsv", "vectors_themes.npz"))
    print(f"{len(vocab)} characters × {vectors.shape[1]} dimensions, {len(words)} words, {size / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
