/*
 * Tiles as the round page draws them: a tile with its 平仄 colour and a tooltip (tone, rhyme group,
 * strokes), and the 平水韻 order the hand and the records sort by.
 */
import { el, fill, readJSON } from "../common.js";

// 平水韻 group order: 上平 一…十五, 下平 一…十五, 上聲, 去聲, 入聲.
const PARTS = ["上平", "下平", "上聲", "去聲", "入聲"];
const DIGITS = { "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9 };

/* A group's number, 一 … 三十: 十 = 10, 十五 = 15, 二十一 = 21 (99 when there is none). */
function numeral(text) {
  const m = /^([一二三四五六七八九]?)(十?)([一二三四五六七八九]?)/.exec(text || "");
  if (!m || !(m[1] || m[2] || m[3])) return 99;
  if (!m[2]) return DIGITS[m[1]] || 99;
  return (m[1] ? DIGITS[m[1]] : 1) * 10 + (m[3] ? DIGITS[m[3]] : 0);
}

/** Where a 平水韻 group stands in the book ("上平一東" first, "入聲…" last, unknown groups after). */
export function groupKey(rhyme) {
  rhyme = rhyme || "";
  for (let i = 0; i < PARTS.length; i++) {
    if (rhyme.indexOf(PARTS[i]) === 0) return i * 100 + numeral(rhyme.slice(PARTS[i].length));
  }
  return 999;
}

/** Sort order of tiles by 平仄 (平 first), then by rhyme group in the book's order. */
export function byToneThenRhyme(a, b) {
  return (a.tone === b.tone ? 0 : a.tone === "平" ? -1 : 1) || groupKey(a.rhyme) - groupKey(b.rhyme);
}

let tileWords = null;  // the round page's words for a tile's tooltip (converted to 简体 with the page)
let rhymeNames = null;  // rhyme group → its name in the reader's script (empty for 繁體 readers)

/** A rhyme group's name as the reader reads it (繁 or 简). */
export function rhymeName(rhyme) {
  if (!rhymeNames) rhymeNames = readJSON("rhyme-names");
  return (rhyme && rhymeNames[rhyme]) || rhyme || "";
}

/** A tile {char, tone, rhyme, strokes} as a <span class="tile">, its tooltip "平聲 · 下平一先 · 5畫". */
export function tileNode(tile, extraClass) {
  const node = el("span", "tile" + (extraClass ? " " + extraClass : ""), tile.char);
  if (tile.tone) node.setAttribute("data-tone", tile.tone);
  if (!tileWords) tileWords = readJSON("round-strings");
  const tones = tileWords.tones || {};
  const bits = [tile.tone ? tones[tile.tone] || tile.tone : "", rhymeName(tile.rhyme),
    tile.strokes ? fill(tileWords.strokes || "{n}", { n: tile.strokes }) : ""];
  node.title = bits.filter(Boolean).join(" · ");
  return node;
}
