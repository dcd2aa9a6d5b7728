/*
 * RoundPage — the round pages of 詩牌: opening a round (/r/new) and the round itself (/r/<code>).
 * No dependencies, no build step. Everything the page shows comes from the JSON API (/api/openapi.json);
 * live changes arrive as server-sent events (/api/rounds/<code>/events, docs/LIVE_UPDATES.md), after which
 * the page fetches what its seat may see. User strings are only ever set with textContent.
 */
(function () {
  "use strict";

  // --- small helpers -----------------------------------------------------------------------------

  function $(id) { return document.getElementById(id); }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function fill(template, values) {
    return String(template || "").replace(/\{(\w+)\}/g, function (all, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : all;
    });
  }

  function readJSON(id) {
    var node = $(id);
    if (!node) return {};
    try { return JSON.parse(node.textContent); } catch (e) { return {}; }
  }

  function csrfToken() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") : "";
  }

  /* fetch JSON; resolves {ok, status, data}; status 0 when the network failed. */
  function api(method, url, body) {
    var headers = { "Accept": "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    var token = csrfToken();
    if (token && method !== "GET") headers["X-CSRF-Token"] = token;
    return fetch(url, {
      method: method, headers: headers, credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body)
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        return { ok: response.ok, status: response.status, data: data };
      });
    }, function () { return { ok: false, status: 0, data: {} }; });
  }

  function wireCopyButtons(root, copiedText) {
    (root || document).querySelectorAll("[data-copy]").forEach(function (button) {
      button.addEventListener("click", function () {
        var input = $(button.getAttribute("data-copy"));
        if (!input) return;
        input.select();
        var done = function () {
          var old = button.textContent;
          button.textContent = copiedText || "✓";
          setTimeout(function () { button.textContent = old; }, 1500);
        };
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(input.value).then(done, function () { document.execCommand("copy"); done(); });
        } else {
          try { document.execCommand("copy"); } catch (e) { /* the text stays selected */ }
          done();
        }
      });
    });
  }

  function storageGet(key) { try { return window.localStorage.getItem(key); } catch (e) { return null; } }
  function storageSet(key, value) { try { window.localStorage.setItem(key, value); } catch (e) { /* private mode */ } }
  function storageDel(key) { try { window.localStorage.removeItem(key); } catch (e) { /* private mode */ } }

  // 平水韻 group order: 上平 一…十五, 下平 一…十五, 上聲, 去聲, 入聲.
  var PARTS = ["上平", "下平", "上聲", "去聲", "入聲"];
  var DIGITS = { "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9 };
  function numeral(text) {
    // 一 … 三十: 十 = 10, 十五 = 15, 二十一 = 21
    var m = /^([一二三四五六七八九]?)(十?)([一二三四五六七八九]?)/.exec(text || "");
    if (!m || !(m[1] || m[2] || m[3])) return 99;
    if (!m[2]) return DIGITS[m[1]] || 99;
    return (m[1] ? DIGITS[m[1]] : 1) * 10 + (m[3] ? DIGITS[m[3]] : 0);
  }
  function groupKey(rhyme) {
    rhyme = rhyme || "";
    for (var i = 0; i < PARTS.length; i++) {
      if (rhyme.indexOf(PARTS[i]) === 0) return i * 100 + numeral(rhyme.slice(PARTS[i].length));
    }
    return 999;
  }

  var tileWords = null;  // the round page's words for a tile's tooltip (converted to 简体 with the page)
  var rhymeNames = null;  // rhyme group → its name in the reader's script (empty for 繁體 readers)

  function rhymeName(rhyme) {
    if (!rhymeNames) rhymeNames = readJSON("rhyme-names");
    return (rhyme && rhymeNames[rhyme]) || rhyme || "";
  }

  function tileNode(tile, extraClass) {
    var node = el("span", "tile" + (extraClass ? " " + extraClass : ""), tile.char);
    if (tile.tone) node.setAttribute("data-tone", tile.tone);
    if (!tileWords) tileWords = readJSON("round-strings");
    var tones = tileWords.tones || {};
    var bits = [tile.tone ? tones[tile.tone] || tile.tone : "", rhymeName(tile.rhyme),
                tile.strokes ? fill(tileWords.strokes || "{n}", { n: tile.strokes }) : ""];
    node.title = bits.filter(Boolean).join(" · ");
    return node;
  }

  // --- /r/new ------------------------------------------------------------------------------------

  function initNew(options) {
    var form = $("new-round");
    var error = $("new-error");
    var S = readJSON("new-strings");
    var wildRow = $("wildcards-row");
    wireCopyButtons(document);
    form.querySelectorAll('input[name="composition"]').forEach(function (radio) {
      radio.addEventListener("change", function () {
        wildRow.hidden = form.querySelector('input[name="composition"]:checked').value !== "jizi";
      });
    });

    function readFile(input) {
      var file = input.files && input.files[0];
      if (!file) return Promise.resolve(null);
      if (file.size > 512 * 1024) return Promise.reject(S.fileTooBig);
      return file.text();
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      error.textContent = "";
      var button = $("create-button");
      button.disabled = true;
      readFile($("tile_set")).then(function (tileSet) {
        var body = {
          title: $("title").value,
          host_name: $("host_name").value,
          host_plays: form.querySelector('input[name="host_plays"]:checked').value === "yes",
          rhyme_book: $("rhyme_book").value,
          penalty: $("penalty").value,
          composition: form.querySelector('input[name="composition"]:checked').value,
          wildcards: parseInt($("wildcards").value || "0", 10) || 0
        };
        if (tileSet !== null) body.tile_set = tileSet;
        return api("POST", options.endpoint, body);
      }).then(function (result) {
        button.disabled = false;
        if (!result.ok) {
          error.textContent = (result.data && result.data.detail) || S.createFailed;
          return;
        }
        var d = result.data;
        storageSet("shipai-link-" + d.code, d.host_link);
        $("created-code").textContent = d.code;
        $("host-link").value = d.host_link;
        $("invite-link").value = d.round_url;
        $("enter-round").href = d.round_url;
        form.hidden = true;
        $("created").hidden = false;
        $("enter-round").focus();
      }, function (message) {
        button.disabled = false;
        error.textContent = typeof message === "string" ? message : S.fileUnreadable;
      });
    });
  }

  // --- /r/<code> ---------------------------------------------------------------------------------

  function initRound() {
    var S = readJSON("round-strings");
    var state = readJSON("round-state");
    var code = state.code;
    var base = "/api/rounds/" + encodeURIComponent(code);
    var hand = null;             // [{char, tone, rhyme, strokes}] in draw order
    var sortMode = "draw";
    var editor = null;
    var lastEvent = state.last_event || 0;
    var animating = false;
    var skipAnimation = false;
    var submitted = false;

    wireCopyButtons(document, S.copied);

    function me() { return state.me; }
    function isHost() { return !!(state.me && state.me.is_host); }
    function plays() { return !!(state.me && state.me.plays); }
    function seatName(n) {
      var seat = (state.seats || []).filter(function (s) { return s.seat === n; })[0];
      return seat ? seat.name : fill(S.seatN, { n: n });
    }
    function notice(text) {
      var box = $("notice");
      box.textContent = text || "";
      box.hidden = !text;
    }

    // private link shown once at create/join, kept on this device
    var myLink = storageGet("shipai-link-" + code);
    if (myLink && state.me) {
      $("my-link").hidden = false;
      $("my-link-input").value = myLink;
    }

    // -- seats, phase, host controls --

    function renderSeats() {
      var list = $("seats");
      list.textContent = "";
      var bySeat = {};
      (state.seats || []).forEach(function (s) { bySeat[s.seat] = s; });
      var numbers = [1, 2, 3, 4];
      if (bySeat[0]) numbers.unshift(0);
      numbers.forEach(function (n) {
        var s = bySeat[n];
        var item = el("li", "seat" + (s ? "" : " seat-empty"));
        item.setAttribute("data-seat", String(n));
        item.appendChild(el("span", "seat-no", n === 0 ? S.judgeOnly : fill(S.seatN, { n: n })));
        item.appendChild(el("span", "seat-name", s ? s.name : S.empty));
        var badges = el("span", "seat-badges");
        if (s && s.is_host) badges.appendChild(el("span", "badge badge-host", S.host));
        if (s && state.me && state.me.seat === s.seat) badges.appendChild(el("span", "badge badge-you", S.you));
        if (s && s.plays && state.phase !== "lobby") {
          badges.appendChild(el("span", "badge " + (s.submitted ? "badge-done" : "badge-writing"),
            s.submitted ? S.submitted : (state.phase === "published" ? S.notSubmitted : S.writing)));
        }
        item.appendChild(badges);
        list.appendChild(item);
      });
      $("invite-row").hidden = state.phase !== "lobby";
    }

    function playerCount() {
      return (state.seats || []).filter(function (s) { return s.plays; }).length;
    }

    function renderHost() {
      var panel = $("host-panel");
      panel.hidden = !isHost();
      if (!isHost()) return;
      var dealButton = $("deal-button");
      var publishButton = $("publish-button");
      dealButton.hidden = state.phase !== "lobby";
      dealButton.disabled = playerCount() < 4;
      publishButton.hidden = state.phase !== "dealt";
      var hint = state.phase === "lobby"
        ? (playerCount() < 4 ? fill(S.needPlayers, { have: playerCount() }) : S.readyToDeal)
        : state.phase === "dealt" ? S.dealt : S.published;
      $("host-hint").textContent = hint;
      var list = $("submissions");
      list.textContent = "";
      if (state.phase !== "dealt") return;
      (state.seats || []).filter(function (s) { return s.plays; }).forEach(function (s) {
        var item = el("li", "submission");
        item.appendChild(el("span", "seat-name", fill(S.seatN, { n: s.seat }) + " " + s.name));
        item.appendChild(el("span", "badge " + (s.submitted ? "badge-done" : "badge-writing"),
          s.submitted ? S.submitted : S.writing));
        if (s.submitted) {
          var reopen = el("button", "secondary small", S.reopen);
          reopen.type = "button";
          reopen.setAttribute("data-reopen", String(s.seat));
          reopen.addEventListener("click", function () {
            reopen.disabled = true;
            api("POST", base + "/reopen", { seat: s.seat }).then(function (r) {
              reopen.disabled = false;
              notice(r.ok ? fill(S.reopened, { n: s.seat }) : (r.data.detail || S.networkError));
              if (r.ok) refresh();
            });
          });
          item.appendChild(reopen);
        }
        list.appendChild(item);
      });
    }

    function renderPhase() {
      var label = $("phase-label");
      label.textContent = (S.phases || {})[state.phase] || state.phase;
      label.setAttribute("data-phase", state.phase);
      var full = playerCount() >= 4;
      $("join-panel").hidden = !(state.phase === "lobby" && !state.me && !full);
      if (!state.me) notice(state.phase === "lobby" ? (full ? S.full : "") : S.watching);
      else if (!isHost()) notice(state.phase === "lobby" ? (full ? S.waitDeal : S.waitHost) : "");
      $("deal-panel").hidden = state.phase === "lobby";
      $("hand-panel").hidden = !(plays() && state.phase !== "lobby");
      if ($("themes-panel") && !hand) $("themes-panel").hidden = true;  // shown once the hand is dealt
      $("editor-panel").hidden = !(plays() && state.phase === "dealt");
      $("record-panel").hidden = !(isHost() && state.phase === "dealt");
      $("results-panel").hidden = state.phase !== "published";
      if (state.phase !== "lobby") {
        $("commitment").textContent = state.commitment || "";
      }
    }

    function render() {
      renderPhase();
      renderSeats();
      renderHost();
    }

    function refresh() {
      return api("GET", base).then(function (r) {
        if (!r.ok) return;
        var before = state.phase;
        state = r.data;
        render();
        if (before !== state.phase) enterPhase(before);
        else if (state.phase === "dealt" && isHost()) loadRecord();
      });
    }

    // -- the deal, shown as it happens --

    function seatOrder(start) { return [0, 1, 2, 3].map(function (i) { return (start - 1 + i) % 4 + 1; }); }

    function buildDealSeats(counts) {
      var list = $("deal-seats");
      list.textContent = "";
      (state.turn_order || seatOrder(1)).slice().sort().forEach(function (n) {
        var item = el("li", "deal-seat");
        item.setAttribute("data-seat", String(n));
        item.appendChild(el("span", "seat-no", fill(S.seatN, { n: n })));
        item.appendChild(el("span", "seat-name", seatName(n)));
        var pile = el("span", "pile");
        pile.appendChild(el("span", "pile-fill"));
        item.appendChild(pile);
        item.appendChild(el("span", "pile-count", String(counts ? counts[n] : 0)));
        list.appendChild(item);
      });
    }

    function setPile(n, count) {
      var item = $("deal-seats").querySelector('[data-seat="' + n + '"]');
      if (!item) return;
      item.querySelector(".pile-count").textContent = String(count);
      item.querySelector(".pile-fill").style.width = (count / 150 * 100).toFixed(1) + "%";
    }

    function highlightSeat(n, cls) {
      $("deal-seats").querySelectorAll(".deal-seat").forEach(function (item) {
        item.classList.toggle(cls, item.getAttribute("data-seat") === String(n));
      });
      $("seats").querySelectorAll(".seat").forEach(function (item) {
        item.classList.toggle(cls, item.getAttribute("data-seat") === String(n));
      });
    }

    function showCountTile() {
      var t = state.count_tile;
      var node = $("count-tile");
      if (!t) return;
      node.textContent = t.char;
      if (t.tone) node.setAttribute("data-tone", t.tone);
      node.title = fill(S.strokes, { n: t.strokes });
    }

    function showDealResult() {
      showCountTile();
      var t = state.count_tile;
      if (t) $("count-text").textContent = fill(S.countDone, { n: t.strokes, seat: state.first_seat, name: seatName(state.first_seat) });
      var counts = { 1: 150, 2: 150, 3: 150, 4: 150 };
      buildDealSeats(counts);
      [1, 2, 3, 4].forEach(function (n) { setPile(n, 150); });
      highlightSeat(state.first_seat, "first");
      $("replay-anim").hidden = false;
    }

    function wait(ms) {
      return new Promise(function (resolve) { setTimeout(resolve, skipAnimation ? 0 : ms); });
    }

    /* The 詩伯 turns the count tile, the count goes round the seats, then everyone draws in turn. */
    function animateDeal() {
      if (animating || !state.count_tile) return Promise.resolve();
      animating = true;
      // those who asked their system for less motion see where the tiles went, not 600 of them flying
      // (略過動畫 for everyone else; 重看抽牌 plays it out on request)
      skipAnimation = !replaying && !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
      replaying = false;
      $("skip-anim").hidden = false;
      $("replay-anim").hidden = true;
      var t = state.count_tile;
      var start = state.host_plays ? 1 : 1;
      var countNode = $("count-tile");
      var text = $("count-text");
      countNode.textContent = "？";
      countNode.removeAttribute("data-tone");
      countNode.classList.remove("flipped");
      buildDealSeats(null);
      var mine = plays() ? (state.me.seat) : null;
      var handBox = $("hand");
      if (mine && hand) handBox.textContent = "";
      return wait(400).then(function () {
        showCountTile();
        countNode.classList.add("flipped");
        text.textContent = fill(S.countIntro, { char: t.char, n: t.strokes, start: seatName(start) });
        return wait(900);
      }).then(function () {
        // the count: 1 at the 詩伯's seat (seat 1 when the 詩伯 does not play), round the table
        var step = Math.max(60, Math.min(280, 2400 / t.strokes));
        var i = 0;
        function next() {
          if (i >= t.strokes) return Promise.resolve();
          i += 1;
          var seat = (start - 1 + i - 1) % 4 + 1;
          highlightSeat(seat, "counting");
          text.textContent = fill(S.countIntro, { char: t.char, n: t.strokes, start: seatName(start) }) + " " +
            fill(S.countStep, { i: i });
          return wait(step).then(next);
        }
        return next();
      }).then(function () {
        highlightSeat(-1, "counting");
        highlightSeat(state.first_seat, "first");
        text.textContent = fill(S.countDone, { n: t.strokes, seat: state.first_seat, name: seatName(state.first_seat) });
        return wait(900);
      }).then(function () {
        // the draw: one tile at a time from the top, in turn; slow at first, then faster
        var order = state.turn_order || seatOrder(state.first_seat);
        var counts = { 1: 0, 2: 0, 3: 0, 4: 0 };
        var done = 0;
        var mineShown = 0;
        return new Promise(function (resolve) {
          function frame() {
            var batch = skipAnimation ? 600 : done < 16 ? 1 : done < 64 ? 4 : 24;
            for (var k = 0; k < batch && done < 600; k++) {
              var seat = order[done % 4];
              counts[seat] += 1;
              done += 1;
              setPile(seat, counts[seat]);
              if (seat === mine && hand && mineShown < hand.length && sortMode === "draw") {
                var node = tileNode(hand[mineShown], "arrive");
                node.setAttribute("data-index", String(mineShown));
                handBox.appendChild(node);
                mineShown += 1;
              }
            }
            highlightSeat(order[done % 4], "counting");
            text.textContent = fill(S.drawing, { done: done });
            if (done >= 600) { resolve(); return; }
            setTimeout(frame, skipAnimation ? 0 : done < 16 ? 220 : 60);
          }
          frame();
        });
      }).then(function () {
        highlightSeat(-1, "counting");
        text.textContent = fill(S.countDone, { n: t.strokes, seat: state.first_seat, name: seatName(state.first_seat) }) +
          " " + S.drawDone;
        animating = false;
        $("skip-anim").hidden = true;
        $("replay-anim").hidden = false;
        renderHand();
      });
    }

    $("skip-anim").addEventListener("click", function () { skipAnimation = true; });
    var replaying = false;
    $("replay-anim").addEventListener("click", function () { replaying = true; animateDeal(); });

    // -- the hand --

    function sortedHand() {
      var tiles = hand.map(function (t, i) { return Object.assign({ index: i }, t); });
      var byChar = function (a, b) { return a.index - b.index; };
      if (sortMode === "tone") {
        tiles.sort(function (a, b) {
          return (a.tone === b.tone ? 0 : a.tone === "平" ? -1 : 1) || groupKey(a.rhyme) - groupKey(b.rhyme) || byChar(a, b);
        });
      } else if (sortMode === "rhyme") {
        tiles.sort(function (a, b) { return groupKey(a.rhyme) - groupKey(b.rhyme) || byChar(a, b); });
      } else if (sortMode === "strokes") {
        tiles.sort(function (a, b) { return a.strokes - b.strokes || byChar(a, b); });
      }
      return tiles;
    }

    var focusIndex = null;  // the hand's one tab stop: the tile last moved to with the arrow keys

    function renderHand() {
      if (!hand || animating) return;
      var box = $("hand");
      box.textContent = "";
      var tiles = sortedHand();
      var group = null;
      var row = box;
      box.classList.toggle("grouped", sortMode !== "draw");
      tiles.forEach(function (t) {
        var heading = sortMode === "rhyme" ? rhymeName(t.rhyme) : sortMode === "strokes" ? fill(S.strokes, { n: t.strokes })
          : sortMode === "tone" ? (S.tones || {})[t.tone] : null;
        if (heading !== null && heading !== group) {
          group = heading;
          var g = el("div", "hand-group");
          g.appendChild(el("span", "hand-group-label", heading));
          row = el("div", "hand-group-tiles");
          g.appendChild(row);
          box.appendChild(g);
        }
        var node = tileNode(t);
        node.setAttribute("data-index", String(t.index));
        node.setAttribute("role", "button");
        node.tabIndex = t.index === focusIndex ? 0 : -1;
        row.appendChild(node);
      });
      // one tab stop for the whole hand (the arrow keys move within it), not 150
      if (!box.querySelector('.tile[tabindex="0"]') && box.querySelector(".tile")) box.querySelector(".tile").tabIndex = 0;
      $("hand-count").textContent = fill(S.handCount, { n: hand.length }) +
        (state.wildcards ? fill(S.handWildcards, { n: state.wildcards }) : "");
      markUsed();
    }

    document.querySelectorAll("[data-sort]").forEach(function (button) {
      button.addEventListener("click", function () {
        sortMode = button.getAttribute("data-sort");
        document.querySelectorAll("[data-sort]").forEach(function (b) {
          b.setAttribute("aria-pressed", b === button ? "true" : "false");
        });
        renderHand();
      });
    });

    function insertChar(ch, keepFocus) {
      var area = $("poem-text");
      if (area.readOnly || $("editor-panel").hidden) return;
      var startPos = area.selectionStart, endPos = area.selectionEnd;
      area.setRangeText(ch, startPos, endPos, "end");
      area.dispatchEvent(new Event("input", { bubbles: true }));
      // on a phone, focusing would pop the keyboard up at every tile: keep the cursor, not the focus;
      // from the keyboard, stay on the tile so that the next one is an arrow key away
      if (keepFocus) return;
      if (!(window.matchMedia && window.matchMedia("(pointer: coarse)").matches)) area.focus({ preventScroll: true });
    }

    function focusTile(node) {
      $("hand").querySelectorAll('.tile[tabindex="0"]').forEach(function (other) { other.tabIndex = -1; });
      node.tabIndex = 0;
      focusIndex = Number(node.getAttribute("data-index"));
      node.focus();
    }

    $("hand").addEventListener("click", function (event) {
      var node = event.target.closest(".tile");
      if (node) insertChar(node.textContent);
    });
    $("hand").addEventListener("keydown", function (event) {
      var node = event.target.closest(".tile");
      if (!node) return;
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); insertChar(node.textContent, true); return; }
      var tiles = Array.prototype.slice.call($("hand").querySelectorAll(".tile"));
      var at = tiles.indexOf(node);
      var to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1,
                 Home: 0, End: tiles.length - 1 }[event.key];
      if (to === undefined) return;
      event.preventDefault();
      focusTile(tiles[Math.max(0, Math.min(tiles.length - 1, to))]);
    });

    function markUsed() {
      var text = ($("poem-title").value || "") + ($("poem-text").value || "");
      var counts = {};
      Array.from(text).forEach(function (c) { counts[c] = (counts[c] || 0) + 1; });
      $("hand").querySelectorAll(".tile").forEach(function (node) {
        var c = node.textContent;
        node.classList.toggle("used", !!counts[c]);
      });
    }

    function loadHand() {
      if (!plays() || state.phase === "lobby") return Promise.resolve();
      return api("GET", base + "/hand").then(function (r) {
        if (r.ok) {
          hand = r.data.tiles;
          if (editor) editor.setOptions({ hand: hand.map(function (t) { return t.char; }).join("") });
        }
      });
    }

    /* For panels beside the hand (themes): the seat's own tiles, once the deal has been shown. */
    function announceHand() {
      if (!hand) return;
      var panel = $("themes-panel");
      if (panel) {
        panel.setAttribute("data-chars", hand.map(function (t) { return t.char; }).join(""));
        panel.hidden = false;
      }
      document.dispatchEvent(new CustomEvent("round:hand", { detail: { code: code, tiles: hand } }));
    }

    // -- the draft: saved on the server as one types --

    var draftKey = "shipai-draft-" + code + "-" + (state.me ? state.me.seat : "x");
    var saveTimer = null, inFlight = false, dirty = false, retryDelay = 2000;
    var serverRevision = 0;  // the draft revision this page last saw on the server

    function setSaveStatus(text, kind) {
      var node = $("save-status");
      node.textContent = text;
      node.setAttribute("data-kind", kind || "");
    }

    function currentDraft() { return { title: $("poem-title").value, text: $("poem-text").value }; }

    function scheduleSave(delay) {
      dirty = true;
      storageSet(draftKey, JSON.stringify(Object.assign({ dirty: true, base: serverRevision }, currentDraft())));
      setSaveStatus(S.unsaved, "pending");
      clearTimeout(saveTimer);
      saveTimer = setTimeout(saveNow, delay === undefined ? 700 : delay);
    }

    function saveNow() {
      if (inFlight || submitted) return;
      if (!dirty) return;
      inFlight = true;
      dirty = false;
      var draft = currentDraft();
      setSaveStatus(S.saving, "pending");
      api("PUT", base + "/draft", draft).then(function (r) {
        inFlight = false;
        if (r.ok) {
          retryDelay = 2000;
          serverRevision = r.data.revision || serverRevision;
          var time = new Date().toLocaleTimeString("zh-TW", { hour12: false });
          if (!dirty) {
            setSaveStatus(fill(S.saved, { time: time }), "ok");
            storageSet(draftKey, JSON.stringify(Object.assign({ dirty: false, base: serverRevision }, draft)));
          } else {
            scheduleSave(300);
          }
        } else if (r.status === 0 || r.status >= 500 || r.status === 429) {
          dirty = true;  // keep it: try again, a little later each time
          setSaveStatus(S.offlineSave, "offline");
          clearTimeout(saveTimer);
          saveTimer = setTimeout(saveNow, retryDelay);
          retryDelay = Math.min(retryDelay * 2, 15000);
        } else {
          dirty = true;
          setSaveStatus(r.data.detail || S.networkError, "error");
          if (r.status === 409) refresh();
        }
      });
    }

    window.addEventListener("online", function () { if (dirty) saveNow(); });
    window.addEventListener("beforeunload", function (event) {
      if (dirty || inFlight) { event.preventDefault(); event.returnValue = ""; }
    });

    function setLocked(locked) {
      submitted = locked;
      $("poem-title").readOnly = locked;
      $("poem-text").readOnly = locked;
      $("submit-button").hidden = locked;
      $("submitted-note").hidden = !locked;
      if (locked) setSaveStatus(S.locked, "ok");
    }

    function loadDraft() {
      if (!plays() || state.phase !== "dealt") return Promise.resolve();
      return api("GET", base + "/draft").then(function (r) {
        if (!r.ok) return;
        var d = r.data;
        var local = null;
        try { local = JSON.parse(storageGet(draftKey) || "null"); } catch (e) { local = null; }
        var title = d.title, text = d.text;
        serverRevision = d.revision || 0;
        // an edit this device could not save (offline, closed tab) is restored, unless the server's draft
        // has moved on since (saved from another device): then the server's wins
        var restoreLocal = !d.submitted && local && local.dirty && local.base === serverRevision &&
          (local.title !== d.title || local.text !== d.text);
        if (restoreLocal) { title = local.title; text = local.text; }
        $("poem-title").value = title || "";
        if (editor) editor.setText(text || ""); else $("poem-text").value = text || "";
        setLocked(!!d.submitted);
        if (restoreLocal) scheduleSave(0);
        else if (!d.submitted) {
          dirty = false;
          clearTimeout(saveTimer);
          setSaveStatus(d.updated_at ? fill(S.saved, { time: new Date(d.updated_at).toLocaleTimeString("zh-TW", { hour12: false }) }) : "", "ok");
        }
        markUsed();
      });
    }

    // the themes panel's 「以此起稿」: take its title (when none yet) and say which rhyme it suggests
    document.addEventListener("theme:start", function (event) {
      var d = event.detail || {};
      if (submitted || $("editor-panel").hidden) return;
      if (d.title && !$("poem-title").value.trim()) {
        $("poem-title").value = d.title;
        scheduleSave();
        markUsed();
      }
      var feet = Array.isArray(d.feet) ? d.feet.join("") : String(d.feet || "");
      var rhyme = d.rhyme ? fill(S.themeRhyme, { rhyme: d.rhyme, feet: feet }) : "";
      notice(fill(S.themeStart, { title: d.title || "", rhyme: rhyme }));
      $("poem-text").focus();
    });

    function attachEditor() {
      if (editor || !plays()) return;
      var rule = state.composition === "jizi" ? "jizi" : "rhyme";
      var area = $("poem-text");
      if (window.PoemEditor && typeof window.PoemEditor.attach === "function") {
        editor = window.PoemEditor.attach(area, {
          output: $("poem-report"),
          rhymeBook: state.rhyme_book,
          hand: hand ? hand.map(function (t) { return t.char; }).join("") : "",
          rule: rule,
          blanks: rule === "jizi" ? (state.wildcards || 0) : 0,
          onChange: function () { if (!submitted) { scheduleSave(); markUsed(); } }
        });
      } else {
        area.addEventListener("input", function () { if (!submitted) { scheduleSave(); markUsed(); } });
      }
      $("poem-title").addEventListener("input", function () { if (!submitted) { scheduleSave(); markUsed(); } });
    }

    $("submit-button").addEventListener("click", function () {
      if (!window.confirm(S.confirmSubmit)) return;
      var button = $("submit-button");
      button.disabled = true;
      $("submit-error").textContent = "";
      $("violations").textContent = "";
      clearTimeout(saveTimer);
      api("POST", base + "/submit", currentDraft()).then(function (r) {
        button.disabled = false;
        if (r.ok) {
          dirty = false;
          storageDel(draftKey);
          setLocked(true);
          notice(S.submitOk);
          refresh();
          return;
        }
        $("submit-error").textContent = r.data.detail || S.networkError;
        (r.data.violations || []).forEach(function (v) { $("violations").appendChild(el("li", "", v.message)); });
      });
    });

    // -- the 詩伯's record of every hand --

    function loadRecord() {
      if (!isHost() || state.phase !== "dealt") return;
      api("GET", base + "/hands").then(function (r) {
        if (!r.ok) return;
        renderHands($("record"), r.data.hands);
      });
    }

    function renderHands(box, hands) {
      box.textContent = "";
      hands.forEach(function (h) {
        var details = el("details", "hand-record");
        details.appendChild(el("summary", "", fill(S.handOf, { name: h.name || seatName(h.seat) }) + "（" + fill(S.seatN, { n: h.seat }) + "）"));
        var tiles = el("div", "hand hand-small");
        h.tiles.slice().sort(function (a, b) {
          return (a.tone === b.tone ? 0 : a.tone === "平" ? -1 : 1) || groupKey(a.rhyme) - groupKey(b.rhyme);
        }).forEach(function (t) { tiles.appendChild(tileNode(t, "tile-sm")); });
        details.appendChild(tiles);
        box.appendChild(details);
      });
    }

    // -- results --

    function loadResults() {
      api("GET", base + "/results").then(function (r) {
        if (!r.ok) return;
        var box = $("poems");
        box.textContent = "";
        r.data.poems.forEach(function (p) {
          var card = el("article", "poem-card");
          var head = el("header", "");
          head.appendChild(el("h3", "", p.submitted ? (p.title || S.untitled) : S.notSubmitted));
          head.appendChild(el("p", "poet", p.name + "（" + fill(S.seatN, { n: p.seat }) + (p.is_host ? "，" + S.host : "") + "）"));
          if (p.grade) head.appendChild(el("p", "grade", S.grade + "：" + p.grade));
          card.appendChild(head);
          if (p.submitted) card.appendChild(el("p", "poem-text", p.text));
          if (p.comment) card.appendChild(el("p", "comment", p.comment));
          box.appendChild(card);
        });
        var names = {};
        r.data.poems.forEach(function (p) { names[p.seat] = p.name; });
        renderHands($("all-hands"), r.data.hands.map(function (h) { return Object.assign({ name: names[h.seat] }, h); }));
      });
    }

    // -- phases and live events --

    function enterPhase(before) {
      if (state.phase === "dealt" || state.phase === "published") {
        loadHand().then(function () {
          attachEditor();
          if (before === "lobby") {
            animateDeal().then(announceHand);
          } else {
            showDealResult();
            renderHand();
            announceHand();
          }
          return loadDraft();
        });
        if (isHost()) loadRecord();
      }
      if (state.phase === "published") {
        setLocked(true);
        loadResults();
      }
    }

    function connect() {
      var live = $("live-status");
      if (!window.EventSource) {  // very old browsers: poll
        setInterval(refresh, 3000);
        live.textContent = S.live;
        return;
      }
      var source = new EventSource(base + "/events?after=" + lastEvent);
      source.onopen = function () { live.textContent = S.live; live.setAttribute("data-kind", "ok"); };
      source.onerror = function () { live.textContent = S.offline; live.setAttribute("data-kind", "offline"); };
      ["seats", "dealt", "submitted", "reopened", "published", "graded"].forEach(function (kind) {
        source.addEventListener(kind, function (event) {
          lastEvent = Math.max(lastEvent, parseInt(event.lastEventId || "0", 10) || 0);
          var data = {};
          try { data = JSON.parse(event.data); } catch (e) { data = {}; }
          if (kind === "reopened" && state.me && data.seat === state.me.seat) {
            setLocked(false);
            setSaveStatus("", "");
            notice(fill(S.reopened, { n: data.seat }));
          }
          refresh().then(function () {
            if (kind === "graded" && state.phase === "published") loadResults();
          });
        });
      });
    }

    // join form
    $("join-form").addEventListener("submit", function (event) {
      event.preventDefault();
      $("join-error").textContent = "";
      api("POST", base + "/join", { name: $("join-name").value }).then(function (r) {
        if (!r.ok) { $("join-error").textContent = r.data.detail || S.networkError; return; }
        storageSet("shipai-link-" + code, r.data.link);
        window.location.reload();  // the page now renders with this seat's cookie and CSRF token
      });
    });

    $("deal-button").addEventListener("click", function () {
      var button = $("deal-button");
      button.disabled = true;
      $("host-hint").textContent = S.dealing;
      api("POST", base + "/deal").then(function (r) {
        if (!r.ok) { notice(r.data.detail || S.networkError); button.disabled = false; return; }
        refresh();
      });
    });

    $("publish-button").addEventListener("click", function () {
      var missing = (state.seats || []).filter(function (s) { return s.plays && !s.submitted; })
        .map(function (s) { return s.name; });
      var question = missing.length ? fill(S.confirmPublish, { names: missing.join("、") }) : S.confirmPublishAll;
      if (!window.confirm(question)) return;
      api("POST", base + "/publish").then(function (r) {
        if (!r.ok) notice(r.data.detail || S.networkError);
        refresh();
      });
    });

    render();
    enterPhase(state.phase);
    connect();
    document.dispatchEvent(new CustomEvent("round:ready", { detail: { code: code, state: state } }));
  }

  // --- /r/<code>/verify: recompute the commitment and the deal in the browser -----------------------

  function hex(buffer) {
    return Array.from(new Uint8Array(buffer)).map(function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }

  function initVerify() {
    var button = $("verify-button");
    if (!button) return;
    var S = readJSON("verify-strings");
    var code = $("verify").getAttribute("data-code");
    var checks = $("checks");
    function check(ok, text) {
      var item = el("li", "", text);
      item.setAttribute("data-ok", ok ? "true" : "false");
      checks.appendChild(item);
    }
    button.addEventListener("click", function () {
      checks.textContent = "";
      if (!(window.crypto && window.crypto.subtle)) { check(false, S.noCrypto); return; }
      checks.appendChild(el("li", "", S.loading));
      api("GET", "/api/rounds/" + encodeURIComponent(code) + "/results").then(function (r) {
        checks.textContent = "";
        if (!r.ok) { check(false, fill(S.failed, { detail: r.data.detail || r.status })); return; }
        var data = r.data, salt = data.reveal.salt, order = data.reveal.order;
        $("salt").textContent = salt;
        $("order").textContent = order.join("");
        var bytes = new TextEncoder().encode(salt + "\n" + order.join(""));
        return window.crypto.subtle.digest("SHA-256", bytes).then(function (digest) {
          var got = hex(digest);
          check(got === data.commitment, got === data.commitment ? S.commitment : fill(S.commitmentBad, { got: got }));
          check(order.length === 600 && new Set(order).size === 600, order.length === 600 && new Set(order).size === 600 ? S.size : S.sizeBad);
          // the count: N strokes from the 詩伯's seat (seat 1 when the 詩伯 does not play)
          var n = data.count_tile.strokes;
          var first = (n - 1) % 4 + 1;
          var countOk = order[0] === data.count_tile.char && first === data.first_seat;
          check(countOk, countOk ? fill(S.countTile, { char: order[0], n: n, seat: first }) : S.countTileBad);
          // the draw: from the second tile, the count tile last, one each in turn from the first drawer
          var pile = order.slice(1).concat(order.slice(0, 1));
          var hands = { 1: [], 2: [], 3: [], 4: [] };
          pile.forEach(function (c, i) { hands[(first - 1 + i) % 4 + 1].push(c); });
          var bad = data.hands.filter(function (h) {
            return h.tiles.map(function (t) { return t.char; }).join("") !== hands[h.seat].join("");
          });
          check(!bad.length && data.hands.length === 4, !bad.length ? S.hands : fill(S.handsBad, { seat: bad.map(function (h) { return h.seat; }).join("、") }));
        });
      });
    });
  }

  window.RoundPage = { initNew: initNew, initRound: initRound, initVerify: initVerify, api: api };
})();
