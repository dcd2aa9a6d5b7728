"""A title read into its topical part, its formulas (次韻, 和, 見寄, 道中, 絕句), its addressee (子由, 杜少府), the
places it names (三衢, 真州, 淨慈寺) and its dates (己亥, 十一月四日).

Song titles are often occasion formulas that say little of the poem's matter: 次韻子由, 和王鞏見寄, 送張十二之官洛陽.
貼題 should read what the title asks the poem to treat — the place and the matter (洛陽, 南遷, 雪) — and not the
person's name, whose rare characters the title statistics overrate, nor the formula. A title that is only formula
and name asks little, like 無題.

The patterns are the tradition's (the formulas and offices listed here); the surnames are learned from 全唐詩's titles
by scripts/build_title_names.py (data/title_names.json). A verb of address (和, 同, 陪, 過 …) is a formula only when
a person follows it; the words of the occasion (送, 寄, 懷, 哭, 之官) are the matter and stay in the topic (a farewell,
a letter, a mourning).

A place or a date asks nothing specific of the body either (issue 14, title14b): 三衢道中 and 真州絕句 are a
journey's and a stay's record, 十一月四日風雨大作 asks for the storm, not the day. The places are learned from
全唐詩's titles (data/title_names.json: place-shaped names that the bodies of their poems seldom write, and the
suffixes of districts, 州 縣 …); a name before 道中/途中 and what a leading 題/書 writes on (題西林壁, 書湖陰先生壁)
are places by the pattern; a year (己亥, 元和十年) and a day (十一月四日) are dates, but not a festival's
(九月九日, 七月七日: the feast is the matter). The combined score scales 貼題 by what the rest asks
(``measures.title_demand``), the rubric's 離題 reads it, and 貼題's explanation names only the rest's words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from poetry.data import load_json

#: 排行 and numbering digits (李十二, 元二).
RANK = "一二三四五六七八九十"
#: Formulas that make the poem a feeling's record (秋夜將曉出籬門迎涼有感, 觀書有感): what the title writes before
#: them is the feeling's occasion, which the poem need not describe (陸游 writes the lost north, not the dawn walk).
FEELING_FORMULAS = ("有感", "感懷", "書懷", "述懷", "遣懷", "抒懷", "有懷", "感事", "書感", "感興", "寓懷", "感賦")
#: Formulas of the occasion that are never the matter: rhyme-matching, answering, the emperor's command, the
#: suffixes of a received poem (見寄), of a poem's making (之作) and of a journey to office (之官).
PURE_FORMULAS = tuple(("再次韻 復次韻 追次韻 次韻 和韻 依韻 用前韻 再用前韻 復用前韻 再用韻 用韻 疊前韻 疊韻 前韻 "
                       "其韻 原韻 元韻 奉和 奉酬 奉答 奉寄 奉送 奉贈 奉呈 奉陪 追和 再和 復和 和答 酬答 見寄 "
                       "見贈 見示 見和 見懷 見招 見訪 見過 見邀 見答 見酬 見貽 之作 所作 有作 走筆 以詩 之官 "
                       "之任 赴任 赴官 赴闕 還朝 聖製 御製 聖制 御制 應制 應教 應令 唱和 寄贈 戲贈 戲答 戲呈 "
                       "戲作 戲題 口占 席上 同賦 分韻 分題 得字 道中 途中 絕句 雜詩 雜興 雜感 即事 即景 即目 偶成 "
                       "偶題 偶作 書事 口號 漫興 漫成 縱筆 漫書 偶書 雜詠 雜題 雜言 雜賦 長句").split()) \
    + FEELING_FORMULAS
#: Formulas and verbs of address that tell the occasion, and so the matter (a farewell, longing, a mourning, a
#: journey to office): read as topic, while the names beside them are not. A letter or a gift to a person (寄黃幾復,
#: 贈汪倫) asks no subject of its own (title14b): 寄 and 贈 before a person are formulas.
OCCASIONS = frozenset(("送 別 留別 懷 憶 哭 挽 輓 餞 弔 寄懷 懷寄 之官 之任 赴任 赴官 赴闕 還朝").split())
#: Formulas of the poem's kind or making, not of an occasion with a person: 道中, 絕句, and the 題/書 of 題西林壁.
GENRE_FORMULAS = frozenset(("道中 途中 絕句 雜詩 雜興 雜感 即事 即景 即目 偶成 偶題 偶作 書事 口號 漫興 漫成 縱筆 "
                            "漫書 偶書 雜詠 雜題 雜言 雜賦 長句 題 書 壁 邸 店").split() + list(FEELING_FORMULAS))
#: Formulas a person follows (次韻子由, 奉和聖製 has none): the only place a name without a surname is read.
ADDRESSING = frozenset(("再次韻 復次韻 追次韻 次韻 和韻 依韻 奉和 奉酬 奉答 奉寄 奉送 奉贈 奉呈 奉陪 追和 再和 "
                        "復和 和答 酬答 寄贈 戲贈 戲答 戲呈 和 答 荅 酬").split())
#: Verbs of address: a formula when a person follows (送張十二), the matter otherwise (送春, 懷古, 別離).
ADDRESS_VERBS = tuple(("留別 寄懷 懷寄 和 答 荅 酬 寄 送 贈 呈 簡 示 謝 別 懷 憶 哭 挽 輓 同 陪 招 訪 過 "
                       "與 逢 喜 餞 遇 邀 約 弔 問 題 柬").split())
#: Offices, honorifics and kin that name a person in a title (王少府, 崔明府, 無可上人, 舍弟).
OFFICES = tuple(("中書舍人 中書 門下 給事中 明府 少府 使君 侍郎 學士 判官 員外 秀才 處士 上人 道士 禪師 "
                 "法師 郎中 舍人 司馬 參軍 主簿 縣令 太守 刺史 相公 中丞 大夫 尚書 侍御 補闕 拾遺 給事 "
                 "校書 正字 博士 少尹 長史 錄事 司戶 評事 御史 山人 先生 居士 侍中 僕射 將軍 鍊師 尊師 "
                 "明公 長老 和尚 道人 隱者 推官 通判 知縣 知州 教授 提刑 提舉 運使 轉運 安撫 制置 宣撫 "
                 "寺丞 待制 修撰 侍講 直講 內翰 翰林 承旨 樞密 參政 丞相 太尉 節推 察推 簽判 機宜 監丞 "
                 "主管 知府 大卿 少卿 正言 司業 祭酒 龍圖 直閣 殿院 察院 都官 職方 提幹 使者 屯田 帥 丈 兄 弟 "
                 "姪 侄 叔 公 君 生 師 翁 老 守 令 丞 尉 宰 倅 卿").split())
#: Kin and company that name the person addressed without a name (舍弟, 諸公, 友人; a wife 內, 內人, 細君 and a
#: husband 外, as 李白《寄內》, 白居易《贈內》: the letter home, whose matter is the poem's to choose).
KIN = tuple(("舍弟 家兄 從兄 從弟 從姪 族姪 族兄 族弟 諸公 諸友 諸君 友人 二子 兒子 兒輩 子姪 內子 "
             "內人 細君 山妻 老妻 外甥 外孫 弟妹 兒 人 內 外").split())
#: Honorifics a name without a surname goes before (湖陰先生, 東坡居士, 無可上人).
HONORIFICS = ("先生", "居士", "處士", "上人", "山人", "禪師", "法師", "道人", "道士", "和尚", "長老")
#: Suffixes of place names (蘇州, 慈恩寺, 終南山); scripts/build_title_names.py learns which names are places.
PLACE_SUFFIXES = "州縣郡邑寺觀院宮驛館亭樓閣臺堂山峰嶺谷洞溪江湖川浦渚洲灘峽陵城關橋渡津鎮村塔"
#: Characters a place's name part does not hold: verbs of travel and of address, function words, seasons and
#: times, the words that make a common noun of a suffix (山寺, 野亭, 故宮, 新樓), the characters of offices and
#: kin (將軍山, 處士山, 舍弟觀) and the suffixes themselves (州城, 寺閣).
NOT_IN_NAME = frozenset("之於在自向與及題書望上下中前後裏外諸僧人家居重春夏秋冬晨曉晚暮夜日月年歲時朝寒食節"
                        "新舊故古小大野遠近高詠賦得讀看建置拜祠幸次泊至到罷行畫遊登宿過入出還歸赴發經尋憶懷"
                        "思送寄贈別辭泛遇渡訪歌公士師氏尚子學將軍弟舍主府兄叔姪生老翁君知祭貶詩誇造住按投游"
                        "補闕正字丞兩") | frozenset(PLACE_SUFFIXES)
#: What a leading 題 or 書 is written on: the title is the place of writing (題西林壁, 題臨安邸, 書湖陰先生壁).
WRITTEN_ON = "壁邸店齋軒屋舍院寺樓閣堂館宅"
#: Dates: a year of the cycle (己亥), an era's year (元和十年), a month and its day (十一月四日).
_DATE = re.compile("[甲乙丙丁戊己庚辛壬癸][子丑寅卯辰巳午未申酉戌亥][年歲]?"
                   "|[^一二三四五六七八九十]{2}(?:元|[一二三四五六七八九十]{1,3})年"
                   "|閏?(?:正|臘|[一二三四五六七八九十]{1,3})月(?:[初]?[一二三四五六七八九十廿]{1,3}日)?")
#: Festivals written as dates: the feast is the matter (九月九日憶山東兄弟, 正月十五夜).
FEASTS = ("正月十五", "正月一日", "三月三日", "五月五日", "七月七日", "七月十五", "八月十五", "九月九日")


@dataclass(frozen=True)
class TitleParts:
    """A title read: ``topic``, what it asks the poem to treat (the occasion's words, the place, the matter);
    ``formula``, the formulas it writes that name no matter; ``addressee``, the persons it names."""

    topic: str
    formula: tuple[str, ...] = ()
    addressee: tuple[str, ...] = ()
    places: tuple[str, ...] = ()
    dates: tuple[str, ...] = ()
    occasion: str = ""  #: before a formula of feeling (FEELING_FORMULAS): what moved the poet, not the matter

    @property
    def named(self) -> tuple[str, ...]:
        """Everything the title writes that asks nothing of the body: formulas, persons, places, dates, and the
        occasion of a feeling."""
        return self.formula + self.addressee + self.places + self.dates + ((self.occasion,) if self.occasion else ())

    @property
    def asked(self) -> str:
        """What a poem answers of the title: its topic, or a feeling's occasion (X of X有感), which it may answer."""
        return self.topic or self.occasion

    @property
    def painted(self) -> str:
        """The thing painted, for a 題畫 title (畫雞 → 雞, 寒林圖 → 寒林), else "": what 貼題 reads the poem against."""
        return self.topic if self.formula[-1:] in (("畫",), ("圖",)) else ""

    @property
    def asks_little(self) -> bool:
        """Only formula and names: the title asks for no subject (like 無題)."""
        return not self.topic


@cache
def _surnames() -> frozenset[str]:
    """The surnames data/title_names.json learned from Tang titles."""
    return frozenset(load_json("title_names.json")["surnames"])


@cache
def _places() -> tuple[frozenset[str], str, str]:
    """(the places data/title_names.json learned from Tang titles, the suffixes of districts, the suffixes whose
    two-character names are places)."""
    data = load_json("title_names.json")
    return frozenset(data.get("places", ())), data.get("district_suffixes", ""), data.get("name_suffixes", "")


def _named(name: str) -> bool:
    """A name part: no character of NOT_IN_NAME nor a 排行."""
    return not any(ch in NOT_IN_NAME or ch in RANK for ch in name)


def _place_at(title: str, i: int) -> int:
    """The end of a place named at i (i when none): a learned place (三字 first), a name of a suffix whose names
    are places (淨慈寺; 真州, a district), or the name before 道中/途中 (三衢道中: a numeral may begin it)."""
    known, districts, suffixes = _places()
    for n in (3, 2):
        if title[i:i + n] in known and not title.startswith(_TUNES, i + n):
            return i + n
    for n, kinds in ((3, suffixes), (2, districts)):
        if (i + n <= len(title) and title[i + n - 1] in kinds and _named(title[i:i + n - 1])
                and not title.startswith(_TUNES, i + n)):
            return i + n
    for n in (3, 2, 1):
        name = title[i:i + n]
        if len(name) == n and title.startswith(("道中", "途中"), i + n) and not any(ch in NOT_IN_NAME for ch in name):
            return i + n
    return i


#: A count of poems or of rhymes (二絕, 十章, 四韻; 一首 left by clean_title): a formula of the set, not its matter.
_COUNT = re.compile("[一二三四五六七八九十百]+(?:絕句|首|章|篇|絕|韻)")
#: Rhyming a person's poem, the person between the verb and 韻 (次黄日巖韻, 次勾景山見寄韻, 和曹東谷韻).
_RHYMES_OF = re.compile("(次|和|用|依|步|追和|追次)(.{2,3}?)(?:見寄|見贈|見示|見和)?詩?韻")


def _holds_title_word(text: str) -> bool:
    """Whether two characters of ``text`` make a word of Tang titles (梅花 of 和梅花韻: a poem's matter, not a name).

    >>> _holds_title_word("梅花"), _holds_title_word("黄日巖")
    (True, False)
    """
    return any(_is_title_word(text[k:k + 2]) for k in range(len(text) - 1))


def _rhymes_of(title: str, formulas: list[str], persons: list[str]) -> int:
    """The end of a leading 次X韻 (rhyming X's poem: the formula and the person added), or 0.

    >>> formulas, persons = [], []
    >>> _rhymes_of("次黄日巖韻", formulas, persons), formulas, persons
    (5, ['次韻'], ['黄日巖'])
    """
    m = _RHYMES_OF.match(title)
    if not m or _holds_title_word(m.group(2)):
        return 0
    formulas.append(m.group(1) + "韻")
    persons.append(m.group(2))
    return m.end()


def _set_formula_at(title: str, i: int, addressed: bool) -> int:
    """The end of a formula of the set at i (i when none): a count of poems after the matter (二絕, 十章), or a
    closing 韻 after a formula or a person (``addressed``: 和曹東谷韻, the rhymes of the person's poem)."""
    m = _COUNT.match(title, i) if i else None
    if m:
        return m.end()
    return i + 1 if addressed and title[i:] == "韻" else i


#: What makes a place's name a tune's (涼州詞, 伊州歌, 甘州曲): the tune's place is its matter (the frontier).
_TUNES = tuple("詞歌曲行引吟樂謠")


def _date_at(title: str, i: int) -> int:
    """The end of a date written at i (i when none, or when it is a feast's: 九月九日)."""
    m = _DATE.match(title, i)
    if not m or title.startswith(FEASTS, i):
        return i
    return m.end()


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
    """A two-character word that Tang titles use (梅花, 苦寒: grading_title_words.npz's ``parse_words``, learned
    from 全唐詩's titles even when the 貼題 tables also learn Song titles), so not a name."""
    from poetry.grading.title_meaning import _title_words

    return _is_word(text) and text in _title_words().parse_words


def _is_surname_word(text: str) -> bool:
    """A surname and one character that make a word of Tang titles (梅花, 白雲): not read as a person."""
    return text[0] in _surnames() and text[1] not in RANK and _is_title_word(text)


@lru_cache(maxsize=1024)
def read_title(title: str) -> TitleParts:
    """Parse a clean title (``clean_title``: Han characters, no numbering) into its topical part, its formulas
    and the persons it addresses.

    >>> read_title("次韻子由")
    TitleParts(topic='', formula=('次韻',), addressee=('子由',), places=(), dates=(), occasion='')
    >>> read_title("送杜少府之任蜀州")
    TitleParts(topic='送之任', formula=(), addressee=('杜少府',), places=('蜀州',), dates=(), occasion='')
    >>> read_title("和王鞏見寄").asks_little
    True
    >>> read_title("次韻王定國南遷回見寄").topic
    '南遷回'
    >>> read_title("和子由澠池懷舊"), read_title("送友人").topic
    (TitleParts(topic='澠池懷舊', formula=('和',), addressee=('子由',), places=(), dates=(), occasion=''), '送')
    >>> read_title("送元二使安西").addressee, read_title("送元二使安西").topic
    (('元二',), '送使安西')
    >>> read_title("黃鶴樓送孟浩然之廣陵").topic
    '黃鶴樓送'
    >>> read_title("送春").topic, read_title("懷古").topic, read_title("題西林壁").topic, read_title("和梅花").topic
    ('送春', '懷古', '', '梅花')
    >>> read_title("寄黃幾復")
    TitleParts(topic='', formula=('寄',), addressee=('黃幾復',), places=(), dates=(), occasion='')
    >>> read_title("登高"), read_title("九月九日憶山東兄弟").topic
    (TitleParts(topic='登高', formula=(), addressee=(), places=(), dates=(), occasion=''), '九月九日憶山東兄弟')
    >>> read_title("三衢道中").places, read_title("十一月四日風雨大作")
    (('三衢',), TitleParts(topic='風雨大作', formula=(), addressee=(), places=(), dates=('十一月四日',), occasion=''))
    >>> read_title("秋夜將曉出籬門迎涼有感").occasion, read_title("觀書有感").asks_little
    ('秋夜將曉出籬門迎涼', True)
    """
    formula, verb, _ = _patterns()
    topic: list[str] = []  # characters and occasion words
    formulas: list[str] = []
    persons: list[str] = []
    places: list[str] = []
    dates: list[str] = []
    if title[:1] in "題書" and len(title) > 2 and title[-1] in WRITTEN_ON:  # 題西林壁: where the poem was written
        return _written_on(title)
    i = _rhymes_of(title, formulas, persons)  # 次黄日巖韻: the person's rhymes
    while i < len(title):
        m = formula.match(title, i) or (title.startswith(_LEADING, i) and i == 0 and verb.match(title, i))
        if m:
            (topic if m.group() in OCCASIONS else formulas).append(m.group())
            i = _addressee(title, m.end(), persons, formulas) if m.group() in ADDRESSING else m.end()
            continue
        m = verb.match(title, i)
        end = _person_at(title, m.end()) if m else i
        bare = _bare_name_at(title, m) if m and end == m.end() else i
        if i == 0 and (m and m.group() == "題" or title[0] == "書" and len(title) > 1):
            formulas.append(title[0])  # 題菊花, 書憤: the rest is the matter
            i = 1
        elif m and (at := _place_before_person(title, m)) > m.end():  # 寄揚州韓綽判官
            (topic if m.group() in OCCASIONS else formulas).append(m.group())
            places.append(title[m.end():at])
            i = at
        elif m and max(end, bare) > m.end():
            (topic if m.group() in OCCASIONS else formulas).append(m.group())
            if bare > m.end():  # 送林子方: a given name ends the title
                persons.append(title[m.end():bare])
            i = bare if bare > m.end() else _addressee(title, m.end(), persons, formulas)
        elif (named := _titled_person().match(title, i)) is not None:
            persons.append(named.group())
            i = _journey(title, named.end(), formulas)
        elif (end := _set_formula_at(title, i, bool(formulas or persons))) > i:  # 二絕, 十章; the 韻 of 和X韻
            formulas.append(title[i:end])
            i = end
        elif (end := _date_at(title, i)) > i:
            dates.append(title[i:end])
            i = end
        elif (end := _place_at(title, i)) > i:
            places.append(title[i:end])
            i = end
        else:
            topic.append(title[i])
            i += 1
    return _parts(title, topic, formulas, persons, places, dates)


def _parts(title: str, topic: list[str], formulas: list[str], persons: list[str], places: list[str],
           dates: list[str]) -> TitleParts:
    """The TitleParts of what ``read_title`` found in a title: a place alone is the matter, a painting asks the thing
    painted, a feeling's title (X有感) has X for its occasion."""
    if not topic and not formulas and not persons and not dates:  # 終南山, 籌筆驛: the place alone is the matter
        return TitleParts(title)
    painted = _painted("".join(topic))
    if painted:  # 題畫詩: 畫雞, 寒林圖 ask the thing painted
        topic, formulas = [painted], formulas + ["畫" if topic[0] == "畫" else "圖"]
    if topic and title.endswith(FEELING_FORMULAS):  # X有感: X is the feeling's occasion, not its matter
        return TitleParts("", tuple(formulas), tuple(persons), tuple(places), tuple(dates), "".join(topic))
    return TitleParts("".join(topic), tuple(formulas), tuple(persons), tuple(places), tuple(dates))


#: Things 畫 decorates rather than paints (畫船, 畫堂): their titles ask the thing itself.
DECORATED = frozenset("畫船 畫舫 畫舸 畫樓 畫堂 畫閣 畫橋 畫角 畫屏 畫扇 畫眉 畫鼓 畫戟 畫簾 畫燭 畫梁 "
                      "畫欄 畫檻 畫輪 畫圖 畫省 畫錦 畫鷁".split())
#: X圖 that are not paintings (地圖, 河圖), or whose 圖 is the matter (八陣圖).
NOT_PAINTINGS = ("地圖", "河圖", "版圖", "輿圖", "畫圖", "陣圖", "圖圖")


def _painted(topic: str) -> str:
    """The thing painted, when a title's matter is a painting of it (題畫詩: 畫雞 → 雞, 寒林圖 → 寒林), else "".
    A 題畫 poem writes the rooster, seldom the painting.

    >>> _painted("畫雞"), _painted("寒林圖"), _painted("畫船"), _painted("八陣圖"), _painted("畫")
    ('雞', '寒林', '', '', '')
    >>> _painted("觀江上人壁許道寧畫寒林"), _painted("李世南所畫秋景"), _painted("米元暉畫"), _painted("遊畫舫")
    ('寒林', '秋景', '', '')
    """
    if len(topic) >= 2 and topic[0] == "畫" and topic[:2] not in DECORATED:
        return topic[1:]
    if len(topic) >= 3 and topic[-1] == "圖" and not topic.endswith(NOT_PAINTINGS):
        return topic[:-1]
    i = topic.rfind("畫")
    if 0 < i < len(topic) - 1 and topic[i:i + 2] not in DECORATED:  # a painter's 畫 and the thing: 許道寧畫寒林
        return topic[i + 1:]
    return ""


def _written_on(title: str) -> TitleParts:
    """題/書 + a place + what is written on (題西林壁, 書湖陰先生壁, 題破山寺後禪院): the place of writing, a person
    named there with an honorific (湖陰先生) or a surname."""
    inner = title[1:-1] if title[-1] in "壁邸店" else title[1:]
    m = re.search(f"(.{{1,3}}?)(?:{'|'.join(HONORIFICS)})", inner) or _titled_person().search(inner)
    persons = (m.group(),) if m else ()
    place = inner.replace(m.group(), "", 1) if m else inner
    tail = (title[-1],) if title[-1] in "壁邸店" else ()
    return TitleParts("", (title[0],) + tail, persons, (place,) if place else ())


@cache
def _unlisted_person() -> re.Pattern[str]:
    """One or two characters (no NOT_IN_NAME) and an honorific or an office of two characters or more, read as a
    person only right after a formula or verb of address (和珣上人, 戲呈阮使君): a monk's name has no surname, and
    the learned surnames miss rare ones."""
    names = "".join(sorted(NOT_IN_NAME | set(RANK)))
    titles = _alternation(tuple(HONORIFICS) + tuple(o for o in OFFICES if len(o) > 1))
    return re.compile(f"[^{names}]{{1,2}}?(?:{titles})")


#: Characters a bare given name does not hold (NOT_IN_NAME but the kin, honorific and suffix characters: 林子方).
_NOT_IN_PERSON = NOT_IN_NAME - frozenset("公士師氏尚子學弟兄叔姪生老翁君" + PLACE_SUFFIXES)
#: Verbs of address a bare given name may end the title after (送林子方, 寄子由).
_TO_PERSON = frozenset("送寄贈示呈別懷憶哭酬答")


def _place_before_person(title: str, verb: re.Match[str]) -> int:
    """After a verb of address, the end of a place that a person named with a surname follows (寄揚州韓綽判官: the
    letter goes to 韓綽 in 揚州); the verb's end when there is none."""
    i = verb.end()
    end = _place_at(title, i)
    return end if end > i and verb.group() in _TO_PERSON and _titled_person().match(title, end) else i


def _bare_name_at(title: str, verb: re.Match[str]) -> int:
    """After a verb of address, two or three characters that end the title, hold no NOT_IN_NAME character, and are
    neither a word of Tang titles nor a place, as a person without a surname (送林子方); else the verb's end."""
    i = verb.end()
    rest = title[i:]
    if (verb.group() in _TO_PERSON and 2 <= len(rest) <= 3 and not any(ch in _NOT_IN_PERSON for ch in rest)
            and not _is_title_word(rest)
            and _place_at(title, i) == i):
        return len(title)
    return i


def _addressee(title: str, i: int, persons: list[str], formulas: list[str]) -> int:
    """After a formula or a verb of address: the person it addresses, if one is named at i (added to
    ``persons``; a name without a surname only after a formula); the end."""
    end = _person_at(title, i)
    if end == i and formulas[-1] in ADDRESSING:
        end = _no_name_at(title, i)
    if end == i and (m := _unlisted_person().match(title, i)):  # 珣上人, 阮使君: a name the surnames do not know
        end = m.end()
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
