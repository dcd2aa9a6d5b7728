"""A title read into its topical part, its formulas (次韻, 和, 見寄) and its addressee (子由, 杜少府).

Song titles are often occasion formulas that say little of the poem's matter: 次韻子由, 和王鞏見寄, 送張十二之官洛陽.
貼題 should read what the title asks the poem to treat — the place and the matter (洛陽, 南遷, 雪) — and not the
person's name, whose rare characters the title statistics overrate, nor the formula. A title that is only formula
and name asks little, like 無題.

The patterns are the tradition's (the formulas and offices listed here); the surnames are learned from 全唐詩's titles
by scripts/build_title_names.py (data/title_names.json). A verb of address (和, 同, 陪, 過 …) is a formula only when
a person follows it; the words of the occasion (送, 寄, 懷, 哭, 之官) are the matter and stay in the topic (a farewell,
a letter, a mourning). The combined score does not use the parse (see docs/BENCHMARKS.md, songtitle14): the rubric's
離題 and 貼題's explanation do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from poetry.data import load_json

#: 排行 and numbering digits (李十二, 元二).
RANK = "一二三四五六七八九十"
#: Formulas of the occasion that are never the matter: rhyme-matching, answering, the emperor's command, the
#: suffixes of a received poem (見寄), of a poem's making (之作) and of a journey to office (之官).
PURE_FORMULAS = tuple(("再次韻 復次韻 追次韻 次韻 和韻 依韻 用前韻 再用前韻 復用前韻 再用韻 用韻 疊前韻 疊韻 前韻 "
                       "其韻 原韻 元韻 奉和 奉酬 奉答 奉寄 奉送 奉贈 奉呈 奉陪 追和 再和 復和 和答 酬答 見寄 "
                       "見贈 見示 見和 見懷 見招 見訪 見過 見邀 見答 見酬 見貽 之作 所作 有作 走筆 以詩 之官 "
                       "之任 赴任 赴官 赴闕 還朝 聖製 御製 聖制 御制 應制 應教 應令 唱和 寄贈 戲贈 戲答 戲呈 "
                       "戲作 戲題 口占 席上 同賦 分韻 分題 得字").split())
#: Formulas and verbs of address that tell the occasion, and so the matter (a farewell, a letter, longing, a
#: mourning, a journey to office): read as topic, while the names beside them are not.
OCCASIONS = frozenset(("送 寄 贈 別 留別 懷 憶 哭 挽 輓 餞 弔 寄懷 懷寄 之官 之任 赴任 赴官 赴闕 還朝").split())
#: Formulas a person follows (次韻子由, 奉和聖製 has none): the only place a name without a surname is read.
ADDRESSING = frozenset(("再次韻 復次韻 追次韻 次韻 和韻 依韻 奉和 奉酬 奉答 奉寄 奉送 奉贈 奉呈 奉陪 追和 再和 "
                        "復和 和答 酬答 寄贈 戲贈 戲答 戲呈 和 答 荅 酬").split())
#: Verbs of address: a formula when a person follows (送張十二), the matter otherwise (送春, 懷古, 別離).
ADDRESS_VERBS = tuple(("留別 寄懷 懷寄 和 答 荅 酬 寄 送 贈 呈 簡 示 謝 別 懷 憶 哭 挽 輓 同 陪 招 訪 過 "
                       "與 逢 喜 餞 遇 邀 約 弔 問 題").split())
#: Offices, honorifics and kin that name a person in a title (王少府, 崔明府, 無可上人, 舍弟).
OFFICES = tuple(("中書舍人 中書 門下 給事中 明府 少府 使君 侍郎 學士 判官 員外 秀才 處士 上人 道士 禪師 "
                 "法師 郎中 舍人 司馬 參軍 主簿 縣令 太守 刺史 相公 中丞 大夫 尚書 侍御 補闕 拾遺 給事 "
                 "校書 正字 博士 少尹 長史 錄事 司戶 評事 御史 山人 先生 居士 侍中 僕射 將軍 鍊師 尊師 "
                 "明公 長老 和尚 道人 隱者 推官 通判 知縣 知州 教授 提刑 提舉 運使 轉運 安撫 制置 宣撫 "
                 "寺丞 待制 修撰 侍講 直講 內翰 翰林 承旨 樞密 參政 丞相 太尉 節推 察推 簽判 機宜 監丞 "
                 "主管 知府 大卿 少卿 正言 司業 祭酒 龍圖 直閣 殿院 察院 都官 職方 提幹 使者 帥 丈 兄 弟 "
                 "姪 侄 叔 公 君 生 師 翁 老 守 令 丞 尉 宰 倅 卿").split())
#: Kin and company that name the person addressed without a name (舍弟, 諸公, 友人).
KIN = tuple(("舍弟 家兄 從兄 從弟 從姪 族姪 族兄 族弟 諸公 諸友 諸君 友人 二子 兒子 兒輩 子姪 內子 "
             "弟妹").split())


@dataclass(frozen=True)
class TitleParts:
    """A title read: ``topic``, what it asks the poem to treat (the occasion's words, the place, the matter);
    ``formula``, the formulas it writes that name no matter; ``addressee``, the persons it names."""

    topic: str
    formula: tuple[str, ...] = ()
    addressee: tuple[str, ...] = ()

    @property
    def asks_little(self) -> bool:
        """Only formula and names: the title asks for no subject (like 無題)."""
        return not self.topic


@cache
def _surnames() -> frozenset[str]:
    """The surnames data/title_names.json learned from Tang titles."""
    return frozenset(load_json("title_names.json")["surnames"])


def _alternation(words: tuple[str, ...]) -> str:
    """A regular-expression alternation of the words, longest first (次韻 before 韻)."""
    return "|".join(sorted(words, key=len, reverse=True))


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """(a pure formula, a verb of address, a person) at a position."""
    surname = f"[{''.join(sorted(_surnames()))}]"
    office = f"(?:{_alternation(OFFICES)})"
    kin = f"(?:{_alternation(KIN)})"
    # a person: a surname with a 排行 (and an office), a surname with an office, a surname and a given name
    # of one or two characters (an office may follow), kin, or an office alone (使君, 上人)
    person = (f"(?:{office})?(?:{kin}?{surname}(?:[{RANK}]+{office}?|{office}|..?{office}?)|{kin}|{office})")
    return (re.compile(_alternation(PURE_FORMULAS)), re.compile(_alternation(ADDRESS_VERBS)), re.compile(person))


#: After a person, these begin the rest of the title: the journey (之 赴 歸 還 使 往 入 出), what they did together
#: (遊 登 宿 飲 泛 觀 宴 過), a suffix (見 韻 作).
_AFTER_PERSON = frozenset("之赴歸還使往入出遊登宿飲泛觀宴過見韻作同於自")
#: Verbs of address that, first in a title, are formulas whoever follows (和 a poem, 答 a letter).
_LEADING = ("和", "答", "荅", "酬")


def _person_at(title: str, i: int) -> int:
    """The end of the person named at i (i when none): the shortest reading that a formula, a verb of address,
    the rest of the title (_AFTER_PERSON), a word (澠池, 南遷: jieba's dictionary) or its end follows, else the
    longest."""
    formula, verb, person = _patterns()
    best = i
    for end in range(i + 1, min(len(title), i + 6) + 1):
        if not person.fullmatch(title, i, end) or (end == i + 2 and _is_surname_word(title[i:end])):
            continue
        best = end
        if (end == len(title) or title[end] in _AFTER_PERSON or formula.match(title, end) or verb.match(title, end)
                or _is_word(title[end:end + 2])):
            return end
    return best


@cache
def _titled_person() -> re.Pattern[str]:
    """A person named anywhere by a surname with a 排行 or an office (韓綽判官, 陸丞, 王十二)."""
    surname = f"[{''.join(sorted(_surnames()))}]"
    long_office = _alternation(tuple(o for o in OFFICES if len(o) > 1))
    office = _alternation(OFFICES)
    return re.compile(f"{surname}(?:[{RANK}]+(?:{office})?|(?:{office})|..?(?:{long_office}))")


def _no_name_at(title: str, i: int) -> int:
    """The end of a name written without a surname (子由, 魯直) right after a formula of address: two
    characters that end the title or that a formula follows (i when none)."""
    formula = _patterns()[0]
    end = i + 2
    if end <= len(title) and (end == len(title) or formula.match(title, end)) and not _is_title_word(title[i:end]):
        return end
    return i


def _is_word(text: str) -> bool:
    """A two-character word of jieba's dictionary (the grading's tokenizer)."""
    from poetry.grading.models import _tokenizer
    from poetry.text import to_simplified

    return len(text) == 2 and bool(_tokenizer().FREQ.get(to_simplified(text)))


def _is_title_word(text: str) -> bool:
    """A two-character word that Tang titles use (梅花, 苦寒: grading_title_words.npz), so not a name."""
    from poetry.grading.title_meaning import _title_words

    return _is_word(text) and text in _title_words().index


def _is_surname_word(text: str) -> bool:
    """A surname and one character that make a word of Tang titles (梅花, 白雲): not read as a person."""
    return text[0] in _surnames() and text[1] not in RANK and _is_title_word(text)


@lru_cache(maxsize=1024)
def read_title(title: str) -> TitleParts:
    """Parse a clean title (``clean_title``: Han characters, no numbering) into its topical part, its formulas
    and the persons it addresses.

    >>> read_title("次韻子由")
    TitleParts(topic='', formula=('次韻',), addressee=('子由',))
    >>> read_title("送杜少府之任蜀州")
    TitleParts(topic='送之任蜀州', formula=(), addressee=('杜少府',))
    >>> read_title("和王鞏見寄").asks_little
    True
    >>> read_title("次韻王定國南遷回見寄").topic
    '南遷回'
    >>> read_title("和子由澠池懷舊"), read_title("送友人").topic
    (TitleParts(topic='澠池懷舊', formula=('和',), addressee=('子由',)), '送')
    >>> read_title("送元二使安西").addressee, read_title("送元二使安西").topic
    (('元二',), '送使安西')
    >>> read_title("黃鶴樓送孟浩然之廣陵").topic
    '黃鶴樓送廣陵'
    >>> read_title("送春").topic, read_title("懷古").topic, read_title("題西林壁").topic, read_title("和梅花").topic
    ('送春', '懷古', '西林壁', '梅花')
    >>> read_title("寄黃幾復")
    TitleParts(topic='寄', formula=(), addressee=('黃幾復',))
    >>> read_title("登高"), read_title("九月九日憶山東兄弟").topic
    (TitleParts(topic='登高', formula=(), addressee=()), '九月九日憶山東兄弟')
    """
    formula, verb, _ = _patterns()
    topic: list[str] = []  # characters and occasion words
    formulas: list[str] = []
    persons: list[str] = []
    i = 0
    while i < len(title):
        m = formula.match(title, i) or (title.startswith(_LEADING, i) and i == 0 and verb.match(title, i))
        if m:
            (topic if m.group() in OCCASIONS else formulas).append(m.group())
            i = _addressee(title, m.end(), persons, formulas) if m.group() in ADDRESSING else m.end()
            continue
        m = verb.match(title, i)
        end = _person_at(title, m.end()) if m else i
        if m and m.group() == "題" and i == 0:
            formulas.append("題")  # 題X壁: the place is the matter
            i = m.end()
        elif m and end > m.end():
            (topic if m.group() in OCCASIONS else formulas).append(m.group())
            i = _addressee(title, m.end(), persons, formulas)
        elif (named := _titled_person().match(title, i)) is not None:
            persons.append(named.group())
            i = _journey(title, named.end(), formulas)
        else:
            topic.append(title[i])
            i += 1
    return TitleParts("".join(topic), tuple(formulas), tuple(persons))


def _addressee(title: str, i: int, persons: list[str], formulas: list[str]) -> int:
    """After a formula or a verb of address: the person it addresses, if one is named at i (added to
    ``persons``; a name without a surname only after a formula); the end."""
    end = _person_at(title, i)
    if end == i and formulas[-1] in ADDRESSING:
        end = _no_name_at(title, i)
    if end == i:
        return i
    persons.append(title[i:end])
    return _journey(title, end, formulas)


def _journey(title: str, i: int, formulas: list[str]) -> int:
    """After a person, 之 (going to: 之廣陵) is a formula."""
    if title.startswith("之", i) and not title.startswith(("之作", "之官", "之任"), i):
        formulas.append("之")
        return i + 1
    return i
