/*
 * The helpers every page script of 詩牌 shares. A native ES module (no build step):
 *
 *   import { $, el, fill, readJSON, api, storage } from "./common.js";
 *
 * DOM: $ and el. Words: fill puts values into the {placeholders} of the UI strings, which templates pass in
 * JSON blocks (readJSON), so that the 简体 switch converts them with the page. The JSON API: api, with the
 * CSRF header cookie writes need and the server's Chinese `detail` on errors. This device: storage
 * (localStorage that never throws, for drafts). User strings are only ever set with textContent.
 */

/** The element with this id (or null). */
export function $(id) {
  return document.getElementById(id);
}

/** A new element with an optional class and text (set as textContent, never as HTML). */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

/** Put values into a UI string's {placeholders}: fill("第{n}座", {n: 2}) is "第2座"; unknown ones stay. */
export function fill(template, values) {
  return String(template || "").replace(/\{(\w+)\}/g, (all, key) =>
    Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : all);
}

/** The data of a <script type="application/json" id=…> block; `fallback` when missing or unreadable. */
export function readJSON(id, fallback = {}) {
  const node = $(id);
  if (!node) return fallback;
  try {
    return JSON.parse(node.textContent);
  } catch (e) {
    return fallback;
  }
}

/*
 * The characters the checker keeps: the Han ranges of poetry/text.py (HAN_RANGES; tests/test_static_js.py
 * compares the two), plus 〇 and □, a gap in a restored text.
 */
export const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{20000}-\u{323af}〇□]/u;

// --- the JSON API ------------------------------------------------------------------------------------

function csrfToken() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta ? meta.getAttribute("content") : "";
}

/*
 * Call the JSON API (/api/openapi.json). Resolves {ok, status, data, detail}: `detail` is the server's
 * Chinese explanation of a refusal ("" when it gave none); status 0 when the network failed. A request
 * aborted through options.signal rejects with its AbortError; options.headers adds headers. Writes from a
 * seated browser carry the X-CSRF-Token header from <meta name="csrf-token"> (views/rounds.py refuses
 * cookie writes without it).
 */
export function api(method, url, body, options = {}) {
  const headers = Object.assign({ "Accept": "application/json" }, options.headers);
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const token = csrfToken();
  if (token && method !== "GET") headers["X-CSRF-Token"] = token;
  // retryAfter: the seconds a 429 or 503 asks the page to wait (Retry-After), else 0
  const answer = (ok, status, data, retryAfter) => ({ ok, status, data, detail: (data && data.detail) || "",
                                                     retryAfter: retryAfter || 0 });
  return fetch(url, {
    method, headers, credentials: "same-origin", signal: options.signal,
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(
    (response) => response.json().catch(() => ({})).then((data) => answer(
      response.ok, response.status, data, Number(response.headers.get("Retry-After")) || 0)),
    (error) => {
      if (error && error.name === "AbortError") throw error;
      return answer(false, 0, {});
    });
}

// --- this device -------------------------------------------------------------------------------------

/* localStorage that never throws: private modes and full disks lose the copy, never the page. */
export const storage = {
  get(key) {
    try { return window.localStorage.getItem(key); } catch (e) { return null; }
  },
  set(key, value) {
    try { window.localStorage.setItem(key, value); } catch (e) { /* private mode: the page still holds it */ }
  },
  remove(key) {
    try { window.localStorage.removeItem(key); } catch (e) { /* private mode */ }
  },
  /** The JSON kept under key, or null (none, or unreadable). */
  getJSON(key) {
    try { return JSON.parse(this.get(key) || "null"); } catch (e) { return null; }
  },
  setJSON(key, value) {
    this.set(key, JSON.stringify(value));
  },
};

/* Buttons with data-copy="<input id>" copy that input's text (a private or invitation link). */
export function wireCopyButtons(root, copiedText) {
  (root || document).querySelectorAll("[data-copy]").forEach((button) => {
    button.addEventListener("click", () => {
      const input = $(button.getAttribute("data-copy"));
      if (!input) return;
      input.select();
      const done = () => {
        const old = button.textContent;
        button.textContent = copiedText || "✓";
        setTimeout(() => { button.textContent = old; }, 1500);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(input.value).then(done, () => { document.execCommand("copy"); done(); });
      } else {
        try { document.execCommand("copy"); } catch (e) { /* the text stays selected */ }
        done();
      }
    });
  });
}
