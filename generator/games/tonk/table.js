/* Tonk at the table: the engine's payouts (engine.py: who pays whom, however a hand ends) and a money ledger
   for the players, hand by hand, under the multipliers the site was built with. */
(function () {
  "use strict";
  var T = window.rulesheetsTableCore;

  function checkStake(stake) {
    if (stake === undefined) return 1;
    if (!T.isInt(stake) || stake < 1) T.bad("stake must be a positive whole number, got " + T.show(stake));
    return stake;
  }
  function checkPlayers(players) {
    if (!Array.isArray(players)) T.bad("players must be a list, got " + T.show(players));
    if (players.length < 2) T.bad("a Tonk hand needs at least 2 players, got " + players.length);
    players.forEach(function (p, i) {
      if (players.indexOf(p) !== i) T.bad("player " + p + " is listed twice");
    });
    return players;
  }
  function checkTotals(totals) {
    if (!T.isObject(totals)) T.bad("totals must be {player: total}, got " + T.show(totals));
    var players = checkPlayers(Object.keys(totals));
    players.forEach(function (p) {
      if (!T.isInt(totals[p]) || totals[p] < 0) T.bad(p + "'s total must be a whole number, 0 or more, got " + T.show(totals[p]));
    });
    return players;
  }
  function checkKnown(player, players) {
    if (players.indexOf(player) < 0) T.bad("unknown player " + T.show(player) + ": players are " + players.join(", "));
  }
  function everyonePays(players, payee, amount) {
    return players.filter(function (p) { return p !== payee; }).map(function (p) { return [p, payee, amount]; });
  }
  /* Each function returns [players, transfers]; a transfer is [payer, payee, amount]. */
  var transfers = {
    payouts_dealt_tonk: function (req, rules, values) {
      var players = checkTotals(req.totals), stake = checkStake(req.stake);
      var tonks = players.filter(function (p) { return rules.tonk_totals.indexOf(req.totals[p]) >= 0; });
      return [players, tonks.length === 1 ? everyonePays(players, tonks[0], rules.tonk_multiplier * stake) : []];
    },
    payouts_went_out: function (req, rules, values) {
      var players = checkPlayers(req.players), stake = checkStake(req.stake);
      checkKnown(req.winner, players);
      if (typeof req.discarded !== "boolean") T.bad("discarded must be true or false, got " + T.show(req.discarded));
      var multiplied = !req.discarded;
      if (multiplied && rules.new_spreads_double) {
        if (req.by_new_spreads === undefined || req.by_new_spreads === null) {
          T.bad("with the new-spreads-double variant, say whether the winner went out by new spreads (by_new_spreads: true) or by hits alone (false)");
        }
        multiplied = Boolean(req.by_new_spreads);
      }
      var units = multiplied ? rules.tonk_out_multiplier : values.single_stake;
      return [players, everyonePays(players, req.winner, units * stake)];
    },
    payouts_knock: function (req, rules, values) {
      var totals = req.totals, players = checkTotals(totals), stake = checkStake(req.stake), knocker = req.knocker;
      checkKnown(knocker, players);
      var mine = totals[knocker], others = players.filter(function (p) { return p !== knocker; });
      var single = values.single_stake * stake;
      if (others.every(function (p) { return totals[p] > mine; })) return [players, everyonePays(players, knocker, single)];
      var out = others.filter(function (p) { return totals[p] <= mine; }).map(function (p) { return [knocker, p, rules.caught_multiplier * stake]; });
      var lowest = Math.min.apply(null, players.map(function (p) { return totals[p]; }));
      // A knock that ties for lowest is caught: the knocker never collects, and pays each low collector.
      var collectors = others.filter(function (p) { return totals[p] === lowest; });
      var payers = players.filter(function (p) { return totals[p] !== lowest || p === knocker; });
      collectors.forEach(function (h) { payers.forEach(function (p) { out.push([p, h, single]); }); });
      return [players, out];
    },
    payouts_stock_out: function (req, rules, values) {
      var totals = req.totals, players = checkTotals(totals), stake = checkStake(req.stake);
      var lowest = Math.min.apply(null, players.map(function (p) { return totals[p]; }));
      var out = [];
      players.filter(function (p) { return totals[p] === lowest; }).forEach(function (h) {
        players.forEach(function (p) { if (totals[p] !== lowest) out.push([p, h, values.single_stake * stake]); });
      });
      return [players, out];
    }
  };
  function net(players, moves) {
    var out = {};
    players.forEach(function (p) { out[p] = 0; });
    moves.forEach(function (t) { out[t[0]] -= t[2]; out[t[1]] += t[2]; });
    return out;
  }
  var compute = {};
  Object.keys(transfers).forEach(function (fn) {
    compute[fn] = function (req, rules, values) {
      var r = transfers[fn](req, rules, values);
      return {payouts: net(r[0], r[1])};
    };
  });

  /* --- The page: players and stake, then hand after hand. */
  var ENDS = {dealt: "payouts_dealt_tonk", tonk_out: "payouts_went_out", out: "payouts_went_out",
              knock: "payouts_knock", stock: "payouts_stock_out"};
  function start(core) {
    var rules = core.rules, values = core.values;
    var setupForm = document.getElementById("tk-setup"), handForm = document.getElementById("tk-hand");
    var error = document.getElementById("tk-error");
    var chosen = {end: "knock", who: 0, spreads: true};
    function setup() {
      var s = core.state().setup;
      return s && Array.isArray(s.names) && s.names.length >= 2 ? s : {names: ["", "", ""], stake: Number(setupForm.getAttribute("data-stake")) || 1};
    }
    function names() {
      return setup().names.map(function (n, i) { return n || core.msg("player", {n: core.num(i + 1)}); });
    }
    function press(group, value) {
      group.querySelectorAll("button").forEach(function (b) { b.setAttribute("aria-pressed", String(b.value === String(value))); });
    }
    setupForm.addEventListener("change", function () {
      var stake = core.readInt(setupForm.querySelector("#tk-stake").value);
      var inputs = setupForm.querySelectorAll(".tk-name");
      core.setup({names: Array.from(inputs, function (x) { return x.value.trim(); }).slice(0, Number(setupForm.querySelector("#tk-count").value)),
                  stake: stake > 0 ? stake : setup().stake});
    });
    var endGroup = document.getElementById("tk-end"), whoGroup = document.getElementById("tk-who");
    endGroup.addEventListener("click", function (ev) {
      var b = ev.target.closest("button"); if (!b) return;
      chosen.end = b.value; drawHand();
    });
    whoGroup.addEventListener("click", function (ev) {
      var b = ev.target.closest("button"); if (!b) return;
      chosen.who = Number(b.value); press(whoGroup, chosen.who);
    });
    document.getElementById("tk-spreads").addEventListener("change", function (ev) { chosen.spreads = ev.target.checked; });
    function drawHand() {
      press(endGroup, chosen.end);
      var people = names();
      whoGroup.textContent = "";
      people.forEach(function (p, i) { whoGroup.append(core.el("button", {type: "button", value: i, text: p})); });
      if (chosen.who >= people.length) chosen.who = 0;
      press(whoGroup, chosen.who);
      var needsWho = chosen.end === "tonk_out" || chosen.end === "out" || chosen.end === "knock";
      document.getElementById("tk-who-box").hidden = !needsWho;
      document.getElementById("tk-spreads-box").hidden = !(chosen.end === "tonk_out" && rules.new_spreads_double);
      var totalsBox = document.getElementById("tk-totals");
      var needsTotals = chosen.end === "dealt" || chosen.end === "knock" || chosen.end === "stock";
      totalsBox.hidden = !needsTotals;
      var list = totalsBox.querySelector("div");
      var kept = Array.from(list.querySelectorAll("input"), function (x) { return x.value; });
      list.textContent = "";
      list.onchange = function (ev) {  // digits typed on a Latin keypad are shown in the locale's own
        var v = core.readInt(ev.target.value);
        if (!isNaN(v)) ev.target.value = core.native(String(v));
      };
      people.forEach(function (p, i) {
        var id = "tk-total-" + i;
        list.append(core.el("label", {for: id}, [p]), core.el("input", {id: id, type: "text", inputmode: "numeric", pattern: "[0-9০-৯०-९]*", autocomplete: "off", value: kept[i] || ""}));
      });
    }
    handForm.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var people = names(), ids = people.map(function (_, i) { return String(i); });
      var req = {fn: ENDS[chosen.end], stake: 1};
      if (req.fn === "payouts_went_out") {
        req.players = ids; req.winner = String(chosen.who); req.discarded = chosen.end === "out";
        if (rules.new_spreads_double && chosen.end === "tonk_out") req.by_new_spreads = chosen.spreads;
      } else {
        req.totals = {};
        var missing = false;
        ids.forEach(function (id, i) {
          var v = core.readInt(document.getElementById("tk-total-" + i).value);
          if (isNaN(v)) missing = true; else req.totals[id] = v;
        });
        if (missing) { error.textContent = core.msg("totals_needed"); error.hidden = false; return; }
        if (chosen.end === "knock") req.knocker = String(chosen.who);
      }
      var result = core.compute(req);
      if (result.error) { error.textContent = core.msg("bad_hand"); error.hidden = false; return; }
      error.hidden = true;
      handForm.querySelectorAll("#tk-totals input").forEach(function (x) { x.value = ""; });
      core.push({req: req, end: chosen.end}, core.msg("hand_added", {n: core.num(core.state().entries.length + 1)}));
    });
    function render() {
      var s = setup(), people = names(), stake = s.stake;
      setupForm.querySelector("#tk-count").value = String(s.names.length);
      setupForm.querySelector("#tk-stake").value = core.native(String(stake));
      setupForm.querySelectorAll(".tk-name").forEach(function (x, i) {
        x.value = s.names[i] || ""; x.closest("label").hidden = i >= s.names.length;
      });
      drawHand();
      var ledger = {}, body = document.querySelector("#tk-ledger tbody");
      people.forEach(function (_, i) { ledger[i] = 0; });
      body.textContent = "";
      var last = document.getElementById("tk-last");
      last.textContent = "";
      core.state().entries.forEach(function (e, h) {
        var fn = transfers[e.req.fn], r = core.compute(e.req);
        if (r.error) return;
        var moves = fn(e.req, rules, values)[1];
        var row = core.el("tr", {}, [core.el("th", {scope: "row", text: core.num(h + 1)})]);
        people.forEach(function (_, i) {
          var units = r.payouts[String(i)] || 0;
          ledger[i] += units * stake;
          row.append(core.el("td", {class: units > 0 ? "ledger-plus" : null, text: units ? core.money(units * stake) : "·"}));
        });
        body.append(row);
        if (h === core.state().entries.length - 1) {
          last.append(core.el("h3", {text: core.msg("last_hand", {n: core.num(h + 1)})}));
          var ul = core.el("ul");
          moves.forEach(function (t) {
            ul.append(core.el("li", {text: core.msg("pays", {payer: people[Number(t[0])], payee: people[Number(t[1])], amount: core.money(t[2] * stake).replace(/^\+/, "")})}));
          });
          if (!moves.length) ul.append(core.el("li", {text: core.msg("nobody_pays")}));
          last.append(ul);
        }
      });
      document.querySelectorAll("#tk-ledger thead th.p").forEach(function (th, i) {
        th.textContent = people[i] || ""; th.hidden = i >= people.length;
      });
      document.querySelectorAll("#tk-ledger tfoot td").forEach(function (td, i) {
        td.textContent = i < people.length ? core.money(ledger[i]) : ""; td.hidden = i >= people.length;
      });
    }
    return {render: render};
  }

  T.register({compute: compute, start: start});
})();
