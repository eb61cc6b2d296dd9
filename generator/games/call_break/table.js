/* Call Break at the table: the engine's score() and game_totals() (engine.py), and a score sheet of four players,
   deal by deal, under the rules the site was built with. */
(function () {
  "use strict";
  var T = window.rulesheetsTableCore;

  function checkCall(call, rules) {
    if (!T.isInt(call) || call < rules.min_call || call > rules.max_call) {
      T.bad("a call must be " + rules.min_call + " to " + rules.max_call + ", got " + T.show(call));
    }
  }
  function checkTricks(tricks, values) {
    if (!T.isInt(tricks) || tricks < 0 || tricks > values.tricks_per_deal) {
      T.bad("tricks taken must be 0 to " + values.tricks_per_deal + ", got " + T.show(tricks));
    }
  }
  function score(call, tricks, rules) {
    if (tricks >= call) return T.add(T.frac(call), T.mul(T.parseFrac(rules.overtrick_points), T.frac(tricks - call)));
    return T.frac(-call);
  }
  /* {player: [call, tricks]} -> {player: fraction}; four players, tricks adding up to 13. */
  function dealScores(results, rules, values) {
    var players = Object.keys(results);
    if (players.length !== values.players) T.bad("a deal has " + values.players + " players, got " + players.length);
    var taken = 0;
    players.forEach(function (p) {
      var pair = results[p];
      if (!Array.isArray(pair) || pair.length !== 2) T.bad(p + ": give the call and the tricks taken, got " + T.show(pair));
      try { checkCall(pair[0], rules); checkTricks(pair[1], values); } catch (e) { T.bad(p + ": " + e.message); }
      taken += pair[1];
    });
    if (taken !== values.tricks_per_deal) {
      T.bad("the tricks taken add up to " + taken + ", but a deal has " + values.tricks_per_deal);
    }
    var out = {};
    players.forEach(function (p) { out[p] = score(results[p][0], results[p][1], rules); });
    return out;
  }
  /* The running totals after each deal, or a Bad naming the deal. */
  function totals(deals, rules, values) {
    if (!Array.isArray(deals)) T.bad("deals must be a list of deals, got " + T.show(deals));
    if (!deals.length) T.bad("no deal has been played yet");
    if (deals.length > rules.deals) T.bad("a game has " + rules.deals + " deals, got " + deals.length);
    if (!T.isObject(deals[0])) T.bad("deal 1 must be {player: [call, tricks]}, got " + T.show(deals[0]));
    var players = Object.keys(deals[0]), total = {}, scores = [], running = [];
    players.forEach(function (p) { total[p] = T.frac(0); });
    deals.forEach(function (results, i) {
      if (!T.isObject(results)) T.bad("deal " + (i + 1) + " must be {player: [call, tricks]}, got " + T.show(results));
      var keys = Object.keys(results);
      if (keys.length !== players.length || keys.some(function (k) { return players.indexOf(k) < 0; })) {
        T.bad("deal " + (i + 1) + " has players " + keys.join(", ") + ", but deal 1 has " + players.join(", "));
      }
      var points;
      try { points = dealScores(results, rules, values); } catch (e) { T.bad("deal " + (i + 1) + ": " + e.message); }
      players.forEach(function (p) { total[p] = T.add(total[p], points[p]); });
      scores.push(points);
      running.push(Object.assign({}, total));
    });
    return {players: players, scores: scores, running: running, total: total};
  }

  var compute = {
    game_totals: function (req, rules, values) {
      var t = totals(req.deals, rules, values), out = {};
      t.players.forEach(function (p) { out[p] = T.decimal(t.total[p]); });
      return {totals: out};
    }
  };

  function start(core) {
    var rules = core.rules, values = core.values, n = values.players;
    var names = document.querySelectorAll("#cb-names input");
    var form = document.getElementById("cb-deal");
    var calls = form.querySelectorAll("select.cb-call"), tricks = form.querySelectorAll("select.cb-tricks");
    var error = document.getElementById("cb-error");
    function fill(select, low, high, chosen) {
      select.textContent = "";
      for (var v = low; v <= high; v++) select.append(core.el("option", {value: v, text: core.num(v), selected: v === chosen}));
    }
    calls.forEach(function (s) { fill(s, rules.min_call, rules.max_call, Math.max(rules.min_call, Math.min(3, rules.max_call))); });
    tricks.forEach(function (s) { fill(s, 0, values.tricks_per_deal, 3); });
    function who() {
      var setup = core.state().setup || {};
      return Array.from({length: n}, function (_, i) {
        return (setup.names && setup.names[i]) || core.msg("player", {n: core.num(i + 1)});
      });
    }
    names.forEach(function (input, i) {
      input.addEventListener("change", function () {
        core.setup({names: Array.from(names, function (x) { return x.value.trim(); })});
      });
    });
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var entry = {calls: Array.from(calls, function (s) { return Number(s.value); }),
                   tricks: Array.from(tricks, function (s) { return Number(s.value); })};
      var deals = core.state().entries;
      var problem = null, taken = entry.tricks.reduce(function (a, b) { return a + b; }, 0);
      if (deals.length >= rules.deals) problem = core.msg("game_over", {deals: core.num(rules.deals)});
      else if (taken !== values.tricks_per_deal) problem = core.msg("tricks_sum", {taken: core.num(taken), tricks: core.num(values.tricks_per_deal)});
      else if (entry.calls.some(function (c) { return c < rules.min_call || c > rules.max_call; })) {
        problem = core.msg("call_range", {min: core.num(rules.min_call), max: core.num(rules.max_call)});
      }
      error.textContent = problem || "";
      if (problem) { error.hidden = false; return; }
      error.hidden = true;
      core.push(entry, core.msg("deal_added", {n: core.num(deals.length + 1)}));
    });
    function asRequest(entries, people) {
      return entries.map(function (e) {
        var d = {};
        people.forEach(function (p, i) { d[String(i)] = [e.calls[i], e.tricks[i]]; });
        return d;
      });
    }
    function render() {
      var state = core.state(), people = who(), entries = state.entries;
      names.forEach(function (input, i) { input.value = (state.setup && state.setup.names && state.setup.names[i]) || ""; });
      var head = document.querySelector("#cb-sheet thead tr"), body = document.querySelector("#cb-sheet tbody");
      var foot = document.querySelector("#cb-sheet tfoot tr");
      head.querySelectorAll("th.p").forEach(function (th, i) { th.textContent = people[i]; });
      form.querySelectorAll(".cb-who").forEach(function (th, i) { th.textContent = people[i]; });
      body.textContent = "";
      var t = entries.length ? totals(asRequest(entries, people), rules, values) : null;
      entries.forEach(function (e, d) {
        var row = core.el("tr", {}, [core.el("th", {scope: "row", text: core.num(d + 1)})]);
        for (var i = 0; i < n; i++) {
          var s = t.scores[d][String(i)];
          row.append(core.el("td", {class: s.n < 0 ? "minus" : null}, [
            core.el("span", {class: "cb-ct", text: core.num(e.calls[i]) + "/" + core.num(e.tricks[i])}),
            core.el("span", {class: "cb-pts", text: core.points(T.decimal(s))})]));
        }
        body.append(row);
      });
      foot.querySelectorAll("td").forEach(function (td, i) { td.textContent = t ? core.points(T.decimal(t.total[String(i)])) : core.num(0); });
      var done = entries.length >= rules.deals;
      document.getElementById("cb-deal-title").textContent = core.msg("deal_title", {n: core.num(Math.min(entries.length + 1, rules.deals))});
      form.querySelector("button[type=submit]").disabled = done;
      var result = document.getElementById("cb-result");
      if (done) {
        var best = null, winners = [];
        for (var i = 0; i < n; i++) {
          var v = t.total[String(i)];
          if (!best || T.cmp(v, best) > 0) { best = v; winners = [people[i]]; } else if (T.cmp(v, best) === 0) winners.push(people[i]);
        }
        result.textContent = core.msg(winners.length > 1 ? "winners" : "winner", {names: list(winners), points: core.points(T.decimal(best))});
      } else {
        result.textContent = core.msg("deals_left", {played: core.num(entries.length), deals: core.num(rules.deals)});
      }
    }
    function list(items) {
      try { return new Intl.ListFormat(document.documentElement.lang, {type: "conjunction"}).format(items); }
      catch (e) { return items.join(", "); }
    }
    return {render: render};
  }

  T.register({compute: compute, start: start});
})();
