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
 *   title          The poem's title (a string, or a function returning it): its tiles count as used.
 *   form           The declared form (五言絕句, 七言律詩 …, 古體): the checker judges the poem as that form.
 *   guPing         七言孤平: "wangli" (王力, the 1st char free and no rescue; the checker's default) or "lenient".
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
 * attach() makes a PoemEditor (the class below: the editor's state and timers) and returns its controller:
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
import { verseCount } from "./editor/lines.js";
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

/* The editor's options: the defaults under the page's, `mode` read as `rule`. */
function optionsOf(textarea, options) {
  const opts = Object.assign({ endpoint: "/api/check", delay: 250, rule: null, hand: null, maxLength: limitOf(textarea) },
    options || {});
  if (!opts.rule && opts.mode) opts.rule = opts.mode;  // `mode` is accepted as another name for `rule`
  return opts;
}

/* The report area: the page's element (or selector), or a new <div> after the textarea. */
function outputOf(textarea, output) {
  let node = typeof output === "string" ? document.querySelector(output) : output;
  if (!node) {
    node = el("div");
    textarea.insertAdjacentElement("afterend", node);
  }
  node.classList.add("pe-output");
  return node;
}

/* A live status line: screen readers read its changes without moving the focus. */
function liveLine(className) {
  const line = el("p", className);
  line.setAttribute("aria-live", "polite");
  return line;
}

/** A live 平仄 checker on one <textarea>: its options, report area, last answer and timers. */
class PoemEditor {
  constructor(textarea, options) {
    this.textarea = textarea;
    this.opts = optionsOf(textarea, options);
    this.S = Object.assign({}, readJSON("poem-editor-strings"), this.opts.strings || {});
    this.output = outputOf(textarea, this.opts.output);
    this.drawFrame();
    this.timer = null;          // the debounced check after an edit
    this.retryTimer = null;     // the next try while the network is away
    this.retryDelay = 0;
    this.inflight = null;       // the AbortController of the check under way
    this.sequence = 0;          // the number of the latest check; older answers are dropped
    this.lastReport = null;
    this.lastCheckedText = null;
    this.lastVerdict = "";
    this.undoState = null;      // the draft before a suggestion click, while 「復原」 can bring it back
    this.messageKind = "";
    this.composing = false;     // an input method is composing (pinyin letters, not yet characters)
    this.handlers = {
      input: () => this.edited(true),
      compositionstart: () => { this.composing = true; clearTimeout(this.timer); },
      compositionend: () => { this.composing = false; this.schedule(); },
    };
    this.onBook = () => this.bookChanged();
  }

  /* The fixed parts of the report area: a head row (the verdict for screen readers, a message on the
     left, the working sign on the right), then the report body. */
  drawFrame() {
    const head = el("div", "pe-head");
    this.verdict = liveLine("pe-verdict");
    this.verdict.setAttribute("role", "status");
    this.message = liveLine("pe-message");
    this.working = el("span", "pe-working", this.S.working);
    this.working.hidden = true;
    this.working.setAttribute("aria-hidden", "true");
    head.append(this.verdict, this.message, this.working);
    this.body = el("div", "pe-body");
    this.output.replaceChildren(head, this.body);
  }

  /* Listen to the textarea and the rhyme-book <select>, bring back the kept draft, check it. */
  start() {
    for (const [type, handler] of Object.entries(this.handlers)) this.textarea.addEventListener(type, handler);
    const select = this.opts.rhymeBookSelect;
    if (select) {
      const book = this.opts.storageKey ? storage.get(this.opts.storageKey + ".book") : null;
      if (book && Array.from(select.options).some((o) => o.value === book)) select.value = book;
      select.addEventListener("change", this.onBook);
    }
    this.restoreDraft();
    this.check();
    return this;
  }

  /* The copy kept in localStorage fills an empty textarea (the /check page after a reload). */
  restoreDraft() {
    if (!this.opts.storageKey || this.textarea.value.trim()) return;
    const saved = storage.get(this.opts.storageKey);
    if (saved && saved.trim()) {
      this.textarea.value = saved;
      this.setMessage(this.S.restored, "done");
    }
  }

  rhymeBook() {
    const select = this.opts.rhymeBookSelect;
    if (select && select.value) return select.value;
    return this.opts.rhymeBook || "pingshui";
  }

  bookChanged() {
    if (this.opts.storageKey) storage.set(this.opts.storageKey + ".book", this.rhymeBook());
    this.check();
  }

  store(text) {
    if (this.opts.storageKey) storage.set(this.opts.storageKey, text);
  }

  /* Call the page's hook `name` (onChange, onReport, onBusy) when it gave one. */
  tell(name, ...args) {
    if (typeof this.opts[name] === "function") this.opts[name](...args);
  }

  // ---- the head row ---------------------------------------------------------------------------

  setMessage(text, kind, action) {
    const message = this.message;
    this.messageKind = text ? kind || "" : "";
    message.replaceChildren();
    message.className = "pe-message" + (kind ? " pe-message-" + kind : "");
    if (!text) return;
    message.appendChild(document.createTextNode(text));
    if (action) {
      const button = el("button", "pe-link", action.label);
      button.type = "button";
      button.addEventListener("click", action.run);
      message.append(" ", button);
    }
  }

  setVerdict(text) {
    if (text === this.lastVerdict) return;
    this.verdict.textContent = text;
    this.lastVerdict = text;
  }

  setBusy(on) {
    this.working.hidden = !on;
    this.output.setAttribute("aria-busy", on ? "true" : "false");
    this.tell("onBusy", on);
  }

  /* No report for now (`why` says so): the old one stays, faded. */
  fade(why, kind) {
    this.lastReport = null;
    this.body.classList.add("pe-stale");
    this.setVerdict("");
    this.setMessage(why, kind);
  }

  // ---- edits and the debounced check ----------------------------------------------------------

  /* The draft changed (`fromUser`: typed or pasted): keep it, tell the page, check after a pause. */
  edited(fromUser) {
    const text = this.textarea.value;
    this.store(text);
    if (fromUser) {
      this.undoState = null;
      if (this.messageKind === "done") this.setMessage("");
    }
    this.tell("onChange", text);
    if (!this.composing) this.schedule();  // mid-IME (pinyin letters not yet a character): wait for the character
  }

  schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(), this.opts.delay);
  }

  /* Check the draft now: nothing to check, one line only, too long to send, or ask the checker. */
  check() {
    clearTimeout(this.timer);
    clearTimeout(this.retryTimer);
    const text = this.textarea.value;
    if (this.inflight) this.inflight.abort();
    this.inflight = null;
    const length = Array.from(text).length;
    if (!Array.from(text).some((c) => HAN.test(c))) {
      this.blank(text, this.S.empty);
    } else if (verseCount(text) < 2) {
      // One line cannot be judged (the checker would answer 400): say so here and send nothing.
      this.sequence += 1;
      this.blank(text, this.S.tooShort);
    } else if (length > this.opts.maxLength) {
      // Over the API's limit: say so here rather than send it (the draft itself is untouched).
      this.sequence += 1;
      this.fade(fill(this.S.tooLong, { count: length, max: this.opts.maxLength }), "warn");
      this.setBusy(false);
      this.tell("onReport", null, this.S.tooLong);
    } else {
      this.send(text);
    }
  }

  /* Nothing to report for `text` (no verse, or one line only): an empty report and a hint. */
  blank(text, hint) {
    this.lastReport = null;
    this.lastCheckedText = text;
    this.body.replaceChildren();
    this.setVerdict("");
    this.setMessage(hint, "hint");
    this.setBusy(false);
    this.tell("onReport", null, null);
  }

  /* POST the draft (with the hand, and the rule when there is one) as check number `mine`. */
  send(text) {
    const mine = ++this.sequence;
    const controller = typeof AbortController === "function" ? new AbortController() : null;
    this.inflight = controller;
    this.setBusy(true);
    const payload = { text: text, rhyme_book: this.rhymeBook() };
    const hand = charsOf(this.opts.hand);
    if (hand.length) payload.hand = hand.join("");
    if (hand.length && this.opts.rule) payload.rule = this.opts.rule;  // 集字: fixes are suggested from the hand only
    if (hand.length && this.opts.blanks) payload.wildcards = Number(this.opts.blanks) || 0;
    const title = typeof this.opts.title === "function" ? this.opts.title() : this.opts.title;
    if (title) payload.title = String(title);  // its tiles count as used
    if (this.opts.form) payload.form = this.opts.form;  // the declared form (五言絕句 …), judged as declared
    if (this.opts.guPing) payload.gu_ping = this.opts.guPing;  // 七言孤平: "wangli" (default) or "lenient"
    const how = { headers: this.opts.headers, signal: controller ? controller.signal : undefined };
    api("POST", this.opts.endpoint, payload, how)
      .then((result) => this.answered(result, mine, text))
      .catch((error) => {
        if (error && error.name === "AbortError") return;
        if (mine !== this.sequence) return;
        this.inflight = null;
        this.offline();
      });
  }

  /* The checker's answer to check number `mine` for `text` (answers to older checks are dropped). */
  answered(result, mine, text) {
    if (mine !== this.sequence) return;
    this.inflight = null;
    if (result.status === 0) { this.offline(); return; }  // no answer: the network is away
    this.setBusy(false);
    this.lastCheckedText = text;
    if (result.status < 500) this.retryDelay = 0;
    if (result.ok) {
      this.lastReport = result.data;
      this.render(result.data);
      this.tell("onReport", result.data, null);
    } else if (result.status >= 400 && result.status < 500) {
      // The text cannot be judged yet (one line, no verse …): say why, keep the old report faded.
      const detail = result.detail || result.data.error || "";
      this.fade(this.S.cannotCheck + detail, "hint");
      this.tell("onReport", null, detail);
    } else {
      this.offline();
    }
  }

  offline() {
    this.setBusy(false);
    this.body.classList.add("pe-stale");
    this.setMessage(this.S.network, "warn");
    this.tell("onReport", null, this.S.network);
    this.retryDelay = Math.min(30000, this.retryDelay ? this.retryDelay * 2 : 3000);  // 3 s, 6 s … at most 30 s
    this.retryTimer = setTimeout(() => this.check(), this.retryDelay);
  }

  // ---- drawing the report (static/editor/report.js) -------------------------------------------

  locked() { return this.textarea.readOnly || this.textarea.disabled; }  // a submitted poem

  render(report) {
    this.body.classList.remove("pe-stale");
    const drawn = drawReport(report, {
      S: this.S, hand: this.opts.hand, rule: this.opts.rule, blanks: this.opts.blanks, locked: this.locked(),
      select: (lineNo, pos) => this.select(lineNo, pos),
      replace: (lineNo, pos, char) => this.replaceAt(lineNo, pos, char),
    });
    this.setVerdict(drawn.verdict);
    if (this.messageKind !== "done") this.setMessage("");
    this.body.replaceChildren(...drawn.parts);
  }

  // ---- editing the textarea from the report ---------------------------------------------------

  /* [offset, length] in the draft of the character the last report shows at line/pos, or null when
     the draft changed since that report. */
  span(lineNo, pos) {
    const textarea = this.textarea;
    if (!this.lastReport || textarea.value !== this.lastCheckedText) return null;
    const lines = this.lastReport.lines || [];
    let index = -1;
    lines.forEach((line, i) => { if (line.number === lineNo) index = i; });
    if (index < 0) return null;
    const spans = locate(textarea.value, lines)[index];
    return spans ? spans[pos - 1] || null : null;
  }

  select(lineNo, pos) {
    const s = this.span(lineNo, pos);
    if (!s) return;
    this.textarea.focus({ preventScroll: true });
    this.textarea.setSelectionRange(s[0], s[0] + s[1]);
  }

  replaceAt(lineNo, pos, char) {
    if (this.locked()) return false;
    const textarea = this.textarea;
    const s = this.span(lineNo, pos);
    if (!s) {
      this.setMessage(this.S.stale, "hint");
      this.check();
      return false;
    }
    const before = textarea.value;
    const old = before.substr(s[0], s[1]);
    textarea.value = before.slice(0, s[0]) + char + before.slice(s[0] + s[1]);
    textarea.setSelectionRange(s[0] + char.length, s[0] + char.length);
    this.undoState = { text: before };
    const S = this.S;
    this.setMessage(fill(S.replaced, { line: lineNo, pos: pos, old: old, new: char }), "done",
      { label: S.undo, run: () => this.undo() });
    this.edited(false);
    textarea.dispatchEvent(new Event("pe-replaced", { bubbles: true }));
    return true;
  }

  /* 「復原」 after a suggestion click: the draft as it was before it. */
  undo() {
    if (!this.undoState) return;
    this.textarea.value = this.undoState.text;
    this.undoState = null;
    this.setMessage("");
    this.edited(false);
  }

  // ---- what attach() hands the page -----------------------------------------------------------

  setOptions(partial) {
    partial = Object.assign({}, partial || {});
    if (partial.mode !== undefined && partial.rule === undefined) partial.rule = partial.mode;
    Object.assign(this.opts, partial);
    this.check();
  }

  setText(text, how) {
    this.textarea.value = String(text);
    if (how && how.silent) {
      this.store(this.textarea.value);
      this.check();
    } else {
      this.edited(false);
    }
  }

  destroy() {
    clearTimeout(this.timer);
    clearTimeout(this.retryTimer);
    if (this.inflight) this.inflight.abort();
    for (const [type, handler] of Object.entries(this.handlers)) this.textarea.removeEventListener(type, handler);
    if (this.opts.rhymeBookSelect) this.opts.rhymeBookSelect.removeEventListener("change", this.onBook);
  }

  /* The controller (see the top of this file): plain functions, so a page may pass them around unbound. */
  controller() {
    return {
      check: () => this.check(),
      report: () => this.lastReport,
      setOptions: (partial) => this.setOptions(partial),
      setText: (text, how) => this.setText(text, how),
      replaceAt: (lineNo, pos, char) => this.replaceAt(lineNo, pos, char),
      notify: (text, kind, action) => this.setMessage(text, kind, action),
      locate: () => (this.lastReport ? locate(this.textarea.value, this.lastReport.lines || []) : null),
      destroy: () => this.destroy(),
    };
  }
}

/** A PoemEditor on `textarea` (see the top of this file for the options); returns its controller. */
export function attach(textarea, options) {
  if (!textarea || textarea.tagName !== "TEXTAREA") throw new Error("PoemEditor.attach needs a <textarea>");
  return new PoemEditor(textarea, options).start().controller();
}

// For pages and tests that reach the editor without importing it (window.PoemEditor.attach).
window.PoemEditor = { attach: attach, locate: locate };
