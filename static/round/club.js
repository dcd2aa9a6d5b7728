/*
 * A round as a club plays it (issue 12), on the round page: the clock's time left, one's 韻牌, 撤回,
 * the 詩伯 led to judging (the poems handed in readable here; 評品 first, 公佈 once all are graded),
 * the rematch and, on the old round's page, the offer to follow it. Takes the page's shared state.
 */
import { $, el, fill, readJSON, api } from "../common.js";
import { isHost, notice, plays } from "./seats.js";
import { loadDraft } from "./draft.js";

const C = readJSON("club-strings", {});

function mySeat(page) { return page.state.me ? page.state.me.seat : null; }

/* "12:34" left, or the time is up; every second while the round is being written. */
function renderClock(page) {
  const line = $("clock-line");
  const deadline = page.state.deadline && page.state.phase === "dealt" ? Date.parse(page.state.deadline) : null;
  line.hidden = !deadline;
  if (!deadline) return;
  const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
  line.setAttribute("data-left", String(left));
  line.textContent = left > 0
    ? fill(C.timeLeft, { m: Math.floor(left / 60), s: String(left % 60).padStart(2, "0") })
    : C.timeUp;
}

function renderRhyme(page) {
  const rhymes = page.state.rhymes || null;
  const mine = rhymes && mySeat(page) ? rhymes[String(mySeat(page))] : null;
  $("rhyme-line").hidden = !rhymes;
  if (!rhymes) return;
  const all = Object.keys(rhymes).map((seat) => {
    const s = (page.state.seats || []).filter((x) => String(x.seat) === seat)[0];
    return (s ? s.name : seat) + "：" + rhymes[seat];
  }).join("　");
  $("rhyme-line").textContent = (mine ? fill(C.myRhyme, { rhyme: mine }) + "　" : "") + fill(C.allRhymes, { all: all });
}

function renderFollow(page) {
  const next = page.state.next_code;
  $("follow-line").hidden = !next;
  if (next) $("follow-link").href = "/r/" + encodeURIComponent(next) + "/follow";
}

/* The 詩伯: 評品 is the primary action until every poem handed in has its 品, then 公佈; after: 再來一局. */
function renderHostActions(page) {
  if (!isHost(page)) return;
  const { state } = page;
  const waiting = (state.seats || []).filter((s) => s.plays && s.submitted && !s.graded);
  const judge = $("judge-link");
  const publish = $("publish-button");
  const judgingFirst = state.phase === "dealt" && waiting.length > 0;
  if (judge) {
    judge.classList.toggle("secondary", !judgingFirst);
    judge.hidden = state.phase === "lobby";
  }
  publish.classList.toggle("secondary", judgingFirst);
  if (state.phase === "dealt") {
    $("host-hint").textContent = waiting.length
      ? fill(C.gradeFirst, { names: waiting.map((s) => s.name).join("、") })
      : C.readyToPublish;
  }
  $("rematch-button").hidden = !(state.phase === "published" && !state.next_code);
}

/* The poems handed in, readable on the 詩伯's page (a playing 詩伯: once their own is in). */
function loadHostPoems(page) {
  const box = $("host-poems");
  box.textContent = "";
  if (!isHost(page) || page.state.phase !== "dealt") return;
  api("GET", page.base + "/poems").then((r) => {
    if (!r.ok) return;
    box.textContent = "";
    if (r.data.hidden) box.appendChild(el("p", "hint", C.fairHidden));
    r.data.poems.forEach((p) => {
      const s = (page.state.seats || []).filter((x) => x.seat === p.seat)[0];
      const item = el("article", "host-poem");
      item.appendChild(el("h3", "", (s ? s.name : p.seat) + "・" + p.title));
      p.text.split("\n").filter((line) => line.trim()).forEach((line) => item.appendChild(el("p", "verse-line plain", line)));
      box.appendChild(item);
    });
  });
}

function renderWithdraw(page) {
  const me = (page.state.seats || []).filter((s) => s.seat === mySeat(page))[0];
  $("withdraw-button").hidden = !(plays(page) && page.state.phase === "dealt" && me && me.submitted && !me.graded);
}

/** Draw the club's parts from page.state (after every refresh). */
export function renderClub(page) {
  renderClock(page);
  renderRhyme(page);
  renderFollow(page);
  renderHostActions(page);
  renderWithdraw(page);
  loadHostPoems(page);
  if (page.state.phase === "published" && $("themes-panel")) $("themes-panel").hidden = true;
}

/** A live event of the club's kinds: 撤回 (everyone sees it), a rematch (follow it). */
export function onClubEvent(page, kind, data) {
  if (kind === "withdrawn") notice(fill(C.withdrawn, { name: data.name || "", n: data.seat }));
  if (kind === "rematch") notice(C.rematch);
}

/* 韻牌, live in the editor: the feet the server's rule check (PUT draft's `rule`, the submission's own
   function, poetry.rules.check_rhyme) finds outside the seat's rhyme. */
function showRhymeVerdict(page, violations) {
  const rhymes = page.state.rhymes || null;
  const mine = rhymes && mySeat(page) ? rhymes[String(mySeat(page))] : null;
  const out = $("rhyme-check");
  if (!mine) { out.hidden = true; return; }
  const off = [...new Set(violations.filter((v) => v.where === "rhyme_tile").map((v) => v.char))];
  out.hidden = false;
  out.setAttribute("data-ok", off.length ? "no" : "yes");
  out.textContent = off.length ? fill(C.offRhyme, { chars: off.join("、"), rhyme: mine }) : fill(C.inRhyme, { rhyme: mine });
}

/** Wire 撤回 and 再來一局, and the clock's tick. */
export function wireClub(page) {
  document.addEventListener("round:rule", (event) => showRhymeVerdict(page, event.detail));
  $("withdraw-button").addEventListener("click", () => {
    if (!window.confirm(C.confirmWithdraw)) return;
    api("POST", page.base + "/withdraw", {}).then((r) => {
      if (!r.ok) { notice(r.detail || C.networkError); return; }
      // the draft comes back unlocked, with its text, before anything else on the page moves
      loadDraft(page).then(() => page.refresh());
    });
  });
  $("rematch-button").addEventListener("click", () => {
    api("POST", page.base + "/rematch", {}).then((r) => {
      if (!r.ok) { notice(r.detail || C.networkError); return; }
      window.location.href = "/r/" + encodeURIComponent(r.data.code) + "/follow";  // this device's seat comes along
    });
  });
  setInterval(() => renderClock(page), 1000);
}
