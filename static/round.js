/*
 * The round page of 詩牌 (/r/<code>), an ES module loaded by templates/round.html. Everything the page
 * shows comes from the JSON API (/api/openapi.json); live changes arrive as server-sent events
 * (/api/rounds/<code>/events, docs/LIVE_UPDATES.md), after which the page fetches what its seat may see.
 *
 * This module builds the one state object the parts share and wires them:
 *   round/seats.js    the table: seats, phase, notice line, the 詩伯's controls
 *   round/deal.js     the deal played out: count tile, count round the table, the draw
 *   round/hand.js     the seat's hand: sorting, tiles into the draft, used tiles fading
 *   round/draft.js    the draft: PoemEditor, saving as one types, 交卷
 *   round/results.js  the 詩伯's record of the hands, the published poems
 *   round/tiles.js    a tile's look and the 平水韻 order
 * Page-level events for other panels: `round:hand` (the seat's tiles), `round:ready` (the state).
 */
import { $, fill, readJSON, api, storage, wireCopyButtons } from "./common.js";
import { animateDeal, showDealResult, wireDeal } from "./round/deal.js";
import { attachEditor, loadDraft, newDraftState, setLocked, setSaveStatus, wireDraft } from "./round/draft.js";
import { announceHand, loadHand, renderHand, wireHand } from "./round/hand.js";
import { loadRecord, loadResults } from "./round/results.js";
import { isHost, notice, renderTable } from "./round/seats.js";
import { onClubEvent, renderClub, wireClub } from "./round/club.js";

const LIVE_KINDS = ["seats", "dealt", "submitted", "reopened", "published", "graded", "withdrawn", "rematch"];

/** The state every part of the page reads and writes. */
function newPage() {
  const state = readJSON("round-state");  // the round as this seat may see it; replaced by refresh()
  const page = {
    S: readJSON("round-strings"),
    state: state,
    code: state.code,
    base: "/api/rounds/" + encodeURIComponent(state.code),
    lastEvent: state.last_event || 0,
    hand: null,             // [{char, tone, rhyme, strokes}] in draw order
    sortMode: "draw",
    focusIndex: null,       // the hand's one tab stop: the tile last moved to with the arrow keys
    editor: null,
    submitted: false,
    deal: { animating: false, skip: false, replaying: false },
  };
  page.draft = newDraftState(page);
  page.refresh = () => refresh(page);
  return page;
}

/* Fetch the round again; a new phase is entered, else the 詩伯's record follows the submissions. */
function refresh(page) {
  return api("GET", page.base).then((r) => {
    if (!r.ok) return;
    const before = page.state.phase;
    page.state = r.data;
    renderTable(page);
    renderClub(page);
    if (before !== page.state.phase) enterPhase(page, before);
    else if (page.state.phase === "dealt" && isHost(page)) loadRecord(page);
  });
}

/* Dealt: the hand (played out when the deal just happened), the editor and the draft. Published: results. */
function enterPhase(page, before) {
  const phase = page.state.phase;
  if (phase === "dealt" || phase === "published") {
    loadHand(page).then(() => {
      attachEditor(page);
      if (before === "lobby") {
        animateDeal(page).then(() => announceHand(page));
      } else {
        showDealResult(page);
        renderHand(page);
        announceHand(page);
      }
      return loadDraft(page);
    });
    if (isHost(page)) loadRecord(page);
  }
  if (phase === "published") {
    setLocked(page, true);
    loadResults(page);
  }
}

function onLiveEvent(page, kind, event) {
  page.lastEvent = Math.max(page.lastEvent, parseInt(event.lastEventId || "0", 10) || 0);
  let data = {};
  try { data = JSON.parse(event.data); } catch (e) { data = {}; }
  if (kind === "reopened" && page.state.me && data.seat === page.state.me.seat) {
    setLocked(page, false);
    setSaveStatus("", "");
    notice(fill(page.S.reopened, { n: data.seat }));
  }
  onClubEvent(page, kind, data);
  page.refresh().then(() => {
    if (kind === "graded" && page.state.phase === "published") loadResults(page);
  });
}

/* Server-sent events from the last one this page has seen (polling in browsers without EventSource). */
function connect(page) {
  const live = $("live-status");
  if (!window.EventSource) {
    setInterval(page.refresh, 3000);
    live.textContent = page.S.live;
    return;
  }
  const source = new EventSource(page.base + "/events?after=" + page.lastEvent);
  source.onopen = () => { live.textContent = page.S.live; live.setAttribute("data-kind", "ok"); };
  source.onerror = () => { live.textContent = page.S.offline; live.setAttribute("data-kind", "offline"); };
  LIVE_KINDS.forEach((kind) => source.addEventListener(kind, (event) => onLiveEvent(page, kind, event)));
}

/* 入座, and the 詩伯's 抽牌 and 公佈. */
function wireTable(page) {
  const { S } = page;
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    $("join-error").textContent = "";
    api("POST", page.base + "/join", { name: $("join-name").value }).then((r) => {
      if (!r.ok) { $("join-error").textContent = r.detail || S.networkError; return; }
      storage.set("shipai-link-" + page.code, r.data.link);
      window.location.reload();  // the page now renders with this seat's cookie and CSRF token
    });
  });
  $("deal-button").addEventListener("click", () => {
    const button = $("deal-button");
    button.disabled = true;
    $("host-hint").textContent = S.dealing;
    api("POST", page.base + "/deal").then((r) => {
      if (!r.ok) { notice(r.detail || S.networkError); button.disabled = false; return; }
      page.refresh();
    });
  });
  $("publish-button").addEventListener("click", () => {
    const missing = (page.state.seats || []).filter((s) => s.plays && !s.submitted).map((s) => s.name);
    const question = missing.length ? fill(S.confirmPublish, { names: missing.join("、") }) : S.confirmPublishAll;
    if (!window.confirm(question)) return;
    api("POST", page.base + "/publish").then((r) => {
      if (!r.ok) notice(r.detail || S.networkError);
      page.refresh();
    });
  });
}

/** Start the round page. */
export function initRound() {
  const page = newPage();
  wireCopyButtons(document, page.S.copied);
  // the private link shown once at create/join, kept on this device
  const myLink = storage.get("shipai-link-" + page.code);
  if (myLink && page.state.me) {
    $("my-link").hidden = false;
    $("my-link-input").value = myLink;
  }
  wireDeal(page);
  wireHand(page);
  wireDraft(page);
  wireTable(page);
  wireClub(page);
  renderTable(page);
  renderClub(page);
  enterPhase(page, page.state.phase);
  connect(page);
  document.dispatchEvent(new CustomEvent("round:ready", { detail: { code: page.code, state: page.state } }));
  return page;
}
