/*
 * What the round shows after the writing: the 詩伯's record of every hand while poems are written, then,
 * once published, every poem with its 品 and comment, and every hand. Functions take the page's state.
 */
import { $, el, fill, api } from "../common.js";
import { isHost, seatName } from "./seats.js";
import { byToneThenRhyme, tileNode } from "./tiles.js";

/* Each hand folded in a <details>, its tiles by 平仄 and rhyme group. */
function renderHands(page, box, hands) {
  const { S } = page;
  box.textContent = "";
  hands.forEach((h) => {
    const details = el("details", "hand-record");
    details.appendChild(el("summary", "",
      fill(S.handOf, { name: h.name || seatName(page, h.seat) }) + "（" + fill(S.seatN, { n: h.seat }) + "）"));
    const tiles = el("div", "hand hand-small");
    h.tiles.slice().sort(byToneThenRhyme).forEach((t) => { tiles.appendChild(tileNode(t, "tile-sm")); });
    details.appendChild(tiles);
    box.appendChild(details);
  });
}

/** The 詩伯's record of every hand (while the poems are written). */
export function loadRecord(page) {
  if (!isHost(page) || page.state.phase !== "dealt") return;
  api("GET", page.base + "/hands").then((r) => {
    if (r.ok) renderHands(page, $("record"), r.data.hands);
  });
}

function poemCard(page, p) {
  const { S } = page;
  const card = el("article", "poem-card");
  const head = el("header", "");
  head.appendChild(el("h3", "", p.submitted ? (p.title || S.untitled) : S.notSubmitted));
  head.appendChild(el("p", "poet", p.name + "（" + fill(S.seatN, { n: p.seat }) + (p.is_host ? "，" + S.host : "") + "）"));
  if (p.grade) head.appendChild(el("p", "grade", S.grade + "：" + p.grade));
  card.appendChild(head);
  if (p.submitted) card.appendChild(el("p", "poem-text", p.text));
  if (p.comment) card.appendChild(el("p", "comment", p.comment));
  return card;
}

/** The published round: every poem, then every hand under its poet's name. */
export function loadResults(page) {
  api("GET", page.base + "/results").then((r) => {
    if (!r.ok) return;
    const box = $("poems");
    box.textContent = "";
    r.data.poems.forEach((p) => box.appendChild(poemCard(page, p)));
    const names = {};
    r.data.poems.forEach((p) => { names[p.seat] = p.name; });
    renderHands(page, $("all-hands"), r.data.hands.map((h) => Object.assign({ name: names[h.seat] }, h)));
  });
}
