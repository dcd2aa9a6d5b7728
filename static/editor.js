/*
 * PoemEditor — a live 平仄 checker around a <textarea>. An ES module on static/common.js, no build step.
 *
 *   <link rel="stylesheet" href="/static/style.css">
 *   <link rel="stylesheet" href="/static/editor.css">
 *   {% include "check_editor_strings.html" %}          (the UI words, converted to 简体 with the page)
 *   <textarea id="poem"></textarea>  <div id="report"></div>
 *   <script type="module">
 *     import { attach } from "/static/editor.js";
 *     const editor = attach(document.getElementById("poem"), {
 *       output: document.getElementById("report"),
 *       hand: "山峰江湖…", rule: "rhyme",
 *       onChange: function (text) { saveDraftSoon(text); }
 *     });
 *   </script>
 *
 * The textarea is the source of truth: the editor never rewrites it except when the poet clicks a
 * suggested character (or a page calls editor.replaceAt / setText), and every such change fires
 * `onChange` and the localStorage copy. A readOnly or disabled textarea (a submitted poem) is never
 * changed: its suggestions are shown disabled.
 *
 * Options (all optional):
 *   output         Element or selector where the report is drawn. Default: a new <div> after the textarea.
 *   endpoint       URL of the checker API. Default "/api/check" (POST {"text","rhyme_book","hand"}).
 *   headers        Extra request headers, e.g. {"X-CSRFToken": token}.
 *   rhymeBook      "pingshui" (平水韻, default) or "xinyun" (中華新韻).
 *   rhymeBookSelect  A <select> whose value is the rhyme book; the editor re-checks when it changes.
 *   hand           The player's tiles: a string of characters or an array of single characters. Sent to
 *                  the API (fix suggestions come from the hand first); characters used from the hand are
 *                  highlighted.
 *   rule           How the hand binds the poem (the round's composition rule):
 *                    null     no rule (default),
 *                    "rhyme"  韻腳: every rhyme foot must be a tile of the hand,
 *                    "jizi"   集字: every character must be a tile of the hand, each tile used once.
 *                  (`mode` is accepted as another name for this option.)
 *   blanks         集字 only: how many blank wildcard tiles (白板) the player holds; the first characters
 *                  not in the hand use them up (marked 白) before any is flagged. Default 0.
 *   storageKey     localStorage key for a copy of the draft (the /check page uses one): written on
 *                  every edit, restored on attach when the textarea is empty.
 *   onChange(text)           called on every edit (typing, pasting, a suggestion click) — save drafts here.
 *   onReport(report, error)  called after each check: the API's report, or null and a message.
 *   onBusy(busy)             called with true when a check starts, false when it ends.
 *   delay          Debounce in milliseconds before a check. Default 250.
 *   maxLength      Longest draft sent for checking (the API's limit). Default: the textarea's data-max or
 *                  maxlength attribute; longer drafts stay in the textarea with a message.
 *   strings        UI words. Default: the JSON in <script id="poem-editor-strings">.
 *
 * attach() returns a controller:
 *   check()              check now (skips the debounce)
 *   setOptions(partial)  change hand, rule, rhymeBook … and re-check
 *   setText(text, {silent})  replace the whole draft; an edit (onChange fires) unless silent, e.g. when
 *                        the round page loads the saved draft from the server
 *   replaceAt(line, pos, char)  replace the character the report shows at line/pos (1-based); false
 *                        when it cannot (locked textarea, or the text changed since the report). After a
 *                        replacement the textarea also receives a bubbling `pe-replaced` event.
 *   notify(text, kind, action)  show a message above the report; kind "hint" | "warn" | "done";
 *                        action {label, run} adds a button (e.g. undo). "done" messages stay until the next edit.
 *   report()             the last report (or null)
 *   locate()             where each reported character sits in the draft: [[offset, length] …] per line
 *   destroy()            detach listeners
 *
 * locate(text, lines), also exported, is the same mapping for any text and report lines.
 */
import { el, fill, readJSON, api, storage, HAN } from "./common.js";

// Editorial notes in parentheses are dropped (poetry/text.py), brackets around a restored [字] are not.
var OPEN_NOTE = "（(";
var CLOSE_NOTE = "）)";

function charsOf(hand) {
  if (!hand) return [];
  if (typeof hand === "string") return Array.from(hand).filter(function (c) { return HAN.test(c); });
  return Array.prototype.slice.call(hand).map(String);
}

function suggestionChar(s) {
  if (s && typeof s === "object") return String(s.char || s.text || "");
  return String(s);
}

/*
 * Where each checked character sits in the original text. The checker drops titles, punctuation and
 * notes in brackets; its lines keep their order. Returns [[offset, length] per char] per line, or null
 * for a character that cannot be found (the text changed, or the checker normalised it).
 */
export function locate(text, lines) {
  // Notes are matched pairs of parentheses (nested too); an unclosed one is plain text, as in strip_notes.
  var units = Array.from(text);
  var offsets = [];
  var at = 0;
  units.forEach(function (ch) { offsets.push(at); at += ch.length; });
  var noted = new Array(units.length).fill(false);
  var open = [];
  units.forEach(function (ch, i) {
    if (OPEN_NOTE.indexOf(ch) >= 0) open.push(i);
    else if (CLOSE_NOTE.indexOf(ch) >= 0 && open.length) {
      var from = open.pop();
      for (var j = from; j <= i; j++) noted[j] = true;
    }
  });
  var han = [];           // every kept character outside notes: {c, at}
  units.forEach(function (ch, i) {
    if (!noted[i] && HAN.test(ch)) han.push({ c: ch, at: offsets[i] });
  });
  var cursor = 0;
  return lines.map(function (line) {
    var want = (line.chars || []).map(function (c) { return c.char; });
    var n = want.length;
    var start = -1;
    for (var i = cursor; i + n <= han.length && start < 0; i++) {
      var same = true;
      for (var k = 0; k < n && same; k++) same = han[i + k].c === want[k];
      if (same) start = i;
    }
    if (start < 0) start = cursor;   // normalised characters: fall back to the order of the text
    cursor = Math.min(han.length, start + n);
    return want.map(function (c, k) {
      var h = han[start + k];
      return h ? [h.at, h.c.length] : null;
    });
  });
}

/* The longest draft the API checks, as the template wrote it on the textarea (data-max or maxlength, from
   poetry/text.py LIMITS); none when it wrote neither (the API then says why it refuses). */
function limitOf(textarea) {
  var n = Number(textarea.dataset.max) || textarea.maxLength;
  return n > 0 ? n : Infinity;
}

export function attach(textarea, options) {
  if (!textarea || textarea.tagName !== "TEXTAREA") throw new Error("PoemEditor.attach needs a <textarea>");
  var opts = Object.assign({ endpoint: "/api/check", delay: 250, rule: null, hand: null, maxLength: limitOf(textarea) },
    options || {});
  if (!opts.rule && opts.mode) opts.rule = opts.mode;  // `mode` is accepted as another name for `rule`
  var S = Object.assign({}, readJSON("poem-editor-strings"), opts.strings || {});
  var output = typeof opts.output === "string" ? document.querySelector(opts.output) : opts.output;
  if (!output) {
    output = el("div");
    textarea.insertAdjacentElement("afterend", output);
  }
  output.classList.add("pe-output");

  // Fixed parts of the report area: a head row (message on the left, working sign on the right,
  // the verdict for screen readers), then the report body.
  var head = el("div", "pe-head");
  var verdict = el("p", "pe-verdict");
  verdict.setAttribute("aria-live", "polite");
  verdict.setAttribute("role", "status");
  var message = el("p", "pe-message");
  message.setAttribute("aria-live", "polite");
  var working = el("span", "pe-working", S.working);
  working.hidden = true;
  working.setAttribute("aria-hidden", "true");
  head.appendChild(verdict);
  head.appendChild(message);
  head.appendChild(working);
  var body = el("div", "pe-body");
  output.replaceChildren(head, body);

  var timer = null;
  var retryTimer = null;
  var inflight = null;
  var sequence = 0;
  var lastReport = null;
  var lastCheckedText = null;
  var lastVerdict = "";
  var undoState = null;
  var messageKind = "";
  var composing = false;
  var retryDelay = 0;

  function rhymeBook() {
    if (opts.rhymeBookSelect && opts.rhymeBookSelect.value) return opts.rhymeBookSelect.value;
    return opts.rhymeBook || "pingshui";
  }

  function store(text) {
    if (!opts.storageKey) return;
    storage.set(opts.storageKey, text);
  }

  function setMessage(text, kind, action) {
    messageKind = text ? kind || "" : "";
    message.replaceChildren();
    message.className = "pe-message" + (kind ? " pe-message-" + kind : "");
    if (!text) return;
    message.appendChild(document.createTextNode(text));
    if (action) {
      var button = el("button", "pe-link", action.label);
      button.type = "button";
      button.addEventListener("click", action.run);
      message.appendChild(document.createTextNode(" "));
      message.appendChild(button);
    }
  }

  function setVerdict(text) {
    if (text !== lastVerdict) {
      verdict.textContent = text;
      lastVerdict = text;
    }
  }

  function edited(fromUser) {
    var text = textarea.value;
    store(text);
    if (fromUser) {
      undoState = null;
      if (messageKind === "done") setMessage("");
    }
    if (typeof opts.onChange === "function") opts.onChange(text);
    if (!composing) schedule();  // mid-IME (pinyin letters not yet a character): wait for the character
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(check, opts.delay);
  }

  function busy(on) {
    working.hidden = !on;
    output.setAttribute("aria-busy", on ? "true" : "false");
    if (typeof opts.onBusy === "function") opts.onBusy(on);
  }

  function check() {
    clearTimeout(timer);
    clearTimeout(retryTimer);
    var text = textarea.value;
    if (inflight) inflight.abort();
    inflight = null;
    if (!Array.from(text).some(function (c) { return HAN.test(c); })) {
      lastReport = null;
      lastCheckedText = text;
      body.replaceChildren();
      setVerdict("");
      setMessage(S.empty, "hint");
      busy(false);
      if (typeof opts.onReport === "function") opts.onReport(null, null);
      return;
    }
    var length = Array.from(text).length;
    if (length > opts.maxLength) {
      // Over the API's limit: say so here rather than send it (the draft itself is untouched).
      sequence += 1;
      lastReport = null;
      body.classList.add("pe-stale");
      setVerdict("");
      setMessage(fill(S.tooLong, { count: length, max: opts.maxLength }), "warn");
      busy(false);
      if (typeof opts.onReport === "function") opts.onReport(null, S.tooLong);
      return;
    }
    var mine = ++sequence;
    var controller = typeof AbortController === "function" ? new AbortController() : null;
    inflight = controller;
    busy(true);
    var payload = { text: text, rhyme_book: rhymeBook() };
    var hand = charsOf(opts.hand);
    if (hand.length) payload.hand = hand.join("");
    if (hand.length && opts.rule) payload.rule = opts.rule;  // 集字: fixes are suggested from the hand only
    api("POST", opts.endpoint, payload, { headers: opts.headers, signal: controller ? controller.signal : undefined })
      .then(function (result) { answered(result, mine, text); })
      .catch(function (error) {
        if (error && error.name === "AbortError") return;
        if (mine !== sequence) return;
        inflight = null;
        offline();
      });
  }

  /* The checker's answer to check number `mine` for `text` (answers to older checks are dropped). */
  function answered(result, mine, text) {
    if (mine !== sequence) return;
    inflight = null;
    if (result.status === 0) { offline(); return; }  // no answer: the network is away
    busy(false);
    lastCheckedText = text;
    if (result.status < 500) retryDelay = 0;
    if (result.ok) {
      lastReport = result.data;
      render(result.data);
      if (typeof opts.onReport === "function") opts.onReport(result.data, null);
    } else if (result.status >= 400 && result.status < 500) {
      // The text cannot be judged yet (one line, no verse …): say why, keep the old report faded.
      lastReport = null;
      body.classList.add("pe-stale");
      setVerdict("");
      var detail = result.detail || result.data.error || "";
      setMessage(S.cannotCheck + detail, "hint");
      if (typeof opts.onReport === "function") opts.onReport(null, detail);
    } else {
      offline();
    }
  }

  function offline() {
    busy(false);
    body.classList.add("pe-stale");
    setMessage(S.network, "warn");
    if (typeof opts.onReport === "function") opts.onReport(null, S.network);
    retryDelay = Math.min(30000, retryDelay ? retryDelay * 2 : 3000);  // 3 s, 6 s … at most 30 s
    retryTimer = setTimeout(check, retryDelay);
  }

  // ---- drawing the report ------------------------------------------------------------------

  function handRules(report) {
    // Per "line:pos": a Chinese reason when the round's rule flags it; plus which chars come from the hand.
    var flags = {};
    var used = {};
    var handSet = new Set(charsOf(opts.hand));
    if (!handSet.size) return { flags: flags, used: used, blanks: {}, repeats: {}, count: 0 };
    var spent = new Map();
    var count = 0;
    var blanks = {};
    var repeats = {};
    var blanksLeft = Math.max(0, Number(opts.blanks) || 0);
    (report.lines || []).forEach(function (line) {
      var chars = line.chars || [];
      var footAt = isRhymeLine(line) ? chars.length - 1 : -1;
      chars.forEach(function (c, k) {
        var key = line.number + ":" + (k + 1);
        var inHand = typeof c.in_hand === "boolean" ? c.in_hand : (handSet.has(c.char) || handSet.has(c.lookup));
        var tile = c.lookup || c.char;
        var repeat = false;
        if (inHand) {
          var n = (spent.get(tile) || 0) + 1;
          spent.set(tile, n);
          repeat = n > 1;
        }
        if (opts.rule === "jizi") {
          // 集字: each tile once; a blank (白板) stands in for a missing or spent tile while any is left.
          if ((!inHand || repeat) && blanksLeft > 0) {
            blanksLeft -= 1;
            blanks[key] = true;
          } else if (!inHand) flags[key] = fill(S.notInHand, { char: c.char });
          else if (repeat) {
            flags[key] = fill(S.usedTwice, { char: c.char });
            repeats[key] = true;
          }
          if (inHand && !repeat) { used[key] = true; count += 1; }
        } else if (inHand) { used[key] = true; count += 1; }
        if (opts.rule === "rhyme" && k === footAt && !inHand) {
          flags[key] = fill(S.footNotInHand, { char: c.char });
        }
      });
    });
    return { flags: flags, used: used, blanks: blanks, repeats: repeats, count: count };
  }

  function isRhymeLine(line) {
    if (line.rhyme_foot) return true;
    return (line.chars || []).some(function (c) { return c.status === "rhyme" || c.status === "rhyme_wrong"; });
  }

  function render(report) {
    body.classList.remove("pe-stale");
    var lines = report.lines || [];
    var violations = report.violations || [];
    var hand = handRules(report);
    var handFaults = Object.keys(hand.flags).length;
    var errors = violations.filter(function (v) { return v.severity !== "note" && v.severity !== "info"; }).length + handFaults;

    setVerdict(S.verdictPrefix + (report.regulated ? S.regulated : S.notRegulated) + (report.form ? "・" + report.form : ""));
    if (messageKind !== "done") setMessage("");

    var parts = [];
    var summary = el("div", "pe-summary");
    var badge = el("span", "pe-badge-verdict " + (report.regulated ? "pe-good" : "pe-bad"),
      report.regulated ? S.regulated : S.notRegulated);
    badge.setAttribute("aria-hidden", "true");
    summary.appendChild(badge);
    var facts = el("dl", "pe-facts");
    function fact(label, value) {
      if (!value) return;
      var wrap = el("div");
      wrap.appendChild(el("dt", null, label));
      wrap.appendChild(el("dd", null, value));
      facts.appendChild(wrap);
    }
    if (report.title) fact(S.title, "《" + report.title + "》");
    fact(S.form, report.form);
    fact(S.pattern, report.pattern);
    fact(S.rhymeGroup, report.rhyme_group);
    fact(S.rhymeBook, (S.rhymeBooks || {})[report.rhyme_book] || report.rhyme_book);
    if (hand.count) fact(S.handFact, fill(S.handCount, { used: hand.count }));
    summary.appendChild(facts);
    if (report.summary) summary.appendChild(el("p", "pe-summary-text", report.summary));
    else if (!errors) summary.appendChild(el("p", "pe-summary-text", S.allGood));
    if (errors && !report.summary) summary.appendChild(el("p", "pe-summary-text", fill(S.faultCount, { count: errors })));
    parts.push(summary);

    var byLine = {};
    var whole = [];
    violations.forEach(function (v) {
      if (v.line && v.line >= 1 && v.line <= lines.length) (byLine[v.line] = byLine[v.line] || []).push(v);
      else whole.push(v);
    });

    var list = el("ol", "pe-lines");
    lines.forEach(function (line) {
      list.appendChild(renderLine(line, byLine[line.number] || [], hand));
    });
    parts.push(list);

    var notes = (report.notes || []).map(String);
    if (whole.length || notes.length) {
      var box = el("section", "pe-whole");
      box.appendChild(el("h3", null, S.whole));
      var ul = el("ul", "pe-faults");
      whole.forEach(function (v) { ul.appendChild(renderFault(v, null)); });
      notes.forEach(function (n) {
        var li = el("li", "pe-fault");
        li.dataset.severity = "note";
        li.appendChild(el("span", "pe-fault-text", n));
        ul.appendChild(li);
      });
      box.appendChild(ul);
      parts.push(box);
    }
    body.replaceChildren.apply(body, parts);
  }

  function renderLine(line, faults, hand) {
    var li = el("li", "pe-line");
    li.dataset.line = line.number;
    var bad = faults.some(function (v) { return v.severity !== "note" && v.severity !== "info"; });
    if (bad) li.classList.add("pe-line-bad");
    var label = el("span", "pe-lineno", line.number);
    label.setAttribute("aria-hidden", "true");
    li.appendChild(label);

    var cells = el("div", "pe-cells");
    cells.setAttribute("role", "group");
    cells.setAttribute("aria-label", fill(S.lineLabel, { n: line.number }) + "：" + line.text);
    var byPos = {};
    faults.forEach(function (v) { if (v.pos) (byPos[v.pos] = byPos[v.pos] || []).push(v); });
    var chars = line.chars || [];
    chars.forEach(function (c, k) {
      var pos = k + 1;
      var key = line.number + ":" + pos;
      var cell = el("span", "pe-cell");
      var tile = el("span", "tile pe-tile", c.char);
      tile.dataset.tone = c.tone;
      tile.dataset.status = c.status;
      tile.dataset.line = line.number;
      tile.dataset.pos = pos;
      if (byPos[pos] && !tile.classList.contains("pe-has-fault")) tile.classList.add("pe-has-fault");
      if (hand.used[key]) tile.classList.add("pe-in-hand");
      if (hand.blanks[key]) tile.classList.add("pe-blank");
      if (hand.flags[key]) tile.classList.add("pe-hand-flag");
      var title = [c.char + "：" + ((S.toneNames || {})[c.tone] || c.tone)];
      if (c.groups && c.groups.length) title.push(Array.from(c.groups).join("、"));
      var statusName = (S.statusNames || {})[c.status];
      if (statusName) title.push(statusName);
      if (hand.used[key]) title.push(S.inHand);
      if (hand.blanks[key]) title.push(fill(S.blankUsed, { char: c.char }));
      if (hand.flags[key]) title.push(hand.flags[key]);
      tile.title = title.join("　");
      var badgeKey = hand.flags[key] ? (hand.repeats[key] ? "repeat" : "missing") : c.status;
      var badgeText = (S.badges || {})[badgeKey];
      if (badgeText) {
        var b = el("span", "pe-badge pe-badge-" + badgeKey, badgeText);
        b.setAttribute("aria-hidden", "true");
        tile.appendChild(b);
      }
      if (hand.blanks[key]) {
        var h = el("span", "pe-hand", (S.badges || {}).blank || "");
        h.setAttribute("aria-hidden", "true");
        tile.appendChild(h);
      }
      tile.addEventListener("click", function () { select(line.number, pos); });
      cell.appendChild(tile);
      var reqKey = c.required === "平" || c.required === "仄" ? c.required : "free";
      var req = el("span", "pe-req", (S.requiredMarks || {})[reqKey] || "");
      req.dataset.required = reqKey;
      req.title = (S.requiredTitles || {})[reqKey] || "";
      cell.appendChild(req);
      var sr = el("span", "pe-sr", "，" + title.join("，"));
      tile.appendChild(sr);
      cells.appendChild(cell);
    });
    li.appendChild(cells);

    // One entry per position (several faults of one character read together), errors first.
    var items = faults.slice();
    Object.keys(hand.flags).forEach(function (key) {
      var parts = key.split(":");
      if (Number(parts[0]) !== line.number) return;
      items.push({ line: line.number, pos: Number(parts[1]), kind: "hand", severity: "error",
        message: hand.flags[key], suggestions: [] });
    });
    var groups = {};
    items.forEach(function (v) { (groups[v.pos || 0] = groups[v.pos || 0] || []).push(v); });
    var ul = el("ul", "pe-faults");
    Object.keys(groups).map(Number).sort(function (a, b) { return a - b; }).forEach(function (pos) {
      ul.appendChild(renderFaults(groups[pos], line));
    });
    if (ul.children.length) li.appendChild(ul);
    return li;
  }

  var RANK = { error: 0, warning: 1 };

  function rank(v) { return v.severity in RANK ? RANK[v.severity] : 2; }

  function renderFault(v, line) { return renderFaults([v], line); }

  function renderFaults(list, line) {
    list = list.slice().sort(function (a, b) { return rank(a) - rank(b); });
    var first = list[0];
    var li = el("li", "pe-fault");
    li.dataset.severity = first.severity || "error";
    li.dataset.kind = first.kind || "other";
    if (first.line) li.dataset.line = first.line;
    if (first.pos) li.dataset.pos = first.pos;
    if (line && first.pos) li.appendChild(el("span", "pe-where", fill(S.posLabel, { pos: first.pos })));
    else if (first.line) li.appendChild(el("span", "pe-where", fill(S.lineLabel, { n: first.line })));
    list.forEach(function (v) {
      var item = el("span", "pe-fault-item");
      item.dataset.severity = v.severity || "error";
      item.appendChild(el("span", "pe-fault-text", v.message || v.kind || ""));
      var wrap = suggestionButtons(v, line);
      if (wrap) item.appendChild(wrap);
      li.appendChild(item);
    });
    return li;
  }

  function suggestionButtons(v, line) {
    var suggestions = (v.suggestions || []).map(suggestionChar).filter(function (s) { return s && s.length <= 2; });
    if (!suggestions.length || !v.line || !v.pos) return null;
    var target = line && line.chars ? line.chars[v.pos - 1] : null;
    var wrap = el("span", "pe-suggest");
    wrap.appendChild(el("span", "pe-suggest-label", S.suggest));
    suggestions.slice(0, 8).forEach(function (s) {
      var button = el("button", "tile tile-sm pe-suggestion", s);
      button.type = "button";
      // The fix's tone: what the position requires; at a free position (孤平, 三平尾) the opposite
      // of the faulty character's; a rhyme foot is 平.
      var tone = target && (target.required === "平" || target.required === "仄") ? target.required : null;
      if (!tone && target && v.kind !== "rhyme" && (target.tone === "平" || target.tone === "仄")) {
        tone = target.tone === "平" ? "仄" : "平";
      }
      if (!tone && v.kind === "rhyme") tone = "平";
      if (tone) button.dataset.tone = tone;
      button.dataset.line = v.line;
      button.dataset.pos = v.pos;
      button.setAttribute("aria-label", fill(S.suggestLabel, { line: v.line, pos: v.pos, old: target ? target.char : "", new: s }));
      if (textarea.readOnly || textarea.disabled) button.disabled = true;
      button.addEventListener("click", function () { replaceAt(v.line, v.pos, s); });
      wrap.appendChild(button);
    });
    return wrap;
  }

  // ---- editing the textarea from the report -------------------------------------------------

  function span(lineNo, pos) {
    if (!lastReport || textarea.value !== lastCheckedText) return null;
    var lines = lastReport.lines || [];
    var index = -1;
    for (var i = 0; i < lines.length; i++) if (lines[i].number === lineNo) index = i;
    if (index < 0) return null;
    var spans = locate(textarea.value, lines)[index];
    return spans ? spans[pos - 1] || null : null;
  }

  function select(lineNo, pos) {
    var s = span(lineNo, pos);
    if (!s) return;
    textarea.focus({ preventScroll: true });
    textarea.setSelectionRange(s[0], s[0] + s[1]);
  }

  function replaceAt(lineNo, pos, char) {
    if (textarea.readOnly || textarea.disabled) return false;  // a submitted poem is locked
    var s = span(lineNo, pos);
    if (!s) {
      setMessage(S.stale, "hint");
      check();
      return false;
    }
    var before = textarea.value;
    var old = before.substr(s[0], s[1]);
    textarea.value = before.slice(0, s[0]) + char + before.slice(s[0] + s[1]);
    textarea.setSelectionRange(s[0] + char.length, s[0] + char.length);
    undoState = { text: before };
    setMessage(fill(S.replaced, { line: lineNo, pos: pos, old: old, new: char }), "done", {
      label: S.undo,
      run: function () {
        if (!undoState) return;
        textarea.value = undoState.text;
        undoState = null;
        setMessage("");
        edited(false);
      },
    });
    edited(false);
    textarea.dispatchEvent(new Event("pe-replaced", { bubbles: true }));
    return true;
  }

  // ---- wiring ---------------------------------------------------------------------------------

  function onInput() { edited(true); }
  function onCompositionStart() { composing = true; clearTimeout(timer); }
  function onCompositionEnd() { composing = false; schedule(); }
  function onBook() {
    if (opts.storageKey) storage.set(opts.storageKey + ".book", rhymeBook());
    check();
  }
  textarea.addEventListener("input", onInput);
  textarea.addEventListener("compositionstart", onCompositionStart);
  textarea.addEventListener("compositionend", onCompositionEnd);
  if (opts.rhymeBookSelect) {
    var book = opts.storageKey ? storage.get(opts.storageKey + ".book") : null;
    if (book && Array.from(opts.rhymeBookSelect.options).some(function (o) { return o.value === book; })) {
      opts.rhymeBookSelect.value = book;
    }
    opts.rhymeBookSelect.addEventListener("change", onBook);
  }

  if (opts.storageKey && !textarea.value.trim()) {
    var saved = storage.get(opts.storageKey);
    if (saved && saved.trim()) {
      textarea.value = saved;
      setMessage(S.restored, "done");
    }
  }
  check();

  return {
    check: check,
    report: function () { return lastReport; },
    setOptions: function (partial) {
      partial = Object.assign({}, partial || {});
      if (partial.mode !== undefined && partial.rule === undefined) partial.rule = partial.mode;
      Object.assign(opts, partial);
      check();
    },
    setText: function (text, how) {
      textarea.value = String(text);
      if (how && how.silent) {
        store(textarea.value);
        check();
      } else {
        edited(false);
      }
    },
    replaceAt: replaceAt,
    notify: setMessage,
    locate: function () { return lastReport ? locate(textarea.value, lastReport.lines || []) : null; },
    destroy: function () {
      clearTimeout(timer);
      clearTimeout(retryTimer);
      if (inflight) inflight.abort();
      textarea.removeEventListener("input", onInput);
      textarea.removeEventListener("compositionstart", onCompositionStart);
      textarea.removeEventListener("compositionend", onCompositionEnd);
      if (opts.rhymeBookSelect) opts.rhymeBookSelect.removeEventListener("change", onBook);
    },
  };
}

// For pages and tests that reach the editor without importing it (window.PoemEditor.attach).
window.PoemEditor = { attach: attach, locate: locate };
