/* 詩牌 themes panel: given a hand, fetch POST /api/themes and render one card per theme.
 *
 * The panel is any element with id "themes-panel" (templates/themes_panel.html includes this ES module).
 * The hand comes from, in order: the `round:hand` event ({detail: {tiles: [{char, tone}]}}), the panel's
 * data-chars attribute, or ThemesPanel.load(panel, chars). Clicking a theme marks its tiles (elements
 * .tile with data-char, or whose text is the char) inside the element named by the panel's data-hand
 * (default "#hand"). The 「以此起稿」 button dispatches on document:
 *   CustomEvent("theme:start", {detail: {title, rhyme, feet, theme, chars}})
 * title: the chosen title; rhyme: a 平水韻 group ("下平一先") or "" when the hand has none; feet: its
 * characters in the hand, the theme's own first; theme: the theme's name; chars: the theme's characters.
 */
import { $, el, fill, readJSON, api, storage } from "./common.js";


var S = {};

function strings() {
  if (!S.heading) S = readJSON("themes-strings");
  return S;
}

function tileOf(c) {
  var node = el("span", "tile tile-sm", c.char);
  if (c.tone === "平" || c.tone === "仄") node.setAttribute("data-tone", c.tone);
  node.setAttribute("data-char", c.char);
  node.title = c.tone;
  return node;
}

function handRoot(panel) {
  return document.querySelector(panel.getAttribute("data-hand") || "#hand");
}

function tileChar(node) {
  return node.getAttribute("data-char") || node.textContent.trim().charAt(0);
}

/* Mark the theme's tiles in the hand (and dim the rest); theme null clears the marks. */
function highlight(panel, theme) {
  var root = handRoot(panel);
  var chars = {};
  if (theme) theme.chars.forEach(function (c) { chars[c.char] = true; });
  var n = 0;
  if (root) {
    root.classList.toggle("theme-focus", !!theme);
    root.querySelectorAll(".tile").forEach(function (node) {
      var on = !!theme && !!chars[tileChar(node)];
      node.classList.toggle("theme-hl", on);
      if (on) n += 1;
    });
  }
  var status = panel.querySelector(".themes-status");
  if (status) {
    status.textContent = theme ? fill(strings().highlighted, { name: theme.name, n: n }) : strings().cleared;
    var first = root && root.querySelector(".tile.theme-hl");
    var box = first && first.getBoundingClientRect();
    if (box && (box.bottom < 0 || box.top > window.innerHeight)) {
      // on a phone the hand is far from the panel: offer a jump to the marked tiles
      var jump = el("button", "secondary theme-jump", strings().jump);
      jump.type = "button";
      jump.addEventListener("click", function () {
        first.scrollIntoView({ behavior: "smooth", block: "center" });
      });
      status.appendChild(document.createTextNode(" "));
      status.appendChild(jump);
    }
  }
}

function radioGroup(name, items, label, checkedIndex) {
  var box = el("div", "theme-options");
  box.setAttribute("role", "radiogroup");
  box.setAttribute("aria-label", label);
  items.forEach(function (item, i) {
    var lab = el("label", "theme-option");
    var input = document.createElement("input");
    input.type = "radio";
    input.name = name;
    input.value = item.value;
    input.checked = i === checkedIndex;
    lab.appendChild(input);
    lab.appendChild(item.node);
    box.appendChild(lab);
  });
  return box;
}

/* The theme's button: name, strength bar and score (none for 其他), and how many characters. */
function pickButton(theme, isOther) {
  var s = strings();
  var pick = el("button", "theme-pick");
  pick.type = "button";
  pick.setAttribute("aria-pressed", "false");
  pick.appendChild(el("span", "theme-name", theme.name));
  if (!isOther) {
    var pct = Math.round(theme.score * 100);
    var bar = el("span", "theme-bar");
    bar.setAttribute("role", "img");
    bar.setAttribute("aria-label", s.strength + " " + pct + "%");
    var barFill = el("span", "theme-bar-fill");
    barFill.style.width = Math.max(2, pct) + "%";
    bar.appendChild(barFill);
    pick.appendChild(bar);
    pick.appendChild(el("span", "theme-score", String(pct)));
  }
  pick.appendChild(el("span", "theme-count", theme.chars.length + s.chars));
  return pick;
}

/* A 平聲 rhyme group the hand can rhyme on: its feet in the hand, the theme's own in bold. */
function rhymeOption(r) {
  var s = strings();
  var span = el("span", "theme-rhyme");
  span.appendChild(el("b", null, r.group));
  var feet = el("span", "theme-feet");
  r.feet.forEach(function (f, i) {
    feet.appendChild(el(i < r.theme_feet ? "strong" : "span", null, f));
  });
  span.appendChild(feet);
  span.title = fill(s.feetN, { n: r.feet.length }) + "，" + fill(s.own, { n: r.theme_feet });
  return { value: r.group, node: span };
}

/* 「以此起稿」: the chosen title and rhyme go to the page as a theme:start event. */
function startButton(li, theme) {
  var start = el("button", "theme-start", strings().start);
  start.type = "button";
  start.addEventListener("click", function () {
    var rhyme = li.querySelector('input[name^="rhyme-"]:checked');
    var title = li.querySelector('input[name^="title-"]:checked');
    var group = rhyme ? rhyme.value : "";
    var chosen = theme.rhymes.filter(function (r) { return r.group === group; })[0];
    document.dispatchEvent(new CustomEvent("theme:start", {
      detail: {
        title: title ? title.value : (theme.titles[0] || ""),
        rhyme: group,
        feet: chosen ? chosen.feet.slice() : [],
        theme: theme.name,
        chars: theme.chars.map(function (c) { return c.char; })
      }
    }));
  });
  return start;
}

/* What to write with the theme: rhymes to choose from, the hand's words, titles, and the start button. */
function writingOptions(body, li, theme, name) {
  var s = strings();
  body.appendChild(el("h4", null, s.rhymes));
  if (theme.rhymes.length) {
    body.appendChild(radioGroup("rhyme-" + name, theme.rhymes.slice(0, 6).map(rhymeOption), s.rhymes, 0));
  } else {
    body.appendChild(el("p", "theme-none", s.noRhyme));
  }
  if (theme.words && theme.words.length) {
    body.appendChild(el("h4", null, s.words));
    body.appendChild(el("p", "theme-words", theme.words.join("　")));
  }
  body.appendChild(el("h4", null, s.titles));
  body.appendChild(radioGroup("title-" + name, theme.titles.map(function (t) {
    return { value: t, node: el("span", "theme-title", "「" + t + "」") };
  }), s.titles, 0));
  body.appendChild(startButton(li, theme));
}

function card(panel, theme, index, uid) {
  var s = strings();
  var isOther = theme.name === s.other;
  var li = el("li", "theme-card" + (isOther ? " theme-other" : ""));
  li.setAttribute("data-theme", theme.name);
  var pick = pickButton(theme, isOther);
  li.appendChild(pick);

  var body = el("div", "theme-body");
  if (theme.description) body.appendChild(el("p", "theme-desc", theme.description));
  else if (isOther) body.appendChild(el("p", "theme-desc", s.otherHint));
  var tiles = el("div", "theme-chars");
  theme.chars.forEach(function (c) { tiles.appendChild(tileOf(c)); });
  body.appendChild(tiles);
  if (!isOther) writingOptions(body, li, theme, uid + "-" + index);
  li.appendChild(body);

  pick.addEventListener("click", function () {
    var on = pick.getAttribute("aria-pressed") !== "true";
    panel.querySelectorAll(".theme-pick").forEach(function (b) { b.setAttribute("aria-pressed", "false"); });
    panel.querySelectorAll(".theme-card").forEach(function (c) { c.classList.remove("open"); });
    pick.setAttribute("aria-pressed", on ? "true" : "false");
    li.classList.toggle("open", on);
    highlight(panel, on ? theme : null);
  });
  return li;
}

function frame(panel) {
  var s = strings();
  panel.textContent = "";
  panel.classList.add("themes-panel");
  var head = el("div", "themes-head");
  head.appendChild(el("h2", null, s.heading));
  head.appendChild(el("p", "hint", s.hint));
  panel.appendChild(head);
  var status = el("p", "themes-status");
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  panel.appendChild(status);
  return status;
}

var counter = 0;

function render(panel, data) {
  var status = frame(panel);
  status.textContent = "";
  var list = el("ol", "theme-cards");
  var uid = ++counter;
  data.themes.forEach(function (theme, i) { list.appendChild(card(panel, theme, i, uid)); });
  panel.appendChild(list);
  var first = list.querySelector(".theme-card:not(.theme-other)");
  if (first) first.classList.add("open");
}

/* Fetch and render the themes of `chars` (a string or a list of characters). Resolves to the data. */
export function load(panel, chars) {
  var s = strings();
  var text = Array.isArray(chars) ? chars.join("") : String(chars || "");
  if (!text.trim()) {
    frame(panel).textContent = s.empty;
    return Promise.resolve(null);
  }
  frame(panel).textContent = s.loading;
  panel.setAttribute("aria-busy", "true");
  return api("POST", "/api/themes", { chars: text }).then(function (res) {
    panel.removeAttribute("aria-busy");
    if (!res.ok) {
      var msg = frame(panel);
      msg.textContent = res.detail || s.error;  // status 0 (no network): the panel's own words
      msg.classList.add("error-message");
      return null;
    }
    render(panel, res.data);
    return res.data;
  });
}

export function attach(panel) {
  if (panel.getAttribute("data-themes-attached")) return;
  panel.setAttribute("data-themes-attached", "1");
  frame(panel);
  var last = null;
  document.addEventListener("round:hand", function (event) {
    var tiles = (event.detail && event.detail.tiles) || [];
    var chars = tiles.map(function (t) { return typeof t === "string" ? t : t.char; }).join("");
    if (chars && chars !== last) {
      last = chars;
      load(panel, chars);
    }
  });
  var given = panel.getAttribute("data-chars");
  if (given) {
    last = given;
    load(panel, given);
  }
}

/* The standalone page GET /themes: paste characters, see the hand as tiles and the panel. */
export function initPage() {
  var panel = $("themes-panel");
  var form = $("themes-form");
  var input = $("themes-input");
  var error = $("themes-error");
  var hand = $("hand");
  var started = $("themes-started");
  var KEY = "shipai-themes-input";
  if (!input.value) input.value = storage.get(KEY) || "";

  function showHand(data, text) {
    hand.textContent = "";
    var tone = {};
    if (data) data.themes.forEach(function (t) { t.chars.forEach(function (c) { tone[c.char] = c.tone; }); });
    var seen = {};
    Array.from(text).forEach(function (ch) {
      if (!(ch in tone) || seen[ch]) return;
      seen[ch] = true;
      var node = tileOf({ char: ch, tone: tone[ch] });
      node.classList.remove("tile-sm");
      hand.appendChild(node);
    });
    $("hand-count").textContent = hand.children.length ? "（" + hand.children.length + "）" : "";
  }

  function submit() {
    error.textContent = "";
    started.textContent = "";
    var text = input.value;
    storage.set(KEY, text);
    if (!text.trim()) { error.textContent = strings().empty; return Promise.resolve(null); }
    return load(panel, text).then(function (data) {
      showHand(data, text);
      if (!data) {
        var msg = panel.querySelector(".themes-status");
        error.textContent = msg ? msg.textContent : strings().error;
      }
      return data;
    });
  }

  form.addEventListener("submit", function (event) { event.preventDefault(); submit(); });
  $("themes-sample").addEventListener("click", function () {
    var pool = Array.from(JSON.parse($("themes-sample-hand").textContent || '""'));
    for (var i = pool.length - 1; i > 0; i--) {
      var j = Math.floor(Math.random() * (i + 1));
      var tmp = pool[i]; pool[i] = pool[j]; pool[j] = tmp;
    }
    input.value = pool.slice(0, 150).join("");
    submit();
  });
  document.addEventListener("theme:start", function (event) {
    var d = event.detail, s = strings();
    var label = fill(s.startTitle, { title: d.title }) +
      (d.rhyme ? fill(s.startRhyme, { rhyme: d.rhyme, feet: (d.feet || []).join("") }) : "") + s.toCheck;
    started.textContent = label;
    var link = document.querySelector('.site-nav a[href$="/check"]');
    if (link) {
      started.textContent = "";
      var a = el("a", null, label);
      a.href = link.getAttribute("href");
      started.appendChild(a);
    }
  });
  if (input.value.trim()) submit();
}

// For pages and tests that reach the panel without importing it.
window.ThemesPanel = { load: load, render: render, highlight: highlight, attach: attach, initPage: initPage };

// A module runs once the document is parsed: attach to the panel (the /themes page runs initPage instead).
document.querySelectorAll("#themes-panel").forEach(function (panel) {
  if (!$("themes-form")) attach(panel);
  else panel.setAttribute("data-themes-attached", "1");
});
