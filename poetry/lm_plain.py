"""The character trigram LMs of poetry.lm read without numpy, for a few single lookups.

The checker's fix suggestions score a few dozen chars per fault by how their line reads, and
``python -m poetry check`` must load no numpy (tests/test_factory.py). This reads the same files
(data/lm_chars.npz, data/lm_chars_rev.npz: zip archives of .npy arrays) into ``array.array`` and looks a
trigram up by binary search, by the same interpolation as ``poetry.lm.CharLM.logprobs``.
"""

from __future__ import annotations

import math
import sys
from bisect import bisect_left
from functools import cache

#: The LMs' symbols and files: defined here, where no numpy is loaded; poetry.lm takes them from here.
BOS, EOS, UNK = "^", "$", "\ufffd"
LM_FILE, LM_REVERSED_FILE = "lm_chars.npz", "lm_chars_rev.npz"
#: .npy type codes → array.array type codes (the arrays of the LM files)
_TYPES = {"<f4": "f", "<f8": "d", "<i8": "q", "<u2": "H", "<i4": "i"}


class PlainLM:
    """An interpolated Kneser-Ney character trigram model for single lookups (read-only once built).

    >>> lm = load_plain_lm()
    >>> a, b = lm.ids("日"), lm.ids("石")
    >>> lm.logprob(lm.bos, lm.index["白"], a[0]) > lm.logprob(lm.bos, lm.index["白"], b[0])
    True
    """

    def __init__(self, arrays: dict) -> None:
        vocab = arrays["vocab"]
        self.index = {ch: i for i, ch in enumerate(vocab)}
        self.size = len(vocab)
        self.unk, self.bos, self.eos = self.index[UNK], self.index[BOS], self.index[EOS]
        self.p1, self.g1 = arrays["p1"], arrays["g1"]
        self.k2, self.d2, self.g2 = arrays["k2"], arrays["d2"], arrays["g2"]
        self.k3, self.d3 = arrays["k3"], arrays["d3"]

    def ids(self, text: str) -> list[int]:
        """The vocabulary index of each char (unknown chars: UNK)."""
        get, unk = self.index.get, self.unk
        return [get(ch, unk) for ch in text]

    def logprob(self, u: int, v: int, w: int) -> float:
        """log10 P(w | u, v)."""
        V = self.size
        k2, k3 = self.k2, self.k3
        # bigram level: P2(w|v) = d2(v,w) + g1(v) * P1(w)
        key = v * V + w
        pos = bisect_left(k2, key)
        p = (self.d2[pos] if pos < len(k2) and k2[pos] == key else 0.0) + self.g1[v] * self.p1[w]
        # trigram level: P3(w|u,v) = d3(u,v,w) + g2(u,v) * P2(w|v); an unseen context (u,v) keeps P2
        key = u * V + v
        pos = bisect_left(k2, key)
        gamma = self.g2[pos] if pos < len(k2) and k2[pos] == key else 1.0
        key = key * V + w
        pos = bisect_left(k3, key)
        p = (self.d3[pos] if pos < len(k3) and k3[pos] == key else 0.0) + gamma * p
        return math.log10(max(p, 1e-12))


def plain_arrays(name: str, directory: str | None = None) -> dict:
    """The 1-D numeric arrays (``array.array``) and 0-d strings of an .npz data file, read without numpy."""
    import ast
    import zipfile
    from array import array

    from poetry.data import data_path

    out: dict = {}
    with zipfile.ZipFile(data_path(name, directory)) as zf:
        for member in zf.namelist():
            raw = zf.read(member)
            # .npy: magic (6 bytes), version (2), header length (2 bytes in version 1, else 4), header dict
            start = 10 if raw[6] == 1 else 12
            size = int.from_bytes(raw[8:start], "little")
            header = ast.literal_eval(raw[start : start + size].decode("latin-1"))
            body = raw[start + size :]
            descr = header["descr"]
            if descr.startswith("<U"):
                out[member[:-4]] = body.decode("utf-32-le").rstrip("\0")
            elif descr in _TYPES and len(header["shape"]) == 1:
                values = array(_TYPES[descr])
                values.frombytes(body)
                if sys.byteorder != "little":
                    values.byteswap()
                out[member[:-4]] = values
    return out


@cache
def load_plain_lm(directory: str | None = None, reversed: bool = False) -> PlainLM:
    """The PlainLM of data/lm_chars.npz (or the right-to-left one), loaded once."""
    return PlainLM(plain_arrays(LM_REVERSED_FILE if reversed else LM_FILE, directory))
