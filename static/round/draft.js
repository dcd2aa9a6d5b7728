/*
 * The seat's draft: checked live by the PoemEditor (static/editor.js), saved on the server as one types
 * (PUT /api/rounds/<code>/draft), kept on this device while the network is away, handed in with 交卷.
 * Every function takes the page's shared state (static/round.js); page.draft holds the saving's state.
 */
import { $, el, fill, api, storage } from "../common.js";
import { attach } from "../editor.js";
import { isAncient } from "../editor/report.js";
import { handChars, markUsed } from "./hand.js";
import { notice, plays } from "./seats.js";

const FIRST_RETRY = 2000;  // ms before saving again after a network failure; doubled up to MAX_RETRY
const MAX_RETRY = 15000;

/** The draft's state on this page (page.draft). */
export function newDraftState(page) {
  return {
    key: "shipai-draft-" + page.code + "-" + (page.state.me ? page.state.me.seat : "x"),  // this device's copy
    timer: null, inFlight: false, dirty: false, retryDelay: FIRST_RETRY,
    revision: 0,  // the draft revision this page last saw on the server
  };
}

export function setSaveStatus(text, kind) {
  const node = $("save-status");
  node.textContent = text;
  node.setAttribute("data-kind", kind || "");
}

function currentDraft() {
  return { title: $("poem-title").value, text: $("poem-text").value, form: $("poem-form").value || null };
}

/* 局規: what breaks the round's rule, as the server's own function says (PUT draft's `rule`, the 422's
   violations), each item once; cleared when the draft keeps the rule again. */
function showRule(page, violations) {
  const list = $("violations");
  list.replaceChildren();
  const seen = new Set();
  (violations || []).forEach((v) => {
    if (seen.has(v.message)) return;
    seen.add(v.message);
    list.appendChild(el("li", "", v.message));
  });
  $("rule-box").hidden = seen.size === 0;
  page.draft.ruleBroken = seen.size > 0;
  document.dispatchEvent(new CustomEvent("round:rule", { detail: violations || [] }));
}

function keepLocal(draft, dirty, fields) {
  storage.setJSON(draft.key, Object.assign({ dirty: dirty, base: draft.revision }, fields));
}

function clock(date) { return date.toLocaleTimeString("zh-TW", { hour12: false }); }

/** An edit: keep it on this device now, save it on the server after a pause in the typing. */
export function scheduleSave(page, delay) {
  const draft = page.draft;
  draft.dirty = true;
  keepLocal(draft, true, currentDraft());
  setSaveStatus(page.S.unsaved, "pending");
  clearTimeout(draft.timer);
  draft.timer = setTimeout(() => saveNow(page), delay === undefined ? 700 : delay);
}

function saveNow(page) {
  const draft = page.draft;
  if (draft.inFlight || page.submitted || !draft.dirty) return;
  draft.inFlight = true;
  draft.dirty = false;
  const fields = currentDraft();
  setSaveStatus(page.S.saving, "pending");
  api("PUT", page.base + "/draft", fields).then((r) => {
    draft.inFlight = false;
    if (r.ok) {
      saved(page, fields, r.data.revision);
      if (r.data.rule) showRule(page, r.data.rule.violations);
    } else notSaved(page, r);
  });
}

function saved(page, fields, revision) {
  const draft = page.draft;
  draft.retryDelay = FIRST_RETRY;
  draft.revision = revision || draft.revision;
  if (draft.dirty) { scheduleSave(page, 300); return; }  // typed on while it was saving
  setSaveStatus(fill(page.S.saved, { time: clock(new Date()) }), "ok");
  keepLocal(draft, false, fields);
}

function notSaved(page, r) {
  const draft = page.draft;
  draft.dirty = true;  // keep it
  if (r.status === 0 || r.status >= 500 || r.status === 429) {
    // kept on this device (keepLocal); try again, a little later each time, or when the server asks (Retry-After)
    setSaveStatus(r.status === 503 || r.status === 429 ? r.detail || page.S.offlineSave : page.S.offlineSave,
                  "offline");
    clearTimeout(draft.timer);
    draft.timer = setTimeout(() => saveNow(page), Math.max(draft.retryDelay, r.retryAfter * 1000));
    draft.retryDelay = Math.min(draft.retryDelay * 2, MAX_RETRY);
  } else {
    setSaveStatus(r.detail || page.S.networkError, "error");
    if (r.status === 409) page.refresh();
  }
}

/** Lock the draft once handed in (unlocked when the 詩伯 reopens it). */
export function setLocked(page, locked) {
  page.submitted = locked;
  $("poem-title").readOnly = locked;
  $("poem-text").readOnly = locked;
  $("submit-button").hidden = locked;
  $("submitted-note").hidden = !locked;
  if (!locked) $("withdraw-button").hidden = true;  // nothing handed in to take back
  if (locked) setSaveStatus(page.S.locked, "ok");
}

/** Load the saved draft from the server, or this device's unsaved edit of it. */
export function loadDraft(page) {
  if (!plays(page) || page.state.phase !== "dealt") return Promise.resolve();
  return api("GET", page.base + "/draft").then((r) => {
    $("submit-button").disabled = false;  // 交卷 waits for the saved text: never hands in an empty page
    if (!r.ok) return;
    const d = r.data;
    const draft = page.draft;
    const local = storage.getJSON(draft.key);
    draft.revision = d.revision || 0;
    // an edit this device could not save (offline, closed tab) is restored, unless the server's draft
    // has moved on since (saved from another device): then the server's wins
    const restoreLocal = !d.submitted && local && local.dirty && local.base === draft.revision &&
      (local.title !== d.title || local.text !== d.text);
    const shown = restoreLocal ? local : d;
    $("poem-title").value = shown.title || "";
    $("poem-form").value = shown.form || "";
    if (page.editor) page.editor.setOptions({ form: shown.form || null });
    if (page.editor) page.editor.setText(shown.text || ""); else $("poem-text").value = shown.text || "";
    setLocked(page, !!d.submitted);
    if (restoreLocal) scheduleSave(page, 0);
    else if (!d.submitted) {
      draft.dirty = false;
      clearTimeout(draft.timer);
      setSaveStatus(d.updated_at ? fill(page.S.saved, { time: clock(new Date(d.updated_at)) }) : "", "ok");
    }
    markUsed();
  });
}

function edited(page) {
  if (page.submitted) return;
  scheduleSave(page);
  markUsed();
}

/** The PoemEditor on the draft, with the round's rule (韻腳 or 集字) and the seat's hand. */
export function attachEditor(page) {
  if (page.editor || !plays(page)) return;
  const state = page.state;
  const rule = state.composition === "jizi" ? "jizi" : "rhyme";
  page.editor = attach($("poem-text"), {
    output: $("poem-report"),
    rhymeBook: state.rhyme_book,
    hand: handChars(page),
    rule: rule,
    blanks: rule === "jizi" ? (state.wildcards || 0) : 0,
    title: () => $("poem-title").value,  // the title's tiles count as used, as at submission
    form: $("poem-form").value || null,
    onChange: () => edited(page),
    onReport: (report) => { offerForm(page, report); summarise(page, report); },
  });
  $("poem-form").addEventListener("change", () => {
    page.editor.setOptions({ form: $("poem-form").value || null });  // judged as declared
    edited(page);
  });
  let titleTimer = null;
  $("poem-title").addEventListener("input", () => {
    edited(page);
    clearTimeout(titleTimer);
    titleTimer = setTimeout(() => page.editor.check(), 400);
  });
}

/* The form offered: 「依詩形（五言絕句）」 names what the shape reads as; one click declares another. */
function offerForm(page, report) {
  const auto = $("poem-form-auto");
  if (!auto || $("poem-form").value) return;
  auto.textContent = report && report.form ? fill(page.S.formAutoAs, { form: report.form }) : page.S.formAuto;
}

/* The report's fold line: the verdict and the faults to mend (all one sees of it when folded), or the label. */
function summarise(page, report) {
  const faults = report ? (report.violations || []).filter((v) => v.severity === "error").length : 0;
  const ancient = report && isAncient(report);
  $("report-summary").textContent = !report ? page.S.reportLabel
    : report.regulated ? page.S.reportGood : ancient ? page.S.reportAncient
    : faults ? fill(report.verdict === "ancient_faults" ? page.S.reportAncientFaults : page.S.reportFaults,
      { count: faults }) : page.S.reportOther;
}

/* The themes panel's 「以此起稿」: take its title (when none yet) and say which rhyme it suggests. */
function startFromTheme(page, d) {
  if (page.submitted || $("editor-panel").hidden) return;
  if (d.title && !$("poem-title").value.trim()) {
    $("poem-title").value = d.title;
    scheduleSave(page);
    markUsed();
  }
  const feet = Array.isArray(d.feet) ? d.feet.join("") : String(d.feet || "");
  const rhyme = d.rhyme ? fill(page.S.themeRhyme, { rhyme: d.rhyme, feet: feet }) : "";
  notice(fill(page.S.themeStart, { title: d.title || "", rhyme: rhyme }));
  $("poem-text").focus();
}

/* 交卷: first the round's rule on the draft as it stands (PUT draft, the submission's own function): what
   breaks it is shown before the lock confirmation; then the lock. A refusal lists the same items. */
function submit(page) {
  const { S, draft } = page;
  const button = $("submit-button");
  button.disabled = true;
  $("submit-error").textContent = "";
  clearTimeout(draft.timer);
  const fields = currentDraft();
  api("PUT", page.base + "/draft", fields).then((r) => {
    if (r.ok) {
      saved(page, fields, r.data.revision);
      showRule(page, r.data.rule ? r.data.rule.violations : []);
    }
    if (page.draft.ruleBroken || !window.confirm(S.confirmSubmit)) {
      button.disabled = false;
      if (page.draft.ruleBroken) $("rule-box").scrollIntoView({ block: "nearest" });
      return;
    }
    handIn(page, fields);
  });
}

function handIn(page, fields) {
  const { S, draft } = page;
  const button = $("submit-button");
  api("POST", page.base + "/submit", fields).then((r) => {
    button.disabled = false;
    if (r.ok) {
      draft.dirty = false;
      storage.remove(draft.key);
      setLocked(page, true);
      showRule(page, []);
      notice(S.submitOk);
      page.refresh();
      return;
    }
    if (r.data && Array.isArray(r.data.violations) && r.data.violations.length) {
      showRule(page, r.data.violations);  // the same list as the editor's, once each
      $("submit-error").textContent = S.ruleRefused;
    } else {
      $("submit-error").textContent = r.detail || S.networkError;
    }
  });
}

/** Saving when the network returns, a warning before leaving unsaved, the theme panel, 交卷. */
export function wireDraft(page) {
  window.addEventListener("online", () => { if (page.draft.dirty) saveNow(page); });
  window.addEventListener("beforeunload", (event) => {
    if (page.draft.dirty || page.draft.inFlight) { event.preventDefault(); event.returnValue = ""; }
  });
  document.addEventListener("theme:start", (event) => startFromTheme(page, event.detail || {}));
  $("submit-button").addEventListener("click", () => submit(page));
}
