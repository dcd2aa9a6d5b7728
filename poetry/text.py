"""Script conversion and text clean-up (簡 ↔ 繁) shared by the checker, the UI and the themes.

OpenCC does the conversion; converters are built once on first use. ``parse_poem`` turns what a poet
types or pastes into lines of characters ready for the rhyme book::

    >>> poem = parse_poem("《登鹳雀楼》\\n白日依山尽，黄河入海流。欲穷千里目，更上一层楼。")
    >>> poem.title, poem.lines[1], poem.script
    ('登鹳雀楼', '黃河入海流', 'hans')
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from poetry.errors import MalformedPoemError

# --- the limits of what people type ---------------------------------------------------------------

#: Longest poem text accepted (characters, whitespace included), everywhere a poem is typed.
MAX_LENGTH = 2000
#: Longest title of a poem sent for grading alone (a round's poem title is LIMITS["poem_title"]).
MAX_TITLE_LENGTH = 100
#: Length limits (characters) of every field a round stores.
LIMITS = MappingProxyType({
    "title": 40,  # a round's title
    "host_name": 20,
    "name": 20,
    "penalty": 200,
    "poem_title": 40,
    "text": MAX_LENGTH,  # a draft or a submitted poem
    "comment": 1000,  # a grade's comment
})

# --- Han characters --------------------------------------------------------------------------------

#: The Han ideographs: CJK Unified Ideographs and extension A, the compatibility ideographs, and the
#: supplementary and tertiary ideographic planes (extensions B–H and the compatibility supplement).
HAN_RANGES = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x323AF))
#: The same ranges for a regular expression's character class: f"[{HAN_CLASS}]".
HAN_CLASS = "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in HAN_RANGES)
HAN_RE = re.compile(f"[{HAN_CLASS}]")


def is_han(char: str) -> bool:
    """One Han ideograph (the characters a verse line and a tile are made of).

    >>> is_han("山"), is_han("𠀀"), is_han("山水"), is_han("A"), is_han("，")
    (True, True, False, False, False)
    """
    if len(char) != 1:
        return False
    cp = ord(char)
    return any(lo <= cp <= hi for lo, hi in HAN_RANGES)


# --- lines -----------------------------------------------------------------------------------------

#: Punctuation that ends a line of verse (full- and half-width); newlines and spaces split too.
LINE_BREAKS = "，。？！；、,.?!;"
_SPLIT_RE = re.compile(r"[，。？！；、,.?!;\s\u3000]+")
#: Everything that is neither kept nor a line break goes (quotes, letters, digits, ·, 《》 …).
_DROP_RE = re.compile(f"[^{HAN_CLASS}〇□，。？！；、,.?!;\\s\u3000]+")
_BRACKETS = str.maketrans("", "", "[]［］")
#: Editorial notes in parentheses, full- or half-width: 「(明年 一作：年年)」, 「（一作「行」）」.
_NOTE_RE = re.compile(r"[（(][^（）()]*[）)]")
_TITLE_RE = re.compile(r"^\s*([^《，。？！；、,.?!;]*)《([^》]+)》\s*(.*)$")


@cache
def _converter(config: str):
    import opencc  # imported lazily: `import poetry` stays cheap

    return opencc.OpenCC(config)


def to_simplified(text: str) -> str:
    """Traditional → simplified (OpenCC t2s).

    >>> to_simplified("白雲深處有人家")
    '白云深处有人家'
    """
    return _converter("t2s").convert(text)


def to_traditional(text: str) -> str:
    """Simplified → traditional (OpenCC s2t).

    >>> to_traditional("白云深处有人家")
    '白雲深處有人家'
    """
    return _converter("s2t").convert(text)


@cache
def _simplified_table() -> MappingProxyType:
    """Simplified char → its traditional forms (data/variants.tsv rows of kind s2t, from Unihan)."""
    from poetry.data import read_tsv

    return MappingProxyType({row[0]: tuple(row[2].split()) for row in read_tsv("variants.tsv") if row[1] == "s2t"})


@cache
def _script_marks() -> tuple[frozenset[str], frozenset[str]]:
    """(chars only simplified script uses: 东 说; chars only traditional script uses: 東 說), per Unihan."""
    table = _simplified_table()
    simplified = frozenset(c for c, forms in table.items() if c not in forms)
    both = frozenset(c for c, forms in table.items() if c in forms)
    traditional = frozenset(f for forms in table.values() for f in forms) - both - set(table)
    return simplified, traditional


def simplified_only_chars() -> frozenset[str]:
    """Chars only simplified script uses (their traditional forms all differ), per Unihan: a text with
    none of them needs no conversion.

    >>> "东" in simplified_only_chars(), "東" in simplified_only_chars(), "里" in simplified_only_chars()
    (True, False, False)
    """
    return _script_marks()[0]


def traditional_candidates(char: str, chosen: str | None = None) -> tuple[str, ...]:
    """Every traditional form a simplified char may stand for in verse, ``chosen`` (OpenCC's pick) first (after the
    char itself, for a char the scripts write alike), then by use in Tang verse (forms it never uses, such as 家 → 傢,
    are not offered).

    >>> traditional_candidates("干")
    ('乾', '干', '幹')
    >>> traditional_candidates("发", chosen="髮")
    ('髮', '發')
    >>> traditional_candidates("山")
    ('山',)
    >>> traditional_candidates("澄", chosen="澂"), traditional_candidates("背", chosen="揹")
    (('澄', '澂'), ('背', '揹'))
    """
    forms = _simplified_table().get(char)
    if forms is None:  # a char the scripts write alike, which OpenCC's phrases may still turn (澄江 → 澂江, 背人 →
        # 揹人): the char as typed is a 繁 char too and reads first, OpenCC's modern form after it (背 is 仄 in verse)
        return tuple(dict.fromkeys((char, chosen or char)))
    if chosen and chosen in forms:
        return (chosen,) + tuple(f for f in forms if f != chosen)
    return ((chosen,) if chosen else ()) + forms


def blanked(text: str, words: Iterable[str]) -> str:
    """``text`` with each of ``words`` (in the order given) written over by NULs, so that no later word is read
    inside it.

    >>> blanked("冰肌玉骨", ["冰肌"])
    '\\x00\\x00玉骨'
    """
    for word in words:
        if word in text:
            text = text.replace(word, "\0" * len(word))
    return text


def words_written(text: str, words: Iterable[str]) -> list[str]:
    """The ``words`` written in ``text``, each place read once (give them longest first: 鳴蟬 before 蟬), in the
    order the text writes them: how festivals' customs and seasons' signs are found in a poem.

    >>> words_written("鳴蟬聲裏火雲張", ["鳴蟬", "火雲", "蟬"])
    ['鳴蟬', '火雲']
    """
    found, taken = [], text
    for word in words:
        if word in taken:
            found.append(word)
            taken = taken.replace(word, "\0" * len(word))
    return sorted(found, key=text.find)


@cache
def siblings_table() -> MappingProxyType:
    """Traditional char → the other traditional forms its 简体 writes alike (幹 → 乾 干), from the s2t rows."""
    out: dict[str, dict[str, None]] = {}
    for forms in _simplified_table().values():
        if len(forms) > 1:
            for form in forms:
                out.setdefault(form, {}).update(dict.fromkeys(f for f in forms if f != form))
    return MappingProxyType({c: tuple(others) for c, others in out.items()})


def simplified_siblings(char: str) -> tuple[str, ...]:
    """The other traditional forms a traditional char's 简体 stands for: what the same 简体 text may mean. A 繁
    text is read with them as a 简体 one is (OpenCC's 繁 of 简体 泪始干 is 淚始幹, where 李商隱 wrote 淚始乾).

    >>> simplified_siblings("幹"), simplified_siblings("山")
    (('乾', '干'), ())
    """
    return siblings_table().get(char, ())


@dataclass(frozen=True)
class ParsedPoem:
    """A poem cleaned for checking.

    ``lines`` are in traditional characters (simplified input goes through OpenCC s2t, phrase-aware),
    ``original_lines`` the same characters as typed; both have the same shape. ``alternatives`` runs
    parallel to ``lines``: for each char the traditional forms it may stand for, the chosen one first
    (干 in 「一干二净」 → ('乾', '幹', '干')); for traditional input each tuple holds the char alone.
    A checker can merge the readings of all alternatives of a simplified char.
    """

    title: str | None
    lines: tuple[str, ...]
    original_lines: tuple[str, ...]
    script: str  #: "hant" or "hans"
    alternatives: tuple[tuple[tuple[str, ...], ...], ...]

    @property
    def chars(self) -> str:
        """All characters of the body, traditional."""
        return "".join(self.lines)


def strip_notes(text: str) -> str:
    """Remove editorial notes in parentheses (nested ones too) and the [ ] around restored chars.

    >>> strip_notes("明月(明年 一作：年年)照[松]間")
    '明月照松間'
    """
    if "(" in text or "（" in text:
        previous = None
        while previous != text:
            previous, text = text, _NOTE_RE.sub("", text)
    if "[" in text or "［" in text or "]" in text or "］" in text:
        text = text.translate(_BRACKETS)
    return text


#: Notes in any bracket a poet or an edition uses, for split_lines; an edition may open a note in one width and
#: close it in the other, across lines (李益's 「(回樂 / 一作：回樂 / ）」).
_ANY_NOTE_RE = re.compile(r"（[^）]*）|\([^)]*\)|[（(][^（）()]*[）)]|〔[^〕]*〕|【[^】]*】")
#: What separates lines for split_lines: punctuation of either width, quotes, dashes, whitespace.
_BREAK_RE = re.compile(r"[，。？！；、：,.?!;:\s「」『』《》“”\"'‘’—…·・]+")


def split_lines(text: str | None) -> list[str]:
    """The verse lines of a body of text, Han characters only: the light reader for grading and the
    round's rules (``parse_poem`` also finds a title and converts 简体).

    Notes in brackets are dropped, lines split at punctuation and whitespace, anything not Han goes.

    >>> split_lines("白日依山盡，黃河入海流。\\n欲窮千里目（一作「望」），更上一層樓")
    ['白日依山盡', '黃河入海流', '欲窮千里目', '更上一層樓']
    """
    text = _ANY_NOTE_RE.sub("", text or "").replace("[", "").replace("]", "")
    lines = []
    for piece in _BREAK_RE.split(text):
        line = "".join(filter(is_han, piece))
        if line:
            lines.append(line)
    return lines


def _segments(line: str) -> list[str]:
    """Verse lines of one raw line: split on punctuation and spaces, keep Chinese chars (and □) only."""
    return [piece for piece in _SPLIT_RE.split(_DROP_RE.sub("", line)) if piece]


def detect_script(text: str) -> str:
    """"hans" or "hant": chars only simplified script uses (东 说, per Unihan) against chars only
    traditional script uses (東 說); chars of both scripts (里 干 后 尽) decide only when nothing else
    does, by what OpenCC would change.

    >>> detect_script("白云深处有人家"), detect_script("白雲深處有人家"), detect_script("故鄉里")
    ('hans', 'hant', 'hant')
    """
    simplified, traditional = _script_marks()
    n_simplified = sum(map(simplified.__contains__, text))
    n_traditional = sum(map(traditional.__contains__, text))
    if n_simplified == n_traditional:
        # only chars Unihan gives a traditional form count (尽 黄 里), not OpenCC's variant choices (床 → 牀)
        table = _simplified_table()
        han = "".join(c for c in text if c in table)
        n_simplified = sum(a != b for a, b in zip(han, to_traditional(han)))
        n_traditional = sum(a != b for a, b in zip(han, to_simplified(han)))
    return "hans" if n_simplified > n_traditional else "hant"


def _split_title(raw: list[tuple[str, list[str]]]) -> tuple[str | None, list[tuple[str, list[str]]]]:
    """Take a title (and an author line) off the top of (raw line, its segments) pairs: 《…》, or short
    unpunctuated lines of another length than the verse."""
    if not raw:
        return None, raw
    match = _TITLE_RE.match(raw[0][0])
    if match:
        rest = match.group(3)
        body = raw[1:]
        # 「《登高》杜甫」, 「杜甫《登高》」: an author beside the title is dropped; verse after it is kept.
        if rest and any(p in rest for p in LINE_BREAKS):
            body = [(rest, _segments(rest))] + body
        return match.group(2).strip() or None, body
    if len(raw) < 2:
        return None, raw
    body_lengths = Counter(len(s) for _, segs in raw[1:] for s in segs)
    if not body_lengths:
        return None, raw
    typical = body_lengths.most_common(1)[0][0]
    title: str | None = None
    body = raw
    # At most a title and an author line ("杜甫", "唐·杜甫"), each unpunctuated and off the verse length.
    for _ in range(2):
        head, segs = body[0]
        if len(body) < 2 or not segs or any(p in head for p in LINE_BREAKS[:6]):
            break
        if any(len(s) == typical for s in segs):
            break
        if title is None:
            title = " ".join(head.split())
        elif len("".join(segs)) > 8:
            break
        body = body[1:]
    return title, body


def parse_poem(text: str) -> ParsedPoem:
    """Clean a typed or pasted poem: title, punctuation, notes and spaces off; lines split.

    >>> parse_poem("床前明月光，疑是地上霜。").lines
    ('床前明月光', '疑是地上霜')

    Raises MalformedPoemError (Chinese message) for empty text, text without Chinese, a single line
    or more than 2,000 characters.
    """
    if text is None or not text.strip():
        raise MalformedPoemError("沒有輸入詩句：請輸入或貼上一首詩。")
    if len(text) > MAX_LENGTH:
        raise MalformedPoemError(f"文字太長：最多 {MAX_LENGTH} 字，現有 {len(text)} 字。")
    if not HAN_RE.search(text):
        raise MalformedPoemError("沒有找到漢字：請輸入中文詩句。")
    raw = [(line, _segments(line)) for line in strip_notes(text).splitlines() if line.strip()]
    title, body = _split_title(raw)
    original = tuple(seg for _, segs in body for seg in segs)
    if not original:
        raise MalformedPoemError("沒有找到詩句：只有標題或標點。")
    if len(original) < 2:
        raise MalformedPoemError("只有一句：一首詩至少要兩句，請用標點或換行分句。")
    script = detect_script("".join(original))
    if script == "hans":
        lines = _to_traditional_lines(original)
        alternatives = tuple(
            tuple(traditional_candidates(s, t) for s, t in zip(o, line)) for o, line in zip(original, lines)
        )
    else:
        lines = original
        alternatives = tuple(tuple(zip(line)) for line in original)  # ((c,), (c,), …)
    return ParsedPoem(title, lines, original, script, alternatives)


def _to_traditional_lines(lines: tuple[str, ...]) -> tuple[str, ...]:
    """OpenCC s2t of the lines in one call (phrase-aware); char by char for a line whose length changed."""
    converted = to_traditional("\n".join(lines)).split("\n")
    if len(converted) != len(lines):
        converted = [to_traditional(line) for line in lines]
    out = []
    for line, new in zip(lines, converted):
        if len(new) != len(line):
            new = "".join(t if len(t := to_traditional(c)) == 1 else c for c in line)
        out.append(new)
    return tuple(out)
