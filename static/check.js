/* The /check page: a PoemEditor on the draft, a copy kept in localStorage, examples, a counter. */
import { $, fill, storage } from "./common.js";
import { attach } from "./editor.js";
import { isAncient, verdictKept } from "./editor/report.js";

const textarea = $("poem-text");
const count = $("poem-count");
const chip = $("poem-chip");
const max = Number(textarea.dataset.max);  // poetry/text.py LIMITS, as the template wrote it
const KEY = "shipai.check.draft";
const PREVIOUS = KEY + ".previous";

/* The page's words for the script, kept in <template> elements so that 简体 converts them. */
function template(id) {
  const node = $(id);
  return node ? node.innerHTML.trim() : "";
}

function updateCount() {
  const n = Array.from(textarea.value).length;
  count.textContent = fill(template("count-format"), { count: n, max: max });
  count.classList.toggle("check-count-over", n > max);
}

// A small verdict beside the counter: on a phone the report is below the fold while one types.
function updateChip(report) {
  if (!report) { chip.hidden = true; return; }
  const faults = (report.violations || []).filter((v) => v.severity === "error").length;
  const ancient = isAncient(report);
  chip.hidden = false;
  chip.classList.toggle("check-chip-good", verdictKept(report));
  const bad = report.verdict === "ancient_faults" ? "chip-ancient-bad" : "chip-bad";
  chip.textContent = report.regulated ? template("chip-good") : ancient ? template("chip-ancient")
    : faults ? fill(template(bad), { count: faults }) : template("chip-bad-none");
}

const editor = attach(textarea, {
  output: $("poem-report"),
  rhymeBookSelect: $("rhyme-book"),
  storageKey: KEY,
  maxLength: max,
  onChange: updateCount,
  onReport: updateChip,
  onBusy: (on) => { chip.classList.toggle("check-chip-busy", on); },
});
updateCount();
// a declared form is judged as declared (every departure a fault at its place)
$("poem-form").addEventListener("change", () => editor.setOptions({ form: $("poem-form").value || null }));
// 七言孤平: 王力's reading (the 1st char free) or the other
$("poem-gu-ping").addEventListener("change", () => editor.setOptions({ guPing: $("poem-gu-ping").value }));

// Loading an example or clearing replaces the draft: keep the old one and offer it back.
function replaceDraft(text, notice) {
  const before = textarea.value;
  const replaced = before.trim() && before !== text;
  if (replaced) storage.set(PREVIOUS, before);  // the undo button below still has it in private mode
  editor.setText(text);
  if (replaced) {
    editor.notify(notice, "done", {
      label: template("example-restore"),
      run: () => { editor.setText(before); editor.notify("", ""); textarea.focus(); },
    });
  } else if (notice) {
    editor.notify(notice, "done");
  }
}

document.querySelectorAll(".check-example").forEach((button) => {
  button.addEventListener("click", () => {
    replaceDraft(button.dataset.text, fill(template("example-loaded"), { title: button.dataset.title }));
  });
});
$("poem-clear").addEventListener("click", () => {
  replaceDraft("", template("draft-cleared"));
  textarea.focus();
});
