/*
 * The results page of a published round: 列印; for the 詩伯, 同桌再來一局 (POST rematch, then the new
 * round); for everyone with the page open, the offer to follow a rematch the moment it is opened (the
 * round's event stream, as on the round page). The follow link carries this device's seat over.
 */
import { $, api, readJSON } from "./common.js";

const root = $("results");
const code = root.getAttribute("data-code");
const base = "/api/rounds/" + encodeURIComponent(code);
const S = readJSON("results-strings", {});

function offerToFollow(next) {
  $("follow-link").href = "/r/" + encodeURIComponent(next) + "/follow";
  $("follow-line").hidden = false;
  const rematch = $("rematch-button");
  if (rematch) rematch.hidden = true;
}

function wireRematch() {
  const button = $("rematch-button");
  if (!button) return;
  button.addEventListener("click", () => {
    button.disabled = true;
    api("POST", base + "/rematch", {}).then((r) => {
      if (!r.ok) {
        button.disabled = false;
        $("rematch-error").textContent = r.detail || S.networkError;
        return;
      }
      window.location.href = "/r/" + encodeURIComponent(r.data.code) + "/follow";
    });
  });
}

function listenLive() {
  if (!window.EventSource || !$("follow-line").hidden) return;
  const last = root.getAttribute("data-last-event") || "0";
  const source = new EventSource(base + "/events?after=" + encodeURIComponent(last));
  source.addEventListener("rematch", (event) => {
    let data = {};
    try { data = JSON.parse(event.data); } catch (e) { data = {}; }
    if (data.code) offerToFollow(data.code);
    source.close();
  });
}

$("print-button").addEventListener("click", () => { window.print(); });
wireRematch();
listenLive();
