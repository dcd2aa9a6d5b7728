/*
 * The table of a round: who sits where, the phase (候座 → 作詩中 → 已公佈), the notice line and the
 * 詩伯's controls. Every function takes the page's shared state (static/round.js builds it).
 */
import { $, el, fill, api } from "../common.js";

export function isHost(page) { return !!(page.state.me && page.state.me.is_host); }

/** Whether this browser's seat draws tiles and writes (the 詩伯 may only judge). */
export function plays(page) { return !!(page.state.me && page.state.me.plays); }

export function playerCount(page) {
  return (page.state.seats || []).filter((s) => s.plays).length;
}

/** The name at seat n, or "第n座" while it is empty. */
export function seatName(page, n) {
  const seat = (page.state.seats || []).filter((s) => s.seat === n)[0];
  return seat ? seat.name : fill(page.S.seatN, { n: n });
}

/** Show a line above the table (or hide it with no text). */
export function notice(text) {
  const box = $("notice");
  box.textContent = text || "";
  box.hidden = !text;
}

function badge(kind, text) { return el("span", "badge badge-" + kind, text); }

function seatItem(page, n, s) {
  const { S, state } = page;
  const item = el("li", "seat" + (s ? "" : " seat-empty"));
  item.setAttribute("data-seat", String(n));
  item.appendChild(el("span", "seat-no", n === 0 ? S.judgeOnly : fill(S.seatN, { n: n })));
  item.appendChild(el("span", "seat-name", s ? s.name : S.empty));
  const badges = el("span", "seat-badges");
  if (s && s.is_host) badges.appendChild(badge("host", S.host));
  if (s && state.me && state.me.seat === s.seat) badges.appendChild(badge("you", S.you));
  if (s && s.plays && state.phase !== "lobby") {
    badges.appendChild(badge(s.submitted ? "done" : "writing",
      s.submitted ? S.submitted : (state.phase === "published" ? S.notSubmitted : S.writing)));
  }
  item.appendChild(badges);
  return item;
}

/* Seats 1–4, and seat 0 before them when the 詩伯 only judges. */
function renderSeats(page) {
  const list = $("seats");
  list.textContent = "";
  const bySeat = {};
  (page.state.seats || []).forEach((s) => { bySeat[s.seat] = s; });
  const numbers = bySeat[0] ? [0, 1, 2, 3, 4] : [1, 2, 3, 4];
  numbers.forEach((n) => list.appendChild(seatItem(page, n, bySeat[n])));
  $("invite-row").hidden = page.state.phase !== "lobby";
}

/* A handed-in poem, with the 詩伯's 重開 button that unlocks it. */
function submissionItem(page, s) {
  const { S } = page;
  const item = el("li", "submission");
  item.appendChild(el("span", "seat-name", fill(S.seatN, { n: s.seat }) + " " + s.name));
  item.appendChild(badge(s.submitted ? "done" : "writing", s.submitted ? S.submitted : S.writing));
  if (!s.submitted) return item;
  const reopen = el("button", "secondary small", S.reopen);
  reopen.type = "button";
  reopen.setAttribute("data-reopen", String(s.seat));
  reopen.addEventListener("click", () => {
    reopen.disabled = true;
    api("POST", page.base + "/reopen", { seat: s.seat }).then((r) => {
      reopen.disabled = false;
      notice(r.ok ? fill(S.reopened, { n: s.seat }) : (r.detail || S.networkError));
      if (r.ok) page.refresh();
    });
  });
  item.appendChild(reopen);
  return item;
}

function renderHost(page) {
  const { S, state } = page;
  $("host-panel").hidden = !isHost(page);
  if (!isHost(page)) return;
  const count = playerCount(page);
  $("deal-button").hidden = state.phase !== "lobby";
  $("deal-button").disabled = count < 4;
  $("publish-button").hidden = state.phase !== "dealt";
  $("host-hint").textContent = state.phase === "lobby"
    ? (count < 4 ? fill(S.needPlayers, { have: count }) : S.readyToDeal)
    : state.phase === "dealt" ? S.dealt : S.published;
  const list = $("submissions");
  list.textContent = "";
  if (state.phase !== "dealt") return;
  (state.seats || []).filter((s) => s.plays).forEach((s) => list.appendChild(submissionItem(page, s)));
}

/* Which panels this seat sees in this phase, and what the notice line says. */
function renderPhase(page) {
  const { S, state } = page;
  const label = $("phase-label");
  label.textContent = (S.phases || {})[state.phase] || state.phase;
  label.setAttribute("data-phase", state.phase);
  const full = playerCount(page) >= 4;
  const writing = plays(page) && state.phase !== "lobby";
  $("join-panel").hidden = !(state.phase === "lobby" && !state.me && !full);
  if (!state.me) notice(state.phase === "lobby" ? (full ? S.full : "") : S.watching);
  else if (!isHost(page) && state.phase === "lobby") notice(full ? S.waitDeal : S.waitHost);
  // after the lobby only the lobby's own words go: a live notice (「撤回」, a rematch) stays for the player to read
  else if (!isHost(page) && [S.waitDeal, S.waitHost].includes($("notice").textContent)) notice("");
  $("deal-panel").hidden = state.phase === "lobby";
  $("hand-panel").hidden = !writing;
  if ($("themes-panel") && !page.hand) $("themes-panel").hidden = true;  // shown once the hand is dealt
  $("editor-panel").hidden = !(plays(page) && state.phase === "dealt");
  $("record-panel").hidden = !(isHost(page) && state.phase === "dealt");
  $("results-panel").hidden = state.phase !== "published";
  if (state.phase !== "lobby") $("commitment").textContent = state.commitment || "";
}

/** Draw the table from page.state. */
export function renderTable(page) {
  renderPhase(page);
  renderSeats(page);
  renderHost(page);
}
