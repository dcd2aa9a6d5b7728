/*
 * How many verse lines the checker would find in a draft: a light mirror of parse_poem (poetry/text.py),
 * so that the editor asks POST /api/check only from two lines on (one line is answered 400). Notes in
 * brackets go, a title line goes (《…》, or an unpunctuated first line whose length is not the verse's),
 * lines split at punctuation and spaces. Where it is unsure it counts more, never fewer: a draft it calls
 * too short is one the checker would refuse.
 */
import { HAN } from "../common.js";

const BREAKS = "，。？！；、,.?!;";
const SPLIT = /[，。？！；、,.?!;\s\u3000]+/;
const NOTE = /[（(][^（）()]*[）)]/g;
const TITLE = /^\s*([^《，。？！；、,.?!;]*)《([^》]+)》\s*(.*)$/;

function hasBreak(text) { return Array.from(BREAKS).some((p) => text.includes(p)); }

/* A raw line's verse segments: Han (and 〇 □), split at punctuation and spaces. */
function segments(line) {
  const kept = Array.from(line).filter((c) => HAN.test(c) || SPLIT.test(c)).join("");
  return kept.split(SPLIT).filter(Boolean);
}

function stripNotes(text) {
  let previous = null;
  while (previous !== text) { previous = text; text = text.replace(NOTE, ""); }
  return text;
}

/* The most common segment length after the first line (ties: the first met), as Counter.most_common. */
function typicalLength(raw) {
  const counts = new Map();
  raw.slice(1).forEach((r) => r.segs.forEach((s) => {
    const length = Array.from(s).length;
    counts.set(length, (counts.get(length) || 0) + 1);
  }));
  let best = null;
  counts.forEach((n, length) => { if (best === null || n > counts.get(best)) best = length; });
  return best;
}

/* The body's raw lines once a title (and an author line) is taken off the top. */
function body(raw) {
  const match = raw.length ? TITLE.exec(raw[0].line) : null;
  if (match) {
    const rest = match[3];
    return (rest && hasBreak(rest) ? [{ line: rest, segs: segments(rest) }] : []).concat(raw.slice(1));
  }
  const typical = raw.length >= 2 ? typicalLength(raw) : null;
  if (typical === null) return raw;
  let lines = raw;
  let titled = false;
  for (let pass = 0; pass < 2; pass += 1) {
    const head = lines[0];
    // an unpunctuated head only (the full-width marks: a title may carry a comma of its own)
    if (lines.length < 2 || !head.segs.length || Array.from("，。？！；、").some((p) => head.line.includes(p))) break;
    if (head.segs.some((s) => Array.from(s).length === typical)) break;
    if (titled && Array.from(head.segs.join("")).length > 8) break;
    titled = true;
    lines = lines.slice(1);
  }
  return lines;
}

/** The number of verse lines in `text` as the checker would count them. */
export function verseCount(text) {
  const raw = stripNotes(text).split(/\r\n|\r|\n/).filter((line) => line.trim())
    .map((line) => ({ line: line, segs: segments(line) }));
  return body(raw).reduce((n, r) => n + r.segs.length, 0);
}
