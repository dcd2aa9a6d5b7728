/*
 * Opening a round (/r/new): the 詩伯's form, an optional tile-set file, then the links to hand out.
 * templates/round_new.html: import { initNew } from this module; initNew({endpoint: "/api/rounds"}).
 */
import { $, readJSON, api, storage, wireCopyButtons } from "../common.js";

const MAX_TILE_SET_BYTES = 512 * 1024;

/* The chosen tile-set file's text; null when none is chosen; rejects with a message when too big. */
function readFile(input, S) {
  const file = input.files && input.files[0];
  if (!file) return Promise.resolve(null);
  if (file.size > MAX_TILE_SET_BYTES) return Promise.reject(S.fileTooBig);
  return file.text();
}

function checked(form, name) {
  return form.querySelector('input[name="' + name + '"]:checked').value;
}

/* The club's settings (issue 12): cups per 品, the clock's minutes (blank: none), the 韻牌. */
function clubSettings() {
  const cups = {};
  document.querySelectorAll(".cups-input").forEach((input) => {
    cups[input.getAttribute("data-grade")] = parseInt(input.value || "0", 10) || 0;
  });
  const body = { cups: cups, rhyme_draw: $("rhyme_draw").checked };
  const minutes = $("minutes").value.trim();
  if (minutes) body.minutes = Number(minutes);
  return body;
}

function roundRequest(form, tileSet) {
  const body = {
    title: $("title").value,
    host_name: $("host_name").value,
    host_plays: checked(form, "host_plays") === "yes",
    rhyme_book: $("rhyme_book").value,
    penalty: $("penalty").value,
    composition: checked(form, "composition"),
    wildcards: parseInt($("wildcards").value || "0", 10) || 0,
  };
  if (tileSet !== null) body.tile_set = tileSet;
  return Object.assign(body, clubSettings());
}

/* The round is open: keep the 詩伯's private link on this device and show the links to hand out. */
function showCreated(form, d) {
  storage.set("shipai-link-" + d.code, d.host_link);
  $("created-code").textContent = d.code;
  $("host-link").value = d.host_link;
  $("invite-link").value = d.round_url;
  $("enter-round").href = d.round_url;
  form.hidden = true;
  $("created").hidden = false;
  $("enter-round").focus();
}

/** Start the /r/new page; options.endpoint is the API that opens a round. */
export function initNew(options) {
  const form = $("new-round");
  const error = $("new-error");
  const S = readJSON("new-strings");
  wireCopyButtons(document);
  form.querySelectorAll('input[name="composition"]').forEach((radio) => {
    radio.addEventListener("change", () => { $("wildcards-row").hidden = checked(form, "composition") !== "jizi"; });
  });
  form.querySelectorAll('input[name="host_plays"]').forEach((radio) => {  // 三 friends, or 四 when only judging
    radio.addEventListener("change", () => { $("invite-count").textContent = checked(form, "host_plays") === "yes" ? "三" : "四"; });
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    error.textContent = "";
    const button = $("create-button");
    button.disabled = true;
    readFile($("tile_set"), S).then((tileSet) => api("POST", options.endpoint, roundRequest(form, tileSet)))
      .then((result) => {
        button.disabled = false;
        if (result.ok) showCreated(form, result.data);
        else error.textContent = result.detail || S.createFailed;
      }, (message) => {
        button.disabled = false;
        error.textContent = typeof message === "string" ? message : S.fileUnreadable;
      });
  });
}
