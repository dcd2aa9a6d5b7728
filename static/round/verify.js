/*
 * /r/<code>/verify: recompute the commitment and the deal in the browser from the published salt and
 * stack (the rules poetry/tiles.py deals by; templates/verify.html explains them to the reader).
 */
import { $, el, fill, readJSON, api } from "../common.js";

const TILES = 600;

function hex(buffer) {
  return Array.from(new Uint8Array(buffer)).map((b) => b.toString(16).padStart(2, "0")).join("");
}

/* Deal the stack again (the count from the 詩伯's seat, then one each in turn): one check per rule. */
function checkDeal(data, S, check) {
  const order = data.reveal.order;
  const whole = order.length === TILES && new Set(order).size === TILES;
  check(whole, whole ? S.size : S.sizeBad);
  // the count: N strokes from the 詩伯's seat (seat 1 when the 詩伯 does not play)
  const n = data.count_tile.strokes;
  const first = (n - 1) % 4 + 1;
  const countOk = order[0] === data.count_tile.char && first === data.first_seat;
  check(countOk, countOk ? fill(S.countTile, { char: order[0], n: n, seat: first }) : S.countTileBad);
  // the draw: from the second tile, the count tile last, one each in turn from the first drawer
  const pile = order.slice(1).concat(order.slice(0, 1));
  const hands = { 1: [], 2: [], 3: [], 4: [] };
  pile.forEach((c, i) => { hands[(first - 1 + i) % 4 + 1].push(c); });
  const bad = data.hands.filter((h) => h.tiles.map((t) => t.char).join("") !== hands[h.seat].join(""));
  check(!bad.length && data.hands.length === 4,
    !bad.length ? S.hands : fill(S.handsBad, { seat: bad.map((h) => h.seat).join("、") }));
}

function verify(code, S, checks, check) {
  checks.textContent = "";
  if (!(window.crypto && window.crypto.subtle)) { check(false, S.noCrypto); return; }
  checks.appendChild(el("li", "", S.loading));
  api("GET", "/api/rounds/" + encodeURIComponent(code) + "/results").then((r) => {
    checks.textContent = "";
    if (!r.ok) { check(false, fill(S.failed, { detail: r.detail || r.status })); return; }
    const data = r.data;
    const salt = data.reveal.salt;
    const order = data.reveal.order;
    $("salt").textContent = salt;
    $("order").textContent = order.join("");
    const bytes = new TextEncoder().encode(salt + "\n" + order.join(""));
    return window.crypto.subtle.digest("SHA-256", bytes).then((digest) => {
      const got = hex(digest);
      check(got === data.commitment, got === data.commitment ? S.commitment : fill(S.commitmentBad, { got: got }));
      checkDeal(data, S, check);
    });
  });
}

/** Start the verify page: its button runs every check and lists each with data-ok. */
export function initVerify() {
  const button = $("verify-button");
  if (!button) return;
  const S = readJSON("verify-strings");
  const code = $("verify").getAttribute("data-code");
  const checks = $("checks");
  function check(ok, text) {
    const item = el("li", "", text);
    item.setAttribute("data-ok", ok ? "true" : "false");
    checks.appendChild(item);
  }
  button.addEventListener("click", () => verify(code, S, checks, check));
}
