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
import { charsOf, drawReport } from "./editor/report.js";

// Editorial notes in parentheses are dropped (poetry/text.py), brackets around a restored [字] are not.
var OPEN_NOTE = "（(";
var CLOSE_NOTE = "）)";

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

  // ---- drawing the report (static/editor/report.js) ----------------------------------------

  function render(report) {
    body.classList.remove("pe-stale");
    var drawn = drawReport(report, {
      S: S, hand: opts.hand, rule: opts.rule, blanks: opts.blanks,
      locked: textarea.readOnly || textarea.disabled, select: select, replace: replaceAt,
    });
    setVerdict(drawn.verdict);
    if (messageKind !== "done") setMessage("");
    body.replaceChildren.apply(body, drawn.parts);
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
