/* Bunco at the table: the engine's score_throw() (engine.py), and a round tracker for one table: each team's
   points as rolled (or throw by throw, Buncos and wipeouts recognised), the round's winners and who moves,
   and each player's wins, losses and Buncos for the evening's prizes. */
(function () {
  "use strict";
  var T = window.rulesheetsTableCore;
  var NATIVE = /[\u0966-\u096f\u09e6-\u09ef]/g;

  function checkDice(dice) {
    var items;
    if (typeof dice === "string") items = dice.split(/[\s,]+/).filter(Boolean);
    else if (Array.isArray(dice)) items = dice;
    else T.bad("a throw is 3 dice, got " + T.show(dice));
    var faces = items.map(function (item) {
      var face = item;
      if (typeof item === "string" && /^\s*[0-9\u0966-\u096f\u09e6-\u09ef]+\s*$/.test(item)) {
        face = Number(item.trim().replace(NATIVE, function (c) { var n = c.charCodeAt(0); return String(n - (n >= 0x9e6 ? 0x9e6 : 0x966)); }));
      }
      if (!T.isInt(face) || face < 1 || face > 6) T.bad("a die shows " + T.show(item) + "; dice show 1 to 6");
      return face;
    });
    if (faces.length !== 3) T.bad("a throw is 3 dice, got " + faces.length);
    return faces;
  }
  function scoreThrow(dice, round, wipeout, rules, values) {
    var faces = checkDice(dice);
    if (!T.isInt(round) || round < values.first_round || round > rules.rounds_per_set) {
      T.bad("the round must be " + values.first_round + " to " + rules.rounds_per_set + ", got " + T.show(round));
    }
    if (wipeout === undefined || wipeout === null) wipeout = rules.wipeout;
    else if (typeof wipeout !== "boolean") T.bad("wipeout must be true or false, got " + T.show(wipeout));
    var alike = faces[0] === faces[1] && faces[1] === faces[2];
    var out = {points: 0, bunco: false, baby_bunco: false, wipeout: false};
    if (alike && faces[0] === round) { out.points = rules.bunco_points; out.bunco = true; }
    else if (alike && wipeout && faces[0] === values.wipeout_face) out.wipeout = true;
    else if (alike) { out.points = rules.baby_bunco_points; out.baby_bunco = true; }
    else out.points = rules.point_per_die * faces.filter(function (f) { return f === round; }).length;
    out.rolls_again = out.points > 0;
    return out;
  }
  var compute = {
    score_throw: function (req, rules, values) {
      return scoreThrow(req.dice, req.round_number, req.wipeout, rules, values);
    }
  };

  /* --- The page: seats 1 and 3 are one team, 2 and 4 the other (partners sit opposite). */
  function start(core) {
    var rules = core.rules, values = core.values;
    var setupForm = document.getElementById("bu-setup"), dice = [0, 0, 0], thrower = 0;
    var TEAM = [0, 1, 0, 1];
    function setup() {
      var s = core.state().setup;
      return s && Array.isArray(s.names) ? s : {names: ["", "", "", ""], table: "head"};
    }
    function names() { return setup().names.map(function (n, i) { return n || core.msg("player", {n: core.num(i + 1)}); }); }
    setupForm.addEventListener("change", function () {
      core.setup({names: Array.from(setupForm.querySelectorAll(".bu-name"), function (x) { return x.value.trim(); }),
                  table: setupForm.querySelector("#bu-table").value});
    });
    /* Everything from the entries: the round in play, its points, and the evening's tallies. */
    function replay() {
      var s = {round: 1, games: 0, points: [0, 0], wins: [0, 0, 0, 0], losses: [0, 0, 0, 0], buncos: [0, 0, 0, 0], last: null};
      core.state().entries.forEach(function (e) {
        if (e.type === "throw") {
          var t = scoreThrow(e.dice, s.round, null, rules, values), team = TEAM[e.player];
          if (t.wipeout) s.points[team] = 0; else s.points[team] += t.points;
          if (t.bunco) s.buncos[e.player]++;
          s.last = {throw: t, player: e.player};
        } else if (e.type === "points") {
          s.points[e.team] = Math.max(0, s.points[e.team] + e.delta);
        } else if (e.type === "end") {
          [0, 1, 2, 3].forEach(function (p) { if (TEAM[p] === e.winner) s.wins[p]++; else s.losses[p]++; });
          s.last = {end: e.winner};
          s.points = [0, 0];
          s.round = s.round % rules.rounds_per_set + 1;
          if (s.round === 1) s.games++;
        }
      });
      return s;
    }
    var diceBox = document.getElementById("bu-dice");
    diceBox.addEventListener("click", function (ev) {
      var b = ev.target.closest("button"); if (!b) return;
      var d = Number(b.getAttribute("data-die"));
      dice[d] = Number(b.value);
      b.parentNode.querySelectorAll("button").forEach(function (x) { x.setAttribute("aria-pressed", String(x === b)); });
    });
    document.getElementById("bu-thrower").addEventListener("click", function (ev) {
      var b = ev.target.closest("button"); if (!b) return;
      thrower = Number(b.value); draw();
    });
    document.getElementById("bu-throw").addEventListener("click", function () {
      var error = document.getElementById("bu-error");
      if (dice.indexOf(0) >= 0) { error.textContent = core.msg("three_dice"); error.hidden = false; return; }
      error.hidden = true;
      var s = replay(), t = core.compute({fn: "score_throw", dice: dice.slice(), round_number: s.round});
      var said = t.bunco ? "said_bunco" : t.baby_bunco ? "said_baby" : t.wipeout ? "said_wipeout" : t.points ? "said_points" : "said_pass";
      core.push({type: "throw", player: thrower, dice: dice.slice()}, core.msg(said, {points: core.num(t.points)}));
      if (!t.rolls_again) thrower = (thrower + 1) % 4;
      dice = [0, 0, 0];
      diceBox.querySelectorAll("button").forEach(function (x) { x.setAttribute("aria-pressed", "false"); });
      draw();
    });
    document.querySelectorAll(".bu-plus").forEach(function (b) {
      b.addEventListener("click", function () {
        core.push({type: "points", team: Number(b.getAttribute("data-team")), delta: Number(b.value)}, "");
      });
    });
    document.getElementById("bu-end").addEventListener("click", function () {
      var s = replay(), error = document.getElementById("bu-error");
      if (s.points[0] === s.points[1]) { error.textContent = core.msg("tie"); error.hidden = false; return; }
      error.hidden = true;
      var winner = s.points[0] > s.points[1] ? 0 : 1;
      core.push({type: "end", winner: winner}, moves(winner));
    });
    function team(t) {
      var people = names();
      return core.msg("pair", {first: people[t], second: people[t + 2]});
    }
    function moves(winner) {
      var table = setup().table || "head";
      return core.msg("moves_" + table, {winners: team(winner), losers: team(1 - winner)});
    }
    function draw() {
      var people = names(), s = replay();
      var throwers = document.getElementById("bu-thrower");
      throwers.textContent = "";
      people.forEach(function (p, i) {
        throwers.append(core.el("button", {type: "button", value: i, "aria-pressed": String(i === thrower), text: p}));
      });
      document.getElementById("bu-round").textContent = core.msg("round", {round: core.num(s.round), game: core.num(s.games + 1)});
      document.querySelectorAll(".bu-team-name").forEach(function (x, t) { x.textContent = team(t); });
      document.querySelectorAll(".bu-team-points").forEach(function (x, t) { x.textContent = core.num(s.points[t]); });
      var bell = document.getElementById("bu-bell"), top = Math.max(s.points[0], s.points[1]);
      bell.textContent = (setup().table || "head") === "head" && top >= rules.target_points
        ? core.msg("bell", {team: team(s.points[0] >= s.points[1] ? 0 : 1), points: core.num(rules.target_points)}) : "";
      var body = document.querySelector("#bu-tally tbody");
      body.textContent = "";
      people.forEach(function (p, i) {
        body.append(core.el("tr", {}, [core.el("th", {scope: "row", text: p}), core.el("td", {text: core.num(s.wins[i])}),
          core.el("td", {text: core.num(s.losses[i])}), core.el("td", {text: core.num(s.buncos[i])})]));
      });
    }
    function render() {
      var s = setup();
      setupForm.querySelectorAll(".bu-name").forEach(function (x, i) { x.value = s.names[i] || ""; });
      setupForm.querySelector("#bu-table").value = s.table || "head";
      draw();
    }
    return {render: render};
  }

  T.register({compute: compute, start: start});
})();
