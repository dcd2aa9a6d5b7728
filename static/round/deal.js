/*
 * The deal, shown as it happens: the 詩伯 turns the count tile, the count goes round the seats, then
 * everyone draws one tile at a time in turn until each holds 150 (poetry/tiles.py deals the same way;
 * /r/<code>/verify recomputes it). Every function takes the page's shared state (static/round.js).
 */
import { $, el, fill } from "../common.js";
import { plays, seatName } from "./seats.js";
import { renderHand } from "./hand.js";
import { tileNode } from "./tiles.js";

const TILES = 600;
const HAND_SIZE = 150;

/** The four seats in drawing order, from seat `start`. */
function seatOrder(start) { return [0, 1, 2, 3].map((i) => (start - 1 + i) % 4 + 1); }

function buildDealSeats(page, counts) {
  const list = $("deal-seats");
  list.textContent = "";
  (page.state.turn_order || seatOrder(1)).slice().sort().forEach((n) => {
    const item = el("li", "deal-seat");
    item.setAttribute("data-seat", String(n));
    item.appendChild(el("span", "seat-no", fill(page.S.seatN, { n: n })));
    item.appendChild(el("span", "seat-name", seatName(page, n)));
    const pile = el("span", "pile");
    pile.appendChild(el("span", "pile-fill"));
    item.appendChild(pile);
    item.appendChild(el("span", "pile-count", String(counts ? counts[n] : 0)));
    list.appendChild(item);
  });
}

function setPile(n, count) {
  const item = $("deal-seats").querySelector('[data-seat="' + n + '"]');
  if (!item) return;
  item.querySelector(".pile-count").textContent = String(count);
  item.querySelector(".pile-fill").style.width = (count / HAND_SIZE * 100).toFixed(1) + "%";
}

/* Mark seat n (in the deal and at the table) with cls; n = -1 clears the mark. */
function highlightSeat(n, cls) {
  $("deal-seats").querySelectorAll(".deal-seat").forEach((item) => {
    item.classList.toggle(cls, item.getAttribute("data-seat") === String(n));
  });
  $("seats").querySelectorAll(".seat").forEach((item) => {
    item.classList.toggle(cls, item.getAttribute("data-seat") === String(n));
  });
}

function showCountTile(page) {
  const t = page.state.count_tile;
  const node = $("count-tile");
  if (!t) return;
  node.textContent = t.char;
  if (t.tone) node.setAttribute("data-tone", t.tone);
  node.title = fill(page.S.strokes, { n: t.strokes });
}

function countDone(page) {
  const { S, state } = page;
  return fill(S.countDone, { n: state.count_tile.strokes, seat: state.first_seat, name: seatName(page, state.first_seat) });
}

/** The deal as it ended, without the animation (a page opened after the deal). */
export function showDealResult(page) {
  showCountTile(page);
  if (page.state.count_tile) $("count-text").textContent = countDone(page);
  buildDealSeats(page, { 1: HAND_SIZE, 2: HAND_SIZE, 3: HAND_SIZE, 4: HAND_SIZE });
  [1, 2, 3, 4].forEach((n) => setPile(n, HAND_SIZE));
  highlightSeat(page.state.first_seat, "first");
  $("replay-anim").hidden = false;
}

function wait(page, ms) {
  return new Promise((resolve) => { setTimeout(resolve, page.deal.skip ? 0 : ms); });
}

/* The 詩伯 turns the count tile over. */
function turnCountTile(page, show) {
  const t = page.state.count_tile;
  show.count.textContent = "？";
  show.count.removeAttribute("data-tone");
  show.count.classList.remove("flipped");
  buildDealSeats(page, null);
  if (show.mine && page.hand) show.hand.textContent = "";
  return wait(page, 400).then(() => {
    showCountTile(page);
    show.count.classList.add("flipped");
    show.text.textContent = fill(page.S.countIntro, { char: t.char, n: t.strokes, start: seatName(page, show.start) });
    return wait(page, 900);
  });
}

/* The count: 1 at the 詩伯's seat (seat 1 when the 詩伯 does not play), round the table to N strokes. */
function countRound(page, show) {
  const t = page.state.count_tile;
  const step = Math.max(60, Math.min(280, 2400 / t.strokes));
  const intro = fill(page.S.countIntro, { char: t.char, n: t.strokes, start: seatName(page, show.start) });
  let i = 0;
  function next() {
    if (i >= t.strokes) return Promise.resolve();
    i += 1;
    highlightSeat((show.start - 1 + i - 1) % 4 + 1, "counting");
    show.text.textContent = intro + " " + fill(page.S.countStep, { i: i });
    return wait(page, step).then(next);
  }
  return next().then(() => {
    highlightSeat(-1, "counting");
    highlightSeat(page.state.first_seat, "first");
    show.text.textContent = countDone(page);
    return wait(page, 900);
  });
}

/* The draw: one tile at a time from the top, in turn; slow at first, then faster. This seat's tiles
   arrive in its hand as they are drawn (in draw order only: a sorted hand is drawn at the end). */
function drawTiles(page, show) {
  const order = page.state.turn_order || seatOrder(page.state.first_seat);
  const counts = { 1: 0, 2: 0, 3: 0, 4: 0 };
  let done = 0;
  let mineShown = 0;
  const showMine = () => show.mine && page.hand && mineShown < page.hand.length && page.sortMode === "draw";
  return new Promise((resolve) => {
    function frame() {
      const batch = page.deal.skip ? TILES : done < 16 ? 1 : done < 64 ? 4 : 24;
      for (let k = 0; k < batch && done < TILES; k++) {
        const seat = order[done % 4];
        counts[seat] += 1;
        done += 1;
        setPile(seat, counts[seat]);
        if (seat === show.mine && showMine()) {
          const node = tileNode(page.hand[mineShown], "arrive");
          node.setAttribute("data-index", String(mineShown));
          show.hand.appendChild(node);
          mineShown += 1;
        }
      }
      highlightSeat(order[done % 4], "counting");
      show.text.textContent = fill(page.S.drawing, { done: done });
      if (done >= TILES) { resolve(); return; }
      setTimeout(frame, page.deal.skip ? 0 : done < 16 ? 220 : 60);
    }
    frame();
  });
}

/** Play the deal out; resolves when every tile is drawn and the hand is drawn in its sort order. */
export function animateDeal(page) {
  const deal = page.deal;
  if (deal.animating || !page.state.count_tile) return Promise.resolve();
  deal.animating = true;
  // those who asked their system for less motion see where the tiles went, not 600 of them flying
  // (略過動畫 for everyone else; 重看抽牌 plays it out on request)
  deal.skip = !deal.replaying && !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  deal.replaying = false;
  $("skip-anim").hidden = false;
  $("replay-anim").hidden = true;
  const show = {
    start: 1,  // the count starts at seat 1, the 詩伯's seat when the 詩伯 plays
    count: $("count-tile"), text: $("count-text"), hand: $("hand"),
    mine: plays(page) ? page.state.me.seat : null,
  };
  return turnCountTile(page, show)
    .then(() => countRound(page, show))
    .then(() => drawTiles(page, show))
    .then(() => {
      highlightSeat(-1, "counting");
      show.text.textContent = countDone(page) + " " + page.S.drawDone;
      deal.animating = false;
      $("skip-anim").hidden = true;
      $("replay-anim").hidden = false;
      renderHand(page);
    });
}

/** 略過動畫 and 重看抽牌. */
export function wireDeal(page) {
  $("skip-anim").addEventListener("click", () => { page.deal.skip = true; });
  $("replay-anim").addEventListener("click", () => { page.deal.replaying = true; animateDeal(page); });
}
