/* rulesheets site script: search, a language switch that keeps your section, a folding contents list on
   phones, and the chooser's suggestion of the browser's language. Everything works without it except
   search, whose box it shows. Plain ES2017, no build step, no network: it also runs from disk. */
(function () {
  "use strict";

  /* --- Search: the locale's sections (search/<lang>.js, loaded on first use), matched as substrings. */
  var form = document.querySelector("form.search");
  var panel = form && form.querySelector(".search-results");
  // Latin accents and Indic joiners: "des" also finds "dés" (a query with accents wants them: "dés" finds "dés" only).
  var ACCENTS = /[\u0300-\u036f]/g, JOINERS = /[\u200c\u200d]/g;
  var INDIC_VOWEL_END = /[\u093e-\u094c\u09be-\u09cc]$/;  // "खिलाड़ी" also finds "खिलाड़ियों"
  var index = null, loading = false;

  function fold(text, accents) {
    /* Case- and joiner-blind (and accent-blind unless asked) copy of text, with each character's index in text. */
    var out = "", map = [];
    for (var i = 0; i < text.length; i++) {
      var f = text[i].normalize("NFD").replace(JOINERS, "").toLowerCase();
      if (!accents) f = f.replace(ACCENTS, "");
      for (var j = 0; j < f.length; j++) { out += f[j]; map.push(i); }
    }
    map.push(text.length);
    return {text: out, map: map};
  }

  window.rulesheetsSearch = function (data) {
    index = {counts: data.counts, entries: data.entries.map(function (e) {
      return {href: e[0], game: e[1], id: e[2], title: e[3], text: e[4],
              folded: [{title: fold(e[3]).text, text: fold(e[4])}, {title: fold(e[3], true).text, text: fold(e[4], true)}]};
    })};
    run();
  };

  function load() {
    if (index || loading) return;
    loading = true;
    var s = document.createElement("script");
    s.src = form.getAttribute("data-index");
    document.head.appendChild(s);
  }

  function count(hay, needle) {
    var n = 0, at = hay.indexOf(needle);
    while (at !== -1) { n++; at = hay.indexOf(needle, at + needle.length); }
    return n;
  }

  function terms(query) {
    return fold(query, true).text.split(/\s+/).filter(Boolean).map(function (t) {
      var stem = t.length > 2 ? t.replace(INDIC_VOWEL_END, "") : t;
      return {full: t, stem: stem, accents: /[\u0300-\u036f]/.test(t) ? 1 : 0};
    });
  }

  function score(e, ts) {
    var total = 0, first = null;
    for (var i = 0; i < ts.length; i++) {
      var t = ts[i], f = e.folded[t.accents];
      var s = 5 * count(f.title, t.full) + count(f.text.text, t.full), used = t.full;
      if (!s && t.stem !== t.full) { s = (5 * count(f.title, t.stem) + count(f.text.text, t.stem)) / 2; used = t.stem; }
      if (!s) return null;
      total += s;
      var at = f.text.text.indexOf(used);
      if (first === null && at !== -1) first = {fx: f.text, at: at, len: used.length};
    }
    return {score: total, first: first};
  }

  function snippet(e, first) {
    /* Some forty characters either side of the first hit, cut at spaces, the hit marked. */
    var p = document.createElement("p");
    p.className = "search-snippet";
    if (!first) { p.textContent = e.text.slice(0, 120); return p; }
    var a = first.fx.map[first.at], b = first.fx.map[first.at + first.len];
    var from = Math.max(0, e.text.lastIndexOf(" ", Math.max(0, a - 40)));
    var to = e.text.indexOf(" ", Math.min(e.text.length, b + 60));
    if (to === -1) to = e.text.length;
    var mark = document.createElement("mark");
    mark.textContent = e.text.slice(a, b);
    p.append((from > 0 ? "… " : "") + e.text.slice(from, a).trimStart(), mark,
             e.text.slice(b, to) + (to < e.text.length ? " …" : ""));
    return p;
  }

  function run() {
    if (!form || !panel) return;
    var query = form.querySelector("input").value.trim();
    var list = panel.querySelector("ol"), status = panel.querySelector(".search-status");
    list.textContent = "";
    if (!query) { panel.hidden = true; status.textContent = ""; return; }
    panel.hidden = false;
    if (!index) { load(); return; }
    var ts = terms(query), hits = [];
    index.entries.forEach(function (e) {
      var r = score(e, ts);
      if (r) hits.push({e: e, r: r});
    });
    hits.sort(function (x, y) { return y.r.score - x.r.score; });
    status.textContent = hits.length ? index.counts[hits.length - 1]
                                     : form.getAttribute("data-none").replace("{query}", function () { return query; });
    var root = form.getAttribute("data-root");
    hits.forEach(function (h) {
      var li = document.createElement("li"), a = document.createElement("a");
      a.href = root + h.e.href + (h.e.id ? "#" + h.e.id : "");
      var title = document.createElement("span");
      title.className = "search-title";
      title.textContent = h.e.title;
      a.append(title);
      if (h.e.id) {
        var game = document.createElement("span");
        game.className = "search-game";
        game.textContent = h.e.game;
        a.append(" ", game);
      }
      li.append(a, snippet(h.e, h.r.first));
      list.append(li);
    });
  }

  if (form && panel) {
    var input = form.querySelector("input");
    form.hidden = false;
    input.addEventListener("focus", function () { load(); if (input.value) run(); });
    input.addEventListener("input", run);
    input.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape") { input.value = ""; run(); }
    });
    document.addEventListener("click", function (ev) {
      if (!form.contains(ev.target)) panel.hidden = true;  // a tap elsewhere closes the list
    });
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var first = panel.querySelector("ol a");
      if (first) first.click();
    });
    panel.addEventListener("click", function (ev) {
      if (ev.target.closest("a")) panel.hidden = true;  // a result on this page: show the section, not the list
    });
  }

  /* --- The language switch keeps your section: each link gets the id of the section being read. */
  var switches = document.querySelectorAll("nav.languages a[hreflang]");
  var sections = document.querySelectorAll("main section[id]");
  var header = document.querySelector(".site-header");
  function sync() {
    /* The section being read: the last one whose top has reached the (sticky) header. */
    var line = (header ? header.getBoundingClientRect().bottom : 0) + 24, here = "";
    for (var i = 0; i < sections.length; i++) {
      if (sections[i].getBoundingClientRect().top <= line) here = sections[i].id;
    }
    switches.forEach(function (a) { a.href = a.href.split("#")[0] + (here ? "#" + here : ""); });
  }
  if (switches.length && sections.length) {
    var queued = false;
    window.addEventListener("scroll", function () {
      if (!queued) { queued = true; requestAnimationFrame(function () { queued = false; sync(); }); }
    }, {passive: true});
    window.addEventListener("hashchange", sync);
    switches.forEach(function (a) { a.addEventListener("click", sync); });
    sync();
  }

  /* --- Contents: folded on a phone (by the page's own inline script, before the first paint, so nothing
     moves), where it would push the rules a screen down; opened when asked for. */
  var toc = document.querySelector(".toc details");
  if (toc) {
    document.addEventListener("click", function (ev) {
      var a = ev.target.closest && ev.target.closest('a[href="#contents"]');
      if (a) toc.open = true;
    });
  }

  /* --- The chooser names the browser's language first: a suggestion, never a redirect. */
  var offers = document.querySelectorAll(".suggestion[data-lang]");
  if (offers.length) {
    var wanted = (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || ""]);
    for (var k = 0; k < wanted.length; k++) {
      var code = String(wanted[k]).toLowerCase().split("-")[0].replace(/[^a-z]/g, "");
      var offer = document.querySelector('.suggestion[data-lang="' + code + '"]');
      if (offer) { offer.hidden = false; break; }
    }
  }
})();
