/*
 * The PoemEditor's report (static/editor.js): the checker's answer (POST /api/check) drawn as a summary,
 * one row of tiles per line with its faults and suggested characters, and the faults of the whole poem;
 * the round's hand rules (韻腳, 集字 with blank 白板 tiles) are marked on the tiles here.
 *
 * `view` is what the drawing needs from the editor: {S (UI words), hand, rule, blanks, locked (a
 * submitted poem: suggestions disabled), select(line, pos), replace(line, pos, char)}.
 */
import { el, fill, HAN } from "../common.js";

const BLANK = "白板";  // what poetry.rules puts where a blank tile stands in

/** A hand as single characters: a string (Han characters only) or an array of characters. */
export function charsOf(hand) {
  if (!hand) return [];
  if (typeof hand === "string") return Array.from(hand).filter((c) => HAN.test(c));
  return Array.prototype.slice.call(hand).map(String);
}

function suggestionChar(s) {
  if (s && typeof s === "object") return String(s.char || s.text || "");
  return String(s);
}

function isRhymeLine(line) {
  if (line.rhyme_foot) return true;
  return (line.chars || []).some((c) => c.status === "rhyme" || c.status === "rhyme_wrong");
}

function isFault(v) { return v.severity !== "note" && v.severity !== "info"; }

/*
 * The round's rule per "line:pos": flags (a Chinese reason), used (from the hand), blanks (a 白板 stands
 * in), repeats (a tile spent twice), and count, the tiles taken from the hand (title included). Which tile
 * a character uses is the server's one rule (report.tiles, poetry.rules.tile_marks), as at submission.
 */
function handRules(report, view) {
  const S = view.S;
  const marks = { flags: {}, used: {}, blanks: {}, repeats: {}, count: 0, titleMissing: [] };
  const tiles = report.tiles;
  if (!tiles || !charsOf(view.hand).length) return marks;
  marks.count = tiles.used || 0;
  if (view.rule) marks.titleMissing = tiles.title_missing || [];  // the title too is of one's tiles
  (report.lines || []).forEach((line, i) => {
    const chars = line.chars || [];
    const row = (tiles.lines || [])[i] || [];
    const footAt = isRhymeLine(line) ? chars.length - 1 : -1;
    chars.forEach((c, k) => {
      const key = line.number + ":" + (k + 1);
      const tile = row[k];
      if (tile === BLANK) marks.blanks[key] = true;
      else if (tile) marks.used[key] = true;
      else if (view.rule === "jizi") {
        // 集字: each tile once; a held tile already spent reads 「用了兩次」
        if (c.in_hand) { marks.flags[key] = fill(S.usedTwice, { char: c.char }); marks.repeats[key] = true; }
        else marks.flags[key] = fill(S.notInHand, { char: c.char });
      }
      // 韻腳: every rhyme foot must be a tile of the hand
      if (view.rule === "rhyme" && k === footAt && !tile) marks.flags[key] = fill(S.footNotInHand, { char: c.char });
    });
  });
  return marks;
}

/** A 古體 poem (古詩, 古絕, 雜言; declared 古體) with no fault: no 近體 rule applies, so it is not 未合律 (the
 * check page's chip and the round draft's fold line ask this too). */
export function isAncient(report) {
  return report.verdict === "ancient";
}

/** Whether the checker's verdict holds: 合律, or a 古體 whose rhyme holds (the badge and the chip are good). */
export function verdictKept(report) {
  return report.verdict === "regulated" || isAncient(report);
}

/* The checker's verdict (CheckResult.verdict) in words: 合律, 古體 (its rhyme holding or not) or 未合律. */
function prosodyWord(report, S) {
  const words = { regulated: S.regulated, ancient: S.ancient, ancient_faults: S.ancientFaults };
  return words[report.verdict] || S.notRegulated;
}

/* The head of the report: 合律 or not, the form, pattern, rhyme group, book, and tiles used. */
function summaryOf(report, marks, errors, S) {
  const summary = el("div", "pe-summary");
  // 格律 and 局規 are two states: the badge says 合律 only when the round's rule holds too
  const ruleBroken = Object.keys(marks.flags).length > 0 || marks.titleMissing.length > 0;
  const badge = el("span", "pe-badge-verdict " + (verdictKept(report) && !ruleBroken ? "pe-good" : "pe-bad"),
    ruleBroken ? S.ruleBroken : prosodyWord(report, S));
  badge.setAttribute("aria-hidden", "true");
  summary.appendChild(badge);
  const facts = el("dl", "pe-facts");
  function fact(label, value) {
    if (!value) return;
    const wrap = el("div");
    wrap.appendChild(el("dt", null, label));
    wrap.appendChild(el("dd", null, value));
    facts.appendChild(wrap);
  }
  if (report.title) fact(S.title, "《" + report.title + "》");
  if (ruleBroken) fact(S.prosodyFact, prosodyWord(report, S));
  fact(S.form, report.form);
  fact(S.pattern, report.pattern);
  fact(S.rhymeGroup, report.rhyme_group);
  fact(S.rhymeBook, (S.rhymeBooks || {})[report.rhyme_book] || report.rhyme_book);
  if (marks.count) fact(S.handFact, fill(S.handCount, { used: marks.count }));
  summary.appendChild(facts);
  if (report.summary) summary.appendChild(el("p", "pe-summary-text", report.summary));
  else if (!errors) summary.appendChild(el("p", "pe-summary-text", S.allGood));
  if (errors && !report.summary) summary.appendChild(el("p", "pe-summary-text", fill(S.faultCount, { count: errors })));
  return summary;
}

/* Faults of no one line (黏對 across the poem, the form …) and the checker's notes. */
function wholePoemBox(whole, notes, view) {
  const box = el("section", "pe-whole");
  box.appendChild(el("h3", null, view.S.whole));
  const ul = el("ul", "pe-faults");
  whole.forEach((v) => { ul.appendChild(renderFaults([v], null, view)); });
  notes.forEach((n) => {
    const li = el("li", "pe-fault");
    li.dataset.severity = "note";
    li.appendChild(el("span", "pe-fault-text", n));
    ul.appendChild(li);
  });
  box.appendChild(ul);
  return box;
}

/** Draw a report: {verdict (the sentence for screen readers), parts (the nodes of the report body)}. */
export function drawReport(report, view) {
  const S = view.S;
  const lines = report.lines || [];
  const violations = report.violations || [];
  const marks = handRules(report, view);
  const errors = violations.filter(isFault).length + Object.keys(marks.flags).length;
  const prosody = prosodyWord(report, S);
  const broken = Object.keys(marks.flags).length || marks.titleMissing.length;
  const verdict = S.verdictPrefix + (broken ? S.ruleBroken + "・" : "") + prosody +
    (report.form ? "・" + report.form : "");
  const byLine = {};
  const whole = [];
  violations.forEach((v) => {
    if (v.line && v.line >= 1 && v.line <= lines.length) (byLine[v.line] = byLine[v.line] || []).push(v);
    else whole.push(v);
  });
  const list = el("ol", "pe-lines");
  lines.forEach((line) => { list.appendChild(renderLine(line, byLine[line.number] || [], marks, view)); });
  const parts = [summaryOf(report, marks, errors, S), list];
  const notes = (report.notes || []).map(String);
  if (whole.length || notes.length) parts.push(wholePoemBox(whole, notes, view));
  return { verdict: verdict, parts: parts };
}

/* The tooltip (and screen-reader text) of a character: tone, rhyme groups, status, the hand's word. */
function tileTitle(c, key, marks, S) {
  const title = [c.char + "：" + ((S.toneNames || {})[c.tone] || c.tone)];
  if (c.groups && c.groups.length) title.push(Array.from(c.groups).join("、"));
  const statusName = (S.statusNames || {})[c.status];
  if (statusName) title.push(statusName);
  if (marks.used[key]) title.push(S.inHand);
  if (marks.blanks[key]) title.push(fill(S.blankUsed, { char: c.char }));
  if (marks.flags[key]) title.push(marks.flags[key]);
  return title;
}

function hiddenMark(className, text) {
  const mark = el("span", className, text);
  mark.setAttribute("aria-hidden", "true");
  return mark;
}

/* One character: its tile (tone colour, status badge, hand marks) over the tone its position requires. */
function charCell(line, c, pos, hasFault, marks, view) {
  const S = view.S;
  const key = line.number + ":" + pos;
  const cell = el("span", "pe-cell");
  const tile = el("span", "tile pe-tile", c.char);
  Object.assign(tile.dataset, { tone: c.tone, status: c.status, line: line.number, pos: pos });
  if (hasFault) tile.classList.add("pe-has-fault");
  if (marks.used[key]) tile.classList.add("pe-in-hand");
  if (marks.blanks[key]) tile.classList.add("pe-blank");
  if (marks.flags[key]) tile.classList.add("pe-hand-flag");
  const title = tileTitle(c, key, marks, S);
  tile.title = title.join("　");
  const badgeKey = marks.flags[key] ? (marks.repeats[key] ? "repeat" : "missing") : c.status;
  const badgeText = (S.badges || {})[badgeKey];
  if (badgeText) tile.appendChild(hiddenMark("pe-badge pe-badge-" + badgeKey, badgeText));
  if (marks.blanks[key]) tile.appendChild(hiddenMark("pe-hand", (S.badges || {}).blank || ""));
  tile.addEventListener("click", () => { view.select(line.number, pos); });
  cell.appendChild(tile);
  const reqKey = c.required === "平" || c.required === "仄" ? c.required : "free";
  const req = el("span", "pe-req", (S.requiredMarks || {})[reqKey] || "");
  req.dataset.required = reqKey;
  req.title = (S.requiredTitles || {})[reqKey] || "";
  cell.appendChild(req);
  tile.appendChild(el("span", "pe-sr", "，" + title.join("，")));
  return cell;
}

/* A line's faults, the hand's among them: one entry per position (several faults of one character read
   together), in order of position. */
function lineFaults(line, faults, marks, view) {
  const items = faults.slice();
  Object.keys(marks.flags).forEach((key) => {
    const parts = key.split(":");
    if (Number(parts[0]) !== line.number) return;
    items.push({ line: line.number, pos: Number(parts[1]), kind: "hand", severity: "error",
      message: marks.flags[key], suggestions: [] });
  });
  const groups = {};
  items.forEach((v) => { (groups[v.pos || 0] = groups[v.pos || 0] || []).push(v); });
  const ul = el("ul", "pe-faults");
  Object.keys(groups).map(Number).sort((a, b) => a - b).forEach((pos) => {
    ul.appendChild(renderFaults(groups[pos], line, view));
  });
  return ul;
}

function renderLine(line, faults, marks, view) {
  const li = el("li", "pe-line");
  li.dataset.line = line.number;
  if (faults.some(isFault)) li.classList.add("pe-line-bad");
  li.appendChild(hiddenMark("pe-lineno", line.number));
  const cells = el("div", "pe-cells");
  cells.setAttribute("role", "group");
  cells.setAttribute("aria-label", fill(view.S.lineLabel, { n: line.number }) + "：" + line.text);
  const faulty = {};
  faults.forEach((v) => { if (v.pos) faulty[v.pos] = true; });
  (line.chars || []).forEach((c, k) => {
    cells.appendChild(charCell(line, c, k + 1, !!faulty[k + 1], marks, view));
  });
  li.appendChild(cells);
  const ul = lineFaults(line, faults, marks, view);
  if (ul.children.length) li.appendChild(ul);
  return li;
}

const RANK = { error: 0, warning: 1 };

function rank(v) { return v.severity in RANK ? RANK[v.severity] : 2; }

/* The faults at one position (or of the whole poem), errors first, each with its suggested characters. */
function renderFaults(list, line, view) {
  const S = view.S;
  list = list.slice().sort((a, b) => rank(a) - rank(b));
  const first = list[0];
  const li = el("li", "pe-fault");
  li.dataset.severity = first.severity || "error";
  li.dataset.kind = first.kind || "other";
  if (first.line) li.dataset.line = first.line;
  if (first.pos) li.dataset.pos = first.pos;
  if (line && first.pos) li.appendChild(el("span", "pe-where", fill(S.posLabel, { pos: first.pos })));
  else if (first.line) li.appendChild(el("span", "pe-where", fill(S.lineLabel, { n: first.line })));
  list.forEach((v) => {
    const item = el("span", "pe-fault-item");
    item.dataset.severity = v.severity || "error";
    item.appendChild(el("span", "pe-fault-text", v.message || v.kind || ""));
    const wrap = suggestionButtons(v, line, view);
    if (wrap) item.appendChild(wrap);
    li.appendChild(item);
  });
  return li;
}

/* The fix's tone: what the position requires; at a free position (孤平, 三平尾) the opposite of the
   faulty character's; a rhyme foot is 平. */
function fixTone(v, target) {
  if (target && (target.required === "平" || target.required === "仄")) return target.required;
  if (target && v.kind !== "rhyme" && (target.tone === "平" || target.tone === "仄")) return target.tone === "平" ? "仄" : "平";
  return v.kind === "rhyme" ? "平" : null;
}

function suggestionButtons(v, line, view) {
  const S = view.S;
  const suggestions = (v.suggestions || []).map(suggestionChar).filter((s) => s && s.length <= 2);
  if (!suggestions.length || !v.line || !v.pos) return null;
  const target = line && line.chars ? line.chars[v.pos - 1] : null;
  const tone = fixTone(v, target);
  const wrap = el("span", "pe-suggest");
  wrap.appendChild(el("span", "pe-suggest-label", S.suggest));
  suggestions.slice(0, 8).forEach((s) => {
    const button = el("button", "tile tile-sm pe-suggestion", s);
    button.type = "button";
    if (tone) button.dataset.tone = tone;
    button.dataset.line = v.line;
    button.dataset.pos = v.pos;
    button.setAttribute("aria-label", fill(S.suggestLabel, { line: v.line, pos: v.pos, old: target ? target.char : "", new: s }));
    if (view.locked) button.disabled = true;
    button.addEventListener("click", () => { view.replace(v.line, v.pos, s); });
    wrap.appendChild(button);
  });
  return wrap;
}
