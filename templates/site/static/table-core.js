/* rulesheets score keeper, shared part: the rules the site was built with (#table-data), exact fractions,
   the compute() entry point of DESIGN.md ("At the table"), and what every keeper's page does the same way:
   entries kept in localStorage, undo, new game, print, the locale's digits and money. A game's own script
   (table/<game>.js) calls rulesheetsTableCore.register({compute: {...}, start: function (core) {...}}).
   Plain ES2017, no network, runs from disk. */
(function () {
  "use strict";

  var DATA = JSON.parse(document.getElementById("table-data").textContent);

  /* --- Bad input: a one-line message, never an exception out of compute(). */
  function Bad(message) { this.message = String(message).replace(/\s+/g, " ").trim(); }
  function bad(message) { throw new Bad(message); }

  function isObject(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }
  function isInt(v) { return typeof v === "number" && Number.isSafeInteger(v); }
  function show(v) { try { return JSON.stringify(v); } catch (e) { return String(v); } }

  /* --- Exact fractions (small numerators: points of a card game). */
  function gcd(a, b) { a = Math.abs(a); b = Math.abs(b); while (b) { var t = a % b; a = b; b = t; } return a || 1; }
  function frac(n, d) {
    if (d === undefined) d = 1;
    if (d < 0) { n = -n; d = -d; }
    var g = gcd(n, d);
    return {n: n / g, d: d / g};
  }
  function add(a, b) { return frac(a.n * b.d + b.n * a.d, a.d * b.d); }
  function mul(a, b) { return frac(a.n * b.n, a.d * b.d); }
  function cmp(a, b) { var x = a.n * b.d - b.n * a.d; return x < 0 ? -1 : x > 0 ? 1 : 0; }
  /* "0.1", "1/10", 0.1 or 0 as a fraction; null when it is not such a number. */
  function parseFrac(v) {
    if (typeof v === "number" && isFinite(v)) v = String(v);
    if (typeof v !== "string") return null;
    var m = /^(-?)(\d{1,9})(?:\.(\d{1,9}))?$/.exec(v.trim());
    if (m) {
      var places = (m[3] || "").length;
      var n = Number(m[2] + (m[3] || "")), d = Math.pow(10, places);
      return frac(m[1] ? -n : n, d);
    }
    m = /^(-?\d{1,9})\/([1-9]\d{0,8})$/.exec(v.trim());
    return m ? frac(Number(m[1]), Number(m[2])) : null;
  }
  /* The fraction as an exact decimal, the way Python's Decimal division writes it: "12.3", "-5", "0". */
  function decimal(f) {
    var d = f.d, twos = 0, fives = 0;
    while (d % 2 === 0) { d /= 2; twos++; }
    while (d % 5 === 0) { d /= 5; fives++; }
    if (d !== 1) bad("not a decimal: " + f.n + "/" + f.d);
    var places = Math.max(twos, fives), scaled = Math.abs(f.n) * Math.pow(10, places) / f.d;
    var digits = String(Math.round(scaled));
    while (digits.length <= places) digits = "0" + digits;
    var whole = digits.slice(0, digits.length - places), part = digits.slice(digits.length - places).replace(/0+$/, "");
    return (f.n < 0 ? "-" : "") + whole + (part ? "." + part : "");
  }

  /* --- Rules: the build's, with a request's overrides, each checked against the house rule's allowed values. */
  function same(a, b) {
    var fa = parseFrac(a), fb = parseFrac(b);
    if (typeof a !== "boolean" && typeof b !== "boolean" && fa && fb) return cmp(fa, fb) === 0;
    return JSON.stringify(a) === JSON.stringify(b);
  }
  function rulesFor(overrides) {
    var rules = Object.assign({}, DATA.rules);
    if (overrides === undefined || overrides === null) return rules;
    if (!isObject(overrides)) bad("rules must be an object of house rules, got " + show(overrides));
    Object.keys(overrides).forEach(function (name) {
      var allowed = DATA.allowed[name], value = overrides[name];
      if (!allowed) bad("unknown house rule '" + name + "' (house rules: " + Object.keys(DATA.allowed).join(", ") + ")");
      if (allowed.range) {
        if (!isInt(value) || value < allowed.range[0] || value > allowed.range[1]) {
          bad(name + " must be " + allowed.range[0] + " to " + allowed.range[1] + ", got " + show(value));
        }
      } else if (!allowed.choices.some(function (c) { return same(c, value); })) {
        bad(name + " must be one of " + allowed.choices.map(show).join(", ") + ", got " + show(value));
      }
      rules[name] = value;
    });
    return rules;
  }

  var game = null;

  function compute(request) {
    try {
      if (!game) bad("the page's game script has not loaded");
      if (!isObject(request)) bad("a request is an object like {\"fn\": ...}, got " + show(request));
      var fn = game.compute[request.fn];
      if (typeof request.fn !== "string" || !Object.prototype.hasOwnProperty.call(game.compute, request.fn)) {
        bad("unknown fn " + show(request.fn) + " (this page computes: " + Object.keys(game.compute).join(", ") + ")");
      }
      return fn(request, rulesFor(request.rules), DATA.values);
    } catch (e) {
      return {error: e instanceof Bad ? e.message : String(e && e.message || e).split("\n")[0]};
    }
  }

  /* --- The page: the locale's digits and money, messages, storage, undo. */
  var root = document.getElementById("keeper");
  var digitSet = root ? root.getAttribute("data-digits") : "0123456789";
  var lang = document.documentElement.lang;
  var numbers = {};
  function native(text) { return String(text).replace(/[0-9]/g, function (d) { return digitSet[Number(d)]; }); }
  /* A number as the locale writes it (4,2 in French; native digits in Bengali and Nepali). */
  function num(value) {
    var places = typeof value === "number" && !Number.isInteger(value) ? 1 : 0;
    var key = String(places);
    if (!numbers[key]) {
      try { numbers[key] = new Intl.NumberFormat(lang, {numberingSystem: "latn", minimumFractionDigits: places, maximumFractionDigits: 2}); }
      catch (e) { numbers[key] = new Intl.NumberFormat("en", {maximumFractionDigits: 2}); }
    }
    return native(numbers[key].format(value).replace("-", "\u2212"));
  }
  /* A decimal string from compute() ("-4.2") shown in the locale's way. */
  function points(text) { return num(Number(text)); }
  var moneySample = root ? root.getAttribute("data-money") : "7";
  function money(amount) {
    var sign = amount < 0 ? "\u2212" : amount > 0 ? "+" : "";
    return sign + moneySample.replace(native("7"), num(Math.abs(amount)));
  }
  /* Digits typed in any of the page's scripts, read as a whole number; NaN otherwise. */
  function readInt(text) {
    var ascii = String(text).trim().replace(/[\u0966-\u096f]/g, function (c) { return String(c.charCodeAt(0) - 0x966); })
      .replace(/[\u09e6-\u09ef]/g, function (c) { return String(c.charCodeAt(0) - 0x9e6); });
    return /^\d{1,9}$/.test(ascii) ? Number(ascii) : NaN;
  }
  function msg(id, values) {
    var node = document.querySelector('#table-msgs [data-msg="' + id + '"]');
    var text = node ? node.textContent : id;
    return text.replace(/\{(\w+)\}/g, function (all, name) {
      return values && values[name] !== undefined ? values[name] : all;
    });
  }
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "on") Object.keys(attrs.on).forEach(function (ev) { node.addEventListener(ev, attrs.on[ev]); });
      else if (attrs[k] !== false && attrs[k] !== null && attrs[k] !== undefined) node.setAttribute(k, attrs[k] === true ? "" : attrs[k]);
    });
    (children || []).forEach(function (c) { if (c !== null && c !== undefined) node.append(c); });
    return node;
  }

  function start() {
    if (!root || !game.start) return;
    var key = "rulesheets-table/" + DATA.game;
    var state;
    try { state = JSON.parse(localStorage.getItem(key)); } catch (e) { state = null; }
    if (!isObject(state) || !Array.isArray(state.entries)) state = {entries: [], setup: null};
    var status = document.getElementById("keeper-status");
    var undoButton = document.getElementById("keeper-undo");
    var keeper;
    function save() {
      try { localStorage.setItem(key, JSON.stringify(state)); } catch (e) { /* private mode: the game still counts */ }
    }
    var core = {
      compute: compute, rules: rulesFor(null), values: DATA.values, frac: frac, add: add, decimal: decimal,
      num: num, points: points, money: money, readInt: readInt, msg: msg, el: el, native: native,
      state: function () { return state; },
      /* A new entry (a deal, a hand, a throw...): kept at once, undone by Undo. */
      push: function (entry, said) { state.entries.push(entry); save(); keeper.render(); tell(said || ""); },
      setup: function (setup) { state.setup = setup; save(); keeper.render(); },
      say: tell
    };
    function tell(text) { if (status) status.textContent = text; }
    keeper = game.start(core);
    undoButton.addEventListener("click", function () {
      if (!state.entries.length) return;
      state.entries.pop(); save(); keeper.render(); tell(msg("undone"));
    });
    document.getElementById("keeper-new").addEventListener("click", function () {
      if (state.entries.length && !window.confirm(msg("confirm_new"))) return;
      state = {entries: [], setup: state.setup}; save(); keeper.render(); tell(msg("new_started"));
    });
    document.getElementById("keeper-print").addEventListener("click", function () { window.print(); });
    var render = keeper.render;
    keeper.render = function () { render(); undoButton.disabled = !state.entries.length; };
    keeper.render();
  }

  window.rulesheetsTable = {compute: compute};
  window.rulesheetsTableCore = {
    Bad: Bad, bad: bad, isObject: isObject, isInt: isInt, show: show, frac: frac, add: add, mul: mul, cmp: cmp,
    parseFrac: parseFrac, decimal: decimal,
    register: function (g) { game = g; start(); }
  };
})();
