"""House rules and the single source of truth: every fact is bound, derived or checked; switches rewrite editions."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from generator import GAMES
from generator.i18n.translate import discover_locales, draft_locales
from generator.pipeline.build import Options, prepare
from generator.edition.editions import example_problems, make_edition
from generator.games.tonk import engine as tonk
from generator.games.stop_the_bus.odds import stop_the_bus_counts
from generator.core.errors import CheckFailed, InputError
from generator.model.loader import model_path
from generator.render.html import render_rulebook
from generator.games.tonk.sheets import situation_totals, transfers
from generator.core.registry import GAMES
from tests.conftest import examples, run_main
from tests.lazy import Lazy

#: The games the registry finds, as the one-line errors list them.
KNOWN_GAMES = ", ".join(sorted(GAMES))

PREP = Lazy(lambda: prepare(Options(formats=("html",))))


def _house_rule_values(rule):
    if rule.range is not None:
        return st.integers(rule.range[0], rule.range[1])
    return st.sampled_from([tuple(c) if isinstance(c, list) else c for c in rule.choices])


def _combination(game: str):
    rules = PREP.models[game].model.house_rules
    return st.fixed_dictionaries({}, optional={r.id: _house_rule_values(r) for r in rules})


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# --- property tests over random house-rule combinations -------------------------------------------

@pytest.mark.hypothesis
@pytest.mark.parametrize("game", GAMES)
def test_random_house_rules_keep_every_example_true(game):
    @settings(max_examples=examples(25), deadline=None)
    @given(_combination(game))
    def run(house):
        edition = make_edition(PREP.models[game], house)
        assert example_problems(edition) == []
        # Every section that has worked examples still shows at least one under these rules.
        for section in edition.model.sections:
            if section.examples and edition.applies(section.when):
                assert any(e in edition.outcomes for e in section.examples), (section.id, house)
        if game == "tonk":
            for s in edition.model.payouts:
                if edition.applies(s.when):
                    for n in s.totals:
                        totals = situation_totals(s, n, edition.values)
                        assert sum(tonk.net(transfers(s, totals, edition.rules), totals).values()) == 0
        if game == "stop-the-bus":
            assert sum(stop_the_bus_counts(rules=edition.rules).values()) == 22100
        # The edition renders, and its first page lists exactly the rules that differ.
        html = render_rulebook(edition, PREP.translators["en"])
        listed = re.findall(r'<dt data-rule="([a-z_]+)">', html)
        assert listed == list(edition.changed)

    run()


@pytest.mark.parametrize("code", [c for c in discover_locales() if c not in draft_locales()])
def test_house_rules_box_is_in_the_readers_language(code):
    edition = make_edition(PREP.models["tonk"], {"tonk_multiplier": "3", "new_spreads_double": "true"})
    tr = PREP.translators[code]
    before = len(tr.misses)
    html = render_rulebook(edition, tr)
    box = re.search(r'<aside class="house-rules-box".*?</aside>', html, re.S).group(0)
    assert len(re.findall("<dt ", box)) == 2
    assert "untranslated" not in box
    assert tr.number(3) in box
    assert len(tr.misses) == before, tr.misses[before:]


def test_ace_low_run_rewrites_prose_examples_and_odds():
    edition = make_edition(PREP.models["stop-the-bus"], {"ace_low_run": "true"})
    assert "ace-two-three-low" in edition.outcomes and "ace-two-three" not in edition.outcomes
    assert edition.outcomes["ace-two-three-low"].result["categories"]["Yuna"] == "run"
    text = _text(render_rulebook(edition, PREP.translators["en"]))
    assert "There are 720 such hands" in text and "There are 48 such hands" in text
    assert "A-2-3 is not a run" not in text


def test_rounds_per_set_replaces_examples_that_no_longer_fit():
    edition = make_edition(PREP.models["bunco"], {"rounds_per_set": "3"})
    rounds = [o.input.round for o in edition.outcomes.values() if hasattr(o.input, "round")]
    assert rounds and max(rounds) <= 3
    assert {"throw-bunco-short", "throw-miss-short"} <= set(edition.outcomes)
    text = _text(render_rulebook(edition, PREP.translators["en"]))
    assert "up to 3 in the last" in text


def test_tonk_multipliers_reach_examples_and_prose():
    edition = make_edition(PREP.models["tonk"], {"tonk_multiplier": "3", "caught_multiplier": "4"})
    assert edition.outcomes["dealt-one-tonk"].result["payouts"] == {"Rina": 6, "Sam": -3, "Tariq": -3}
    assert edition.outcomes["knock-caught"].result["payouts"] == {"Rina": 6, "Sam": -5, "Tariq": -1}
    text = _text(render_rulebook(edition, PREP.translators["en"]))
    assert "That player wins 3 stakes from each other player" in text
    assert "The knocker pays 4 stakes to each player" in text


@pytest.mark.parametrize("house, message", [
    ({"nope": "1"}, "--rule: unknown house rule 'bunco.nope' (house rules of bunco: wipeout, rounds_per_set, "
                    "sets_per_evening, target_points, bunco_points, baby_bunco_points)"),
    ({"rounds_per_set": "9"}, "--rule: bunco.rounds_per_set must be 3 to 6, got 9"),
    ({"wipeout": "maybe"}, "--rule: bunco.wipeout: expected true or false, got 'maybe'"),
    ({"target_points": "1e3"}, "--rule: bunco.target_points: expected a whole number, got '1e3'"),
])
def test_bad_house_rules_are_one_line(house, message):
    with pytest.raises(InputError) as err:
        make_edition(PREP.models["bunco"], house)
    assert str(err.value) == message


def _copy_models(folder: Path) -> None:
    """Every game's model in a games folder of its own (one subfolder per game, as generator/games)."""
    for g in GAMES:
        model_path(g, folder).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(model_path(g), model_path(g, folder))


# --- mutation test: every fact either changes every locale's text or fails the check ---------------

def _mutations():
    for game in GAMES:
        data = yaml.safe_load(model_path(game).read_text(encoding="utf-8"))
        for name, value in data["rules"].items():
            if isinstance(value, bool):
                new = not value
            elif isinstance(value, list):
                new = value[1:]
            else:
                new = value + 1
            yield game, "rules", name, new
        for name, value in data.get("derived", {}).items():
            yield game, "derived", name, value + 1
        for name, fact in data.get("facts", {}).items():
            yield game, "facts", name, {**fact, "value": fact["value"] + 4}


@pytest.fixture(scope="module")
def baseline():
    return {(g, c): render_rulebook(PREP.editions[g], tr) for g in GAMES for c, tr in PREP.translators.items()}


def _mutation_cases():
    """Every mutation; `make test` tries every third (each game's rules, derived values and facts among them)
    and `make test-full` all of them."""
    return [pytest.param(*m, marks=() if i % 3 == 0 else pytest.mark.full) for i, m in enumerate(_mutations())]


@pytest.mark.parametrize("game, part, name, new", _mutation_cases(), ids=lambda v: str(v))
def test_every_fact_is_bound_or_checked(tmp_path, baseline, game, part, name, new):
    _copy_models(tmp_path)
    data = yaml.safe_load(model_path(game, tmp_path).read_text(encoding="utf-8"))
    data[part][name] = new
    model_path(game, tmp_path).write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    try:
        prep = prepare(Options(games=(game,), formats=("html",), games_dir=tmp_path))
    except (InputError, CheckFailed) as exc:
        # Refused: the message names the changed fact, or an example/derived value it broke.
        assert any(s in str(exc) for s in (name, "example '", "derived fact", "no worked example under these rules")), str(exc)
        assert part != "derived" or f"derived fact '{name}'" in str(exc)
        return
    assert part != "derived", f"a wrong derived value '{name}' was accepted"
    for code, tr in prep.translators.items():
        assert render_rulebook(prep.editions[game], tr) != baseline[(game, code)], (code, name)


def test_a_number_typed_into_prose_fails_the_check(tmp_path):
    _copy_models(tmp_path)
    path = model_path("tonk", tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace(
        "wins {tonk_multiplier} stakes from each other player.\n      - If two",
        "wins 2 stakes from each other player.\n      - If two"), encoding="utf-8")
    with pytest.raises(CheckFailed) as err:
        prepare(Options(games=("tonk",), formats=("html",), games_dir=tmp_path))
    assert "the number 2 in the prose has no fact behind it" in str(err.value)


# --- the command line -----------------------------------------------------------------------------

def _cli(*args):
    return run_main(*args)


def test_rules_command_lists_every_house_rule():
    r = _cli("rules")
    assert r.returncode == 0, r.stderr
    for game in GAMES:
        for rule in PREP.models[game].model.house_rules:
            assert f"  {game}.{rule.id} (default " in r.stdout
    assert "stop-the-bus.ace_low_run (default false; allowed false | true): Ace-low run." in r.stdout
    r = _cli("rules", "chess")
    assert (r.returncode, r.stderr.strip()) == (2, f"rules: unknown game 'chess' (known: {KNOWN_GAMES})")


@pytest.mark.parametrize("args, message", [
    (["--rule", "bunco.rounds_per_set"], "--rule: expected GAME.NAME=VALUE (like bunco.wipeout=true), got 'bunco.rounds_per_set'"),
    (["--rule", "chess.castling=true"], f"--rule: unknown game 'chess' (known: {KNOWN_GAMES})"),
    (["--rule", "tonk.hand_size=6"], "--rule: tonk.hand_size must be 5 | 7, got 6"),
])
def test_bad_rule_options_exit_2(args, message):
    r = _cli("check", *args)
    assert (r.returncode, r.stderr.strip()) == (2, message)


def test_house_rules_file_and_manifest(tmp_path):
    rules = tmp_path / "ours.toml"
    rules.write_text("[bunco]\nrounds_per_set = 4\nwipeout = true\n", encoding="utf-8")
    out = tmp_path / "out"
    r = _cli("build", "--games", "bunco", "--locales", "en", "ko", "--formats", "html", "--house-rules", str(rules),
             "--rule", "bunco.target_points=25", "--out", str(out))
    assert r.returncode == 0, r.stderr
    entries = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    bunco = [e for e in entries if e["game"] == "bunco"]
    assert bunco and all(e["rules"] == {"rounds_per_set": 4, "wipeout": True, "target_points": 25} for e in bunco)
    tally = (out / "ko/bunco/tally-sheet.html").read_text(encoding="utf-8")
    assert tally.count('class="round-no"') == 4
    book = (out / "ko/bunco/rulebook.html").read_text(encoding="utf-8")
    assert len(re.findall(r'<dt data-rule=', book)) == 3


def test_bad_house_rules_file(tmp_path):
    rules = tmp_path / "ours.toml"
    rules.write_text("[bunco]\nrounds_per_set = \n", encoding="utf-8")
    r = _cli("check", "--house-rules", str(rules))
    assert r.returncode == 2
    assert r.stderr.strip().startswith(f"{rules}:2: invalid TOML")
    assert len(r.stderr.strip().splitlines()) == 1


#: Values a --house-rules file may hold that no rule takes (issue 44): each refused at its own line, in one line.
#: `rounds_per_set = inf` was a ValueError traceback (a regression); the others were reported as `--rule:`.
FILE_VALUES = {
    "rounds_per_set = inf": "bunco.rounds_per_set must be 3 to 6, got inf",
    "rounds_per_set = nan": "bunco.rounds_per_set must be 3 to 6, got nan",
    "rounds_per_set = -inf": "bunco.rounds_per_set must be 3 to 6, got -inf",
    "rounds_per_set = 4.0": "bunco.rounds_per_set must be 3 to 6, got 4.0",
    "rounds_per_set = 99999999999999999999999": "bunco.rounds_per_set must be 3 to 6, got a number of 23 digits",
    "rounds_per_set = true": "bunco.rounds_per_set must be 3 to 6, got true",
    "wipeout = 1": "bunco.wipeout must be false | true, got 1",
    "wipeout = \"yes\"": "bunco.wipeout: expected true or false, got 'yes'",
    "nope = 1": "unknown house rule 'bunco.nope' (house rules of bunco: wipeout, rounds_per_set, sets_per_evening, "
                "target_points, bunco_points, baby_bunco_points)",
}


@pytest.mark.parametrize("line", FILE_VALUES)
def test_a_bad_value_in_a_house_rules_file_names_its_line(tmp_path, line):
    from generator.model.houserules import read_house_rules

    path = tmp_path / "ours.toml"
    path.write_text(f"# our rules\n[bunco]\ntarget_points = 25\n{line}\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        make_edition(PREP.models["bunco"], read_house_rules(path)["bunco"])
    assert [(p.path, p.line, p.message) for p in err.value.problems] == [(str(path), 4, FILE_VALUES[line])]


def test_a_huge_number_in_a_house_rules_file_is_one_line(tmp_path):
    """tomllib's int() raises a plain ValueError past 4,300 digits: one line at its line, not a traceback."""
    path = tmp_path / "ours.toml"
    path.write_text("[bunco]\nwipeout = true\nrounds_per_set = " + "9" * 5000 + "\n", encoding="utf-8")
    r = _cli("check", "--games", "bunco", "--locales", "en", "--house-rules", str(path))
    assert (r.returncode, r.stderr) == (2, f"{path}:3: invalid TOML: a number of more than 4,300 digits\n")


def test_house_rules_file_end_to_end(tmp_path):
    """The regression itself, through the command line: one line at the file's line, exit 2, then --rule wins
    over the file and is named as --rule."""
    path = tmp_path / "ours.toml"
    path.write_text("[bunco]\nwipeout = true\nrounds_per_set = inf\n", encoding="utf-8")
    r = _cli("check", "--games", "bunco", "--locales", "en", "--house-rules", str(path))
    assert (r.returncode, r.stderr) == (2, f"{path}:3: bunco.rounds_per_set must be 3 to 6, got inf\n")
    r = _cli("check", "--games", "bunco", "--locales", "en", "--house-rules", str(path), "--rule", "bunco.rounds_per_set=9")
    assert (r.returncode, r.stderr) == (2, "--rule: bunco.rounds_per_set must be 3 to 6, got 9\n")
    path.write_text("[bunco]\nwipeout = true\n\n[chess]\ncastling = true\n", encoding="utf-8")
    r = _cli("check", "--games", "bunco", "--locales", "en", "--house-rules", str(path))
    assert (r.returncode, r.stderr) == (2, f"{path}:4: unknown game 'chess' (known: {KNOWN_GAMES})\n")


@pytest.mark.parametrize("value", ["yes", "no", "on", "off", "1", "0", "True", "FALSE", "y"])
def test_a_switch_takes_true_or_false_only(value):
    """Only the spellings `rulesheets rules` shows (and TOML uses): `yes` was quietly taken as true (issue 44)."""
    r = _cli("check", "--games", "bunco", "--locales", "en", "--rule", f"bunco.wipeout={value}")
    assert (r.returncode, r.stderr) == (2, f"--rule: bunco.wipeout: expected true or false, got '{value}'\n")


@pytest.mark.parametrize("value, shown", [("a\nb", "a\\u000ab"), ("a\u2028b", "a\\u2028b"), ("a\rb", "a\\u000db"),
                                          ("a\u202eb", "a\\u202eb")])
def test_a_rule_value_that_breaks_lines_is_one_line(value, shown):
    r = _cli("check", "--games", "bunco", "--locales", "en", "--rule", f"bunco.wipeout={value}")
    assert (r.returncode, r.stderr) == (2, f"--rule: bunco.wipeout: expected true or false, got '{shown}'\n")


def test_a_caption_may_only_quote_its_own_example(tmp_path):
    _copy_models(tmp_path)
    path = model_path("bunco", tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace(
        "caption: In round 3, two dice show a 3.", "caption: In round 4, two dice show a 3."), encoding="utf-8")
    with pytest.raises(CheckFailed) as err:
        prepare(Options(games=("bunco",), formats=("html",), games_dir=tmp_path))
    assert "the number 4 in the caption of example 'throw-two-hits' is not in the example" in str(err.value)
