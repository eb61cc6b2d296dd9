/* Stop the Bus at the table: the engine's hand ranking and losers() (engine.py), a showdown helper that takes
   each player's three cards from buttons, and a token tracker to the last player holding a token. */
(function () {
  "use strict";
  var T = window.rulesheetsTableCore;
  var CATEGORIES = ["high_card", "pair", "flush", "run", "running_flush", "three_of_a_kind"];
  var SUITS = {"S": "S", "\u2660": "S", "\u2664": "S", "H": "H", "\u2665": "H", "\u2661": "H",
               "D": "D", "\u2666": "D", "\u2662": "D", "C": "C", "\u2663": "C", "\u2667": "C"};
  var RANKS = {"T": 10, "J": 11, "Q": 12, "K": 13, "A": 14};
  for (var r = 2; r <= 10; r++) RANKS[String(r)] = r;
  var BAD_CARD = "rank must be 2-10, J, Q, K or A and suit S, H, D or C";

  function parseCard(token) {
    if (typeof token !== "string") T.bad(T.show(token) + " is not a card: " + BAD_CARD);
    var text = token.trim().replace(/\ufe0f/g, "");
    var rank = RANKS[text.slice(0, -1).toUpperCase()], suit = SUITS[text.slice(-1).toUpperCase()];
    if (!rank || !suit) T.bad("'" + token.trim() + "' is not a card: " + BAD_CARD);
    return {rank: rank, suit: suit, key: ({11: "J", 12: "Q", 13: "K", 14: "A"}[rank] || String(rank)) + suit};
  }
  function parseHand(cards) {
    var tokens;
    if (typeof cards === "string") tokens = cards.split(/[\s,]+/).filter(Boolean);
    else if (Array.isArray(cards)) tokens = cards;
    else T.bad(T.show(cards) + " is not a list of cards");
    var hand = tokens.map(parseCard), seen = {};
    hand.forEach(function (c) { if (seen[c.key]) T.bad("card " + c.key + " appears twice"); seen[c.key] = true; });
    if (hand.length !== 3) T.bad("a Stop the Bus hand has exactly 3 cards, got " + hand.length);
    return hand;
  }
  /* [category index, tiebreak ranks...]: compared item by item, as HandRank.key is. */
  function rank(hand, rules) {
    var ranks = hand.map(function (c) { return c.rank; }).sort(function (a, b) { return b - a; });
    var suited = hand[0].suit === hand[1].suit && hand[1].suit === hand[2].suit;
    var consecutive = ranks[0] - ranks[1] === 1 && ranks[1] - ranks[2] === 1, top = ranks[0];
    if (rules.ace_low_run && ranks[0] === 14 && ranks[1] === 3 && ranks[2] === 2) { consecutive = true; top = 3; }
    if (ranks[0] === ranks[2]) return [5, ranks[0]];
    if (consecutive) return [suited ? 4 : 3, top];
    if (suited) return [2].concat(ranks);
    if (ranks[0] === ranks[1] || ranks[1] === ranks[2]) return [1, ranks[1], ranks[0] === ranks[1] ? ranks[2] : ranks[0]];
    return [0].concat(ranks);
  }
  function order(a, b) {
    for (var i = 0; i < Math.max(a.length, b.length); i++) {
      if (a[i] === undefined) return -1;
      if (b[i] === undefined) return 1;
      if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
    }
    return 0;
  }
  function losers(hands, rules) {
    if (!T.isObject(hands)) T.bad("hands must be {player: cards}, got " + T.show(hands));
    var players = Object.keys(hands);
    if (players.length < 2) T.bad("a showdown needs at least 2 hands, got " + players.length);
    var ranks = {}, seen = {};
    players.forEach(function (p) {
      var hand = parseHand(hands[p]);
      ranks[p] = rank(hand, rules);
      hand.forEach(function (c) { if (seen[c.key]) T.bad("card " + c.key + " appears twice"); seen[c.key] = true; });
    });
    var lowest = players.reduce(function (low, p) { return low === null || order(ranks[p], low) < 0 ? ranks[p] : low; }, null);
    return players.filter(function (p) { return order(ranks[p], lowest) === 0; }).sort();
  }
  var compute = {
    losers: function (req, rules) { return {losers: losers(req.hands, rules)}; }
  };

  /* --- The page. */
  var FACES = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
  var SIGNS = {S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663"};
  function start(core) {
    var rules = core.rules;
    var setupForm = document.getElementById("sb-setup"), error = document.getElementById("sb-error");
    var hands = {}, picking = 0, pendingRank = null;
    function setup() {
      var s = core.state().setup;
      return s && Array.isArray(s.names) && s.names.length >= 2 ? s : {names: ["", "", "", ""]};
    }
    function names() { return setup().names.map(function (n, i) { return n || core.msg("player", {n: core.num(i + 1)}); }); }
    function tokens() {
      var left = setup().names.map(function () { return rules.tokens; }), pot = 0;
      core.state().entries.forEach(function (e) {
        e.losers.forEach(function (i) { if (left[i] > 0) { left[i]--; pot++; } });
      });
      return {left: left, pot: pot};
    }
    setupForm.addEventListener("change", function () {
      var count = Number(setupForm.querySelector("#sb-count").value);
      core.setup({names: Array.from(setupForm.querySelectorAll(".sb-name"), function (x) { return x.value.trim(); }).slice(0, count)});
    });
    function cardText(key) {
      var suit = key.slice(-1), face = key.slice(0, -1);
      return core.el("span", {class: suit === "H" || suit === "D" ? "suit-red" : null, text: face + SIGNS[suit]});
    }
    var ranksRow = document.getElementById("sb-ranks"), suitsRow = document.getElementById("sb-suits");
    FACES.forEach(function (f) { ranksRow.append(core.el("button", {type: "button", value: f, "aria-pressed": "false", text: f})); });
    ranksRow.addEventListener("click", function (ev) {
      var b = ev.target.closest("button"); if (!b) return;
      pendingRank = b.value;
      ranksRow.querySelectorAll("button").forEach(function (x) { x.setAttribute("aria-pressed", String(x === b)); });
    });
    suitsRow.addEventListener("click", function (ev) {
      var b = ev.target.closest("button"); if (!b || !pendingRank) return;
      var hand = hands[picking] || (hands[picking] = []);
      var key = pendingRank + b.value;
      var used = Object.keys(hands).some(function (p) { return hands[p].indexOf(key) >= 0; });
      if (used) { core.say(core.msg("card_used")); return; }
      if (hand.length < 3) hand.push(key);
      pendingRank = null;
      ranksRow.querySelectorAll("button").forEach(function (x) { x.setAttribute("aria-pressed", "false"); });
      var left = tokens().left;
      if (hand.length === 3) {  // on to the next player still in the game
        for (var step = 1; step < left.length; step++) {
          var next = (picking + step) % left.length;
          if (left[next] > 0 && (hands[next] || []).length < 3) { picking = next; break; }
        }
      }
      drawHands();
    });
    document.getElementById("sb-hands").addEventListener("click", function (ev) {
      var b = ev.target.closest("button"); if (!b) return;
      if (b.classList.contains("sb-clear")) hands[Number(b.value)] = [];
      picking = Number(b.value);
      drawHands();
    });
    document.getElementById("sb-showdown").addEventListener("click", function () {
      var left = tokens().left, req = {};
      left.forEach(function (n, i) { if (n > 0) req[String(i)] = (hands[i] || []).join(" "); });
      var incomplete = Object.keys(req).some(function (i) { return (hands[i] || []).length !== 3; });
      if (incomplete) { error.textContent = core.msg("three_cards"); error.hidden = false; return; }
      var result = core.compute({fn: "losers", hands: req});
      if (result.error) { error.textContent = core.msg("three_cards"); error.hidden = false; return; }
      error.hidden = true;
      var people = names(), lost = result.losers.map(Number);
      hands = {};
      core.push({losers: lost}, core.msg("loses", {names: lost.map(function (i) { return people[i]; }).join(", ")}));
    });
    document.getElementById("sb-tokens").addEventListener("click", function (ev) {
      var b = ev.target.closest("button"); if (!b) return;
      core.push({losers: [Number(b.value)]}, core.msg("loses", {names: names()[Number(b.value)]}));
    });
    function drawHands() {
      var people = names(), left = tokens().left, box = document.getElementById("sb-hands");
      box.textContent = "";
      people.forEach(function (p, i) {
        if (left[i] <= 0) return;
        var hand = hands[i] || [], line = core.el("span", {class: "cards-line"});
        hand.forEach(function (k, j) { if (j) line.append(" "); line.append(cardText(k)); });
        var category = "";
        if (hand.length === 3) category = core.msg("cat_" + CATEGORIES[rank(parseHand(hand), rules)[0]]);
        box.append(core.el("div", {class: "sb-hand"}, [
          core.el("button", {type: "button", value: i, class: "sb-pick", "aria-pressed": String(i === picking)}, [p]),
          line, core.el("span", {class: "sb-cat", text: category}),
          core.el("button", {type: "button", value: i, class: "sb-clear", "aria-label": core.msg("clear", {name: p}), text: "\u00d7"})]));
      });
    }
    function render() {
      var s = setup(), people = names(), t = tokens();
      setupForm.querySelector("#sb-count").value = String(s.names.length);
      setupForm.querySelectorAll(".sb-name").forEach(function (x, i) { x.value = s.names[i] || ""; x.closest("label").hidden = i >= s.names.length; });
      if (t.left[picking] === 0 || picking >= people.length) picking = t.left.findIndex(function (n) { return n > 0; });
      drawHands();
      var body = document.querySelector("#sb-tokens tbody");
      body.textContent = "";
      people.forEach(function (p, i) {
        body.append(core.el("tr", {}, [core.el("th", {scope: "row", text: p}), core.el("td", {text: core.num(t.left[i])}),
          core.el("td", {}, [t.left[i] > 0 ? core.el("button", {type: "button", value: i, "aria-label": core.msg("loses", {names: p}), text: "\u2212" + core.num(1)}) : null])]));
      });
      var still = t.left.filter(function (n) { return n > 0; }).length, result = document.getElementById("sb-result");
      var winner = t.left.findIndex(function (n) { return n > 0; });
      result.textContent = still === 1 ? core.msg("wins_pot", {name: people[winner], pot: core.num(t.pot)}) : core.msg("pot", {pot: core.num(t.pot)});
      document.getElementById("sb-showdown").disabled = still < 2;
    }
    return {render: render};
  }

  T.register({compute: compute, start: start});
})();
