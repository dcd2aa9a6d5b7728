/*
 * The seat's hand: 150 tiles sorted by draw order, 平仄, 韻部 or 筆畫; a click (or Enter) puts a tile into
 * the draft at the cursor; tiles already used in the title or poem fade. Every function takes the page's
 * shared state (static/round.js).
 */
import { $, el, fill, api } from "../common.js";
import { plays } from "./seats.js";
import { byToneThenRhyme, groupKey, rhymeName, tileNode } from "./tiles.js";

/** The hand's characters as one string (for the checker and the themes panel). */
export function handChars(page) {
  return page.hand ? page.hand.map((t) => t.char).join("") : "";
}

function sortedHand(page) {
  const tiles = page.hand.map((t, i) => Object.assign({ index: i }, t));
  const byDraw = (a, b) => a.index - b.index;
  const orders = {
    tone: (a, b) => byToneThenRhyme(a, b) || byDraw(a, b),
    rhyme: (a, b) => groupKey(a.rhyme) - groupKey(b.rhyme) || byDraw(a, b),
    strokes: (a, b) => a.strokes - b.strokes || byDraw(a, b),
  };
  if (orders[page.sortMode]) tiles.sort(orders[page.sortMode]);
  return tiles;
}

/* The heading of a tile's group in the current sort (null in draw order: no groups). */
function groupHeading(page, t) {
  const { S } = page;
  if (page.sortMode === "rhyme") return rhymeName(t.rhyme);
  if (page.sortMode === "strokes") return fill(S.strokes, { n: t.strokes });
  if (page.sortMode === "tone") return (S.tones || {})[t.tone];
  return null;
}

/** Draw the hand in its sort order (not while the deal is still being played out). */
export function renderHand(page) {
  if (!page.hand || page.deal.animating) return;
  const box = $("hand");
  box.textContent = "";
  let group = null;
  let row = box;
  box.classList.toggle("grouped", page.sortMode !== "draw");
  sortedHand(page).forEach((t) => {
    const heading = groupHeading(page, t);
    if (heading !== null && heading !== group) {
      group = heading;
      const g = el("div", "hand-group");
      g.appendChild(el("span", "hand-group-label", heading));
      row = el("div", "hand-group-tiles");
      g.appendChild(row);
      box.appendChild(g);
    }
    const node = tileNode(t);
    node.setAttribute("data-index", String(t.index));
    node.setAttribute("role", "button");
    node.tabIndex = t.index === page.focusIndex ? 0 : -1;
    row.appendChild(node);
  });
  // one tab stop for the whole hand (the arrow keys move within it), not 150
  if (!box.querySelector('.tile[tabindex="0"]') && box.querySelector(".tile")) box.querySelector(".tile").tabIndex = 0;
  $("hand-count").textContent = fill(page.S.handCount, { n: page.hand.length }) +
    (page.state.wildcards ? fill(page.S.handWildcards, { n: page.state.wildcards }) : "");
  markUsed();
}

/** Fade the tiles whose character is already in the title or the poem. */
export function markUsed() {
  const text = ($("poem-title").value || "") + ($("poem-text").value || "");
  const counts = {};
  Array.from(text).forEach((c) => { counts[c] = (counts[c] || 0) + 1; });
  $("hand").querySelectorAll(".tile").forEach((node) => {
    node.classList.toggle("used", !!counts[node.textContent]);
  });
}

function insertChar(ch, keepFocus) {
  const area = $("poem-text");
  if (area.readOnly || $("editor-panel").hidden) return;
  area.setRangeText(ch, area.selectionStart, area.selectionEnd, "end");
  area.dispatchEvent(new Event("input", { bubbles: true }));
  // on a phone, focusing would pop the keyboard up at every tile: keep the cursor, not the focus;
  // from the keyboard, stay on the tile so that the next one is an arrow key away
  if (keepFocus) return;
  if (!(window.matchMedia && window.matchMedia("(pointer: coarse)").matches)) area.focus({ preventScroll: true });
}

function focusTile(page, node) {
  $("hand").querySelectorAll('.tile[tabindex="0"]').forEach((other) => { other.tabIndex = -1; });
  node.tabIndex = 0;
  page.focusIndex = Number(node.getAttribute("data-index"));
  node.focus();
}

function onHandKey(page, event) {
  const node = event.target.closest(".tile");
  if (!node) return;
  if (event.key === "Enter" || event.key === " ") { event.preventDefault(); insertChar(node.textContent, true); return; }
  const tiles = Array.from($("hand").querySelectorAll(".tile"));
  const at = tiles.indexOf(node);
  const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1,
    Home: 0, End: tiles.length - 1 }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  focusTile(page, tiles[Math.max(0, Math.min(tiles.length - 1, to))]);
}

/** The sort buttons, and tiles into the draft by click or keyboard. */
export function wireHand(page) {
  document.querySelectorAll("[data-sort]").forEach((button) => {
    button.addEventListener("click", () => {
      page.sortMode = button.getAttribute("data-sort");
      document.querySelectorAll("[data-sort]").forEach((b) => {
        b.setAttribute("aria-pressed", b === button ? "true" : "false");
      });
      renderHand(page);
    });
  });
  $("hand").addEventListener("click", (event) => {
    const node = event.target.closest(".tile");
    if (node) insertChar(node.textContent);
  });
  $("hand").addEventListener("keydown", (event) => onHandKey(page, event));
}

/** Fetch the seat's tiles (once dealt) and give them to the editor. */
export function loadHand(page) {
  if (!plays(page) || page.state.phase === "lobby") return Promise.resolve();
  return api("GET", page.base + "/hand").then((r) => {
    if (!r.ok) return;
    page.hand = r.data.tiles;
    if (page.editor) page.editor.setOptions({ hand: handChars(page) });
  });
}

/** For panels beside the hand (themes): the seat's own tiles, once the deal has been shown. */
export function announceHand(page) {
  if (!page.hand) return;
  const panel = $("themes-panel");
  if (panel) {
    panel.setAttribute("data-chars", handChars(page));
    panel.hidden = false;
  }
  document.dispatchEvent(new CustomEvent("round:hand", { detail: { code: page.code, tiles: page.hand } }));
}
