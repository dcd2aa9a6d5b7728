/* 詩伯's dashboard: one click sets a poem's 品 (with the comment), the standing updates, 公佈 publishes. */
import { $, el, fill, readJSON, api, storage } from "./common.js";

const root = $("judge");
const code = root.getAttribute("data-code");
const base = "/api/rounds/" + encodeURIComponent(code);
const S = readJSON("judge-strings");

/* POST to the API; resolves to its data, rejects with the server's Chinese detail as the message. */
function send(url, body) {
  return api("POST", url, body).then((r) => {
    if (!r.ok) throw new Error(r.detail || fill(S.failed, { status: r.status }));
    return r.data;
  });
}

/* The names on each rung of the 品 ladder; the ungraded rung only shows while someone is on it. */
function renderLadder(ranking) {
  document.querySelectorAll("#grade-ladder .rung").forEach((rung) => {
    const grade = rung.getAttribute("data-grade");
    const names = rung.querySelector(".rung-fill");
    const here = ranking.ranking.filter((r) => (r.grade || "") === grade);
    names.textContent = "";
    here.forEach((r) => names.appendChild(el("span", "rung-name", r.name)));
    if (!here.length && grade) names.appendChild(el("span", "rung-empty", S.noneOnRung));
    if (!grade) rung.hidden = !here.length;
  });
}

/* The standing in a sentence, as the page first drew it (grade_ladder.html's standing_summary): the words
   from S (in the reader's 繁/简), the names as typed, each loser's cups. */
function standingSentence(ranking) {
  if (!ranking.winners.length && !ranking.losers.length) return S.noGrades;
  let text = "";
  if (ranking.winners.length) {
    text += S.won + ranking.winners.map((w) => w.name + "（" + w.grade + "）").join("、") + "；";
  }
  if (ranking.losers.length) {
    // each drinks the round's cups for their 品 (the penalty text is only a note)
    text += S.lost + ranking.losers.map((x) =>
      x.name + "（" + x.grade + "）" + (x.cups ? fill(S.drink, { n: x.cups }) : S.noDrink)).join("、");
  } else {
    text += S.noLoser;
  }
  return text + (ranking.complete ? S.complete : S.incomplete);
}

function standingItem(r) {
  const li = el("li");
  li.setAttribute("data-grade", r.grade || "");
  li.appendChild(el("span", "place", r.place || "—"));
  li.appendChild(document.createTextNode(" " + r.name + " "));
  li.appendChild(el("span", "pin", r.grade || S.ungraded));
  if (!r.submitted) li.appendChild(el("span", "note", S.notSubmitted));
  return li;
}

function renderStanding(ranking) {
  renderLadder(ranking);
  $("standing-summary").textContent = standingSentence(ranking);
  const list = $("standing-list");
  list.textContent = "";
  ranking.ranking.forEach((r) => list.appendChild(standingItem(r)));
}

/* After publication a changed 品 shows on every screen and in the results (「公佈後改評」): the 詩伯
   confirms it first, and the API is told so ("confirm": true). False when the 詩伯 declines. */
function confirmChange(form, grade) {
  const before = form.getAttribute("data-grade");
  if (root.getAttribute("data-phase") !== "published" || before === grade) return true;
  return window.confirm(fill(S.confirmChange, { seat: form.getAttribute("data-seat"), from: before || S.ungraded,
                                               to: grade }));
}

/* Set a poem's 品 with the comment as written now; the answer carries the new standing. */
function save(form, grade) {
  const seat = parseInt(form.getAttribute("data-seat"), 10);
  const status = form.querySelector(".saved");
  const comment = form.querySelector("textarea").value;
  if (!confirmChange(form, grade)) {
    status.textContent = S.changeKept;
    return Promise.resolve();
  }
  const body = { seat: seat, grade: grade, comment: comment };
  if (root.getAttribute("data-phase") === "published") body.confirm = true;
  status.textContent = S.saving;
  status.classList.remove("error-message");
  return send(base + "/grades", body)
    .then((data) => {
      form.querySelectorAll(".grade-button").forEach((b) => {
        b.setAttribute("aria-pressed", b.getAttribute("data-grade") === grade ? "true" : "false");
      });
      form.setAttribute("data-grade", grade);
      status.textContent = fill(S.saved, { grade: grade }) + (comment ? S.commentSaved : "");
      renderStanding(data.ranking);
    })
    .catch((err) => {
      status.textContent = err.message;
      status.classList.add("error-message");
    });
}

function wireVerdict(form) {
  const pressed = form.querySelector('.grade-button[aria-pressed="true"]');
  if (pressed) form.setAttribute("data-grade", pressed.getAttribute("data-grade"));
  form.addEventListener("submit", (ev) => { ev.preventDefault(); });
  form.querySelectorAll(".grade-button").forEach((button) => {
    button.addEventListener("click", () => { save(form, button.getAttribute("data-grade")); });
  });
  form.querySelector("textarea").addEventListener("change", () => {
    const grade = form.getAttribute("data-grade");
    if (grade) save(form, grade);
    else form.querySelector(".saved").textContent = S.pickFirst;
  });
}

function wirePublish() {
  const publish = $("publish-button");
  if (!publish) return;
  publish.addEventListener("click", () => {
    const missing = document.querySelectorAll("form.verdict:not([data-grade])").length;
    if (missing && !window.confirm(fill(S.confirmPublish, { missing: missing }))) return;
    publish.disabled = true;
    send(base + "/publish", {})
      .then(() => { window.location.reload(); })
      .catch((err) => {
        publish.disabled = false;
        $("publish-error").textContent = err.message;
      });
  });
}

/* The 詩伯's thresholds for this round are kept on this device and applied when the page opens.
   True when the page is being reloaded with them. */
function applySavedThresholds() {
  if (!document.querySelector(".threshold-form")) return false;
  const key = "shipai-thresholds-" + code;
  if (window.location.search) {
    storage.set(key, window.location.search);
    return false;
  }
  const saved = storage.get(key);
  if (!(saved && saved.charAt(0) === "?")) return false;
  window.location.replace(window.location.pathname + saved);
  return true;
}

/* Live: a poem handed in or reopened elsewhere shows here, a rematch is offered (the rounds' event stream). */
function listenLive() {
  if (!window.EventSource) return;
  const last = root.getAttribute("data-last-event") || "0";
  const source = new EventSource(base + "/events?after=" + encodeURIComponent(last));
  ["submitted", "withdrawn", "reopened"].forEach((kind) => {
    source.addEventListener(kind, () => {
      const typing = document.activeElement && document.activeElement.tagName === "TEXTAREA";
      if (!typing) { window.location.reload(); return; }
      const note = $("live-note");
      note.hidden = false;
      note.textContent = S.changed;
    });
  });
  // a rematch opened from another page: offer to follow it (the link keeps this device's seat)
  source.addEventListener("rematch", (event) => {
    let data = {};
    try { data = JSON.parse(event.data); } catch (e) { data = {}; }
    if (!data.code) return;
    const note = $("live-note");
    const link = el("a", "button", S.follow);
    link.id = "follow-link";
    link.href = "/r/" + encodeURIComponent(data.code) + "/follow";
    note.replaceChildren(link);
    note.hidden = false;
  });
}

document.querySelectorAll("form.verdict").forEach(wireVerdict);
wirePublish();
if (!applySavedThresholds()) listenLive();
