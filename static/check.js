/* The /check page: a PoemEditor on the draft, a copy kept in localStorage, examples, a counter. */
(function () {
  "use strict";
  var textarea = document.getElementById("poem-text");
  var select = document.getElementById("rhyme-book");
  var count = document.getElementById("poem-count");
  var max = Number(textarea.dataset.max) || 2000;
  var KEY = "shipai.check.draft";
  var PREVIOUS = KEY + ".previous";

  function template(id) {
    var node = document.getElementById(id);
    return node ? node.innerHTML.trim() : "";
  }
  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (all, key) { return key in values ? String(values[key]) : all; });
  }
  function updateCount() {
    var n = Array.from(textarea.value).length;
    count.textContent = fill(template("count-format"), { count: n, max: max });
    count.classList.toggle("check-count-over", n > max);
  }

  // A small verdict beside the counter: on a phone the report is below the fold while one types.
  var chip = document.getElementById("poem-chip");
  function updateChip(report) {
    if (!report) { chip.hidden = true; return; }
    var faults = (report.violations || []).filter(function (v) { return v.severity === "error"; }).length;
    chip.hidden = false;
    chip.classList.toggle("check-chip-good", !!report.regulated);
    chip.textContent = report.regulated ? template("chip-good")
      : faults ? fill(template("chip-bad"), { count: faults }) : template("chip-bad-none");
  }

  var editor = window.PoemEditor.attach(textarea, {
    output: document.getElementById("poem-report"),
    rhymeBookSelect: select,
    storageKey: KEY,
    maxLength: max,
    onChange: updateCount,
    onReport: updateChip,
    onBusy: function (on) { chip.classList.toggle("check-chip-busy", on); },
  });
  updateCount();

  // Loading an example or clearing replaces the draft: keep the old one and offer it back.
  function replaceDraft(text, notice) {
    var before = textarea.value;
    if (before.trim() && before !== text) {
      try { window.localStorage.setItem(PREVIOUS, before); } catch (e) { /* the undo button below still has it */ }
    }
    editor.setText(text);
    if (before.trim() && before !== text) {
      editor.notify(notice, "done", {
        label: template("example-restore"),
        run: function () { editor.setText(before); editor.notify("", ""); textarea.focus(); },
      });
    } else if (notice) {
      editor.notify(notice, "done");
    }
  }

  Array.prototype.forEach.call(document.querySelectorAll(".check-example"), function (button) {
    button.addEventListener("click", function () {
      replaceDraft(button.dataset.text, fill(template("example-loaded"), { title: button.dataset.title }));
    });
  });
  document.getElementById("poem-clear").addEventListener("click", function () {
    replaceDraft("", template("draft-cleared"));
    textarea.focus();
  });
})();
