/* 詩伯's dashboard: one click sets a poem's 品 (with the comment), the standing updates, 公佈 publishes. */
(function () {
  "use strict";
  var root = document.getElementById("judge");
  if (!root) return;
  var code = root.getAttribute("data-code");
  var base = "/api/rounds/" + encodeURIComponent(code);
  var meta = document.querySelector('meta[name="csrf-token"]');
  var csrf = meta ? meta.getAttribute("content") : "";
  var stringsBlock = document.getElementById("judge-strings");
  var S = stringsBlock ? JSON.parse(stringsBlock.textContent) : {};
  function fill(template, values) {
    return String(template || "").replace(/\{(\w+)\}/g, function (_, key) { return values[key]; });
  }

  function send(method, url, body) {
    var headers = { "Content-Type": "application/json", "Accept": "application/json" };
    if (csrf) headers["X-CSRF-Token"] = csrf;
    return fetch(url, { method: method, headers: headers, credentials: "same-origin",
                        body: body === undefined ? undefined : JSON.stringify(body) })
      .then(function (res) {
        return res.json().catch(function () { return {}; }).then(function (data) {
          if (!res.ok) throw new Error(data.detail || fill(S.failed, { status: res.status }));
          return data;
        });
      });
  }

  function renderLadder(ranking) {
    document.querySelectorAll("#grade-ladder .rung").forEach(function (rung) {
      var grade = rung.getAttribute("data-grade");
      var fill = rung.querySelector(".rung-fill");
      var here = ranking.ranking.filter(function (r) { return (r.grade || "") === grade; });
      fill.textContent = "";
      here.forEach(function (r) {
        var name = document.createElement("span");
        name.className = "rung-name";
        name.textContent = r.name;
        fill.appendChild(name);
      });
      if (!here.length && grade) {
        var empty = document.createElement("span");
        empty.className = "rung-empty";
        empty.textContent = S.noneOnRung;
        fill.appendChild(empty);
      }
      if (!grade) rung.hidden = !here.length;
    });
  }

  var penaltyBlock = document.getElementById("judge-penalty");
  var penalty = penaltyBlock ? JSON.parse(penaltyBlock.textContent) : "";

  /* The standing in a sentence, as the page first drew it (grade_ladder.html's standing_summary): the words
     from S (in the reader's 繁/简), the names and the penalty as typed. */
  function standingSentence(ranking) {
    if (!ranking.winners.length && !ranking.losers.length) return S.noGrades;
    var text = "";
    if (ranking.winners.length) {
      text += S.won + ranking.winners.map(function (w) { return w.name + "（" + w.grade + "）"; }).join("、") + "；";
    }
    if (ranking.losers.length) {
      text += S.lost + ranking.losers.map(function (x) {
        return x.name + "（" + x.grade + "）" + penalty + (x.grade === "荒牌" ? S.doubled : "");
      }).join("、");
    } else {
      text += S.noLoser;
    }
    return text + (ranking.complete ? S.complete : S.incomplete);
  }

  function renderStanding(ranking) {
    renderLadder(ranking);
    document.getElementById("standing-summary").textContent = standingSentence(ranking);
    var list = document.getElementById("standing-list");
    list.textContent = "";
    ranking.ranking.forEach(function (r) {
      var li = document.createElement("li");
      li.setAttribute("data-grade", r.grade || "");
      var place = document.createElement("span");
      place.className = "place";
      place.textContent = r.place || "—";
      var pin = document.createElement("span");
      pin.className = "pin";
      pin.textContent = r.grade || S.ungraded;
      li.appendChild(place);
      li.appendChild(document.createTextNode(" " + r.name + " "));
      li.appendChild(pin);
      if (!r.submitted) {
        var note = document.createElement("span");
        note.className = "note";
        note.textContent = S.notSubmitted;
        li.appendChild(note);
      }
      list.appendChild(li);
    });
  }

  function save(form, grade) {
    var seat = parseInt(form.getAttribute("data-seat"), 10);
    var status = form.querySelector(".saved");
    var comment = form.querySelector("textarea").value;
    status.textContent = S.saving;
    status.classList.remove("error-message");
    return send("POST", base + "/grades", { seat: seat, grade: grade, comment: comment })
      .then(function (data) {
        form.querySelectorAll(".grade-button").forEach(function (b) {
          b.setAttribute("aria-pressed", b.getAttribute("data-grade") === grade ? "true" : "false");
        });
        form.setAttribute("data-grade", grade);
        status.textContent = fill(S.saved, { grade: grade }) + (comment ? S.commentSaved : "");
        renderStanding(data.ranking);
      })
      .catch(function (err) {
        status.textContent = err.message;
        status.classList.add("error-message");
      });
  }

  document.querySelectorAll("form.verdict").forEach(function (form) {
    var pressed = form.querySelector('.grade-button[aria-pressed="true"]');
    if (pressed) form.setAttribute("data-grade", pressed.getAttribute("data-grade"));
    form.addEventListener("submit", function (ev) { ev.preventDefault(); });
    form.querySelectorAll(".grade-button").forEach(function (button) {
      button.addEventListener("click", function () { save(form, button.getAttribute("data-grade")); });
    });
    form.querySelector("textarea").addEventListener("change", function () {
      var grade = form.getAttribute("data-grade");
      if (grade) save(form, grade);
      else form.querySelector(".saved").textContent = S.pickFirst;
    });
  });

  var publish = document.getElementById("publish-button");
  if (publish) {
    publish.addEventListener("click", function () {
      var missing = document.querySelectorAll("form.verdict:not([data-grade])").length;
      if (missing && !window.confirm(fill(S.confirmPublish, { missing: missing }))) return;
      publish.disabled = true;
      send("POST", base + "/publish", {})
        .then(function () { window.location.reload(); })
        .catch(function (err) {
          publish.disabled = false;
          document.getElementById("publish-error").textContent = err.message;
        });
    });
  }

  // The 詩伯's thresholds for this round are kept on this device and applied when the page opens.
  var form = document.querySelector(".threshold-form");
  var key = "shipai-thresholds-" + code;
  if (form && window.localStorage) {
    if (window.location.search) {
      try { localStorage.setItem(key, window.location.search); } catch (e) { /* private mode */ }
    } else {
      var saved = null;
      try { saved = localStorage.getItem(key); } catch (e) { saved = null; }
      if (saved && saved.charAt(0) === "?") { window.location.replace(window.location.pathname + saved); return; }
    }
  }

  // Live: a poem handed in or reopened elsewhere shows here (the rounds' event stream).
  if (window.EventSource) {
    var last = root.getAttribute("data-last-event") || "0";
    var source = new EventSource(base + "/events?after=" + encodeURIComponent(last));
    ["submitted", "reopened"].forEach(function (kind) {
      source.addEventListener(kind, function () {
        var typing = document.activeElement && document.activeElement.tagName === "TEXTAREA";
        if (!typing) { window.location.reload(); return; }
        var note = document.getElementById("live-note");
        note.hidden = false;
        note.textContent = S.changed;
      });
    });
  }
})();
