"""generator/core/registry.py: how games are found, bound to their package, and asked for their parts."""

from __future__ import annotations

import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from generator.core import registry
from generator.core.errors import InputError
from generator.core.registry import ExampleKind, Game, Ref, Registry, Sheet, rule_values


@dataclass(frozen=True)
class Rules:
    sides: int = 2
    rounds: int = 3

    def __post_init__(self):
        if self.sides < 2:
            raise ValueError(f"sides must be 2 or more, got {self.sides}")


def _derive(rules, facts):
    return {"outcomes": rules.sides ** rules.rounds}


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """A package `toss_plugin` on sys.path with a game, lazy parts relative to itself, and no kit."""
    pkg = tmp_path / "toss_plugin"
    pkg.mkdir()
    (pkg / "parts.py").write_text(textwrap.dedent("""
        LOADED = True
        class Inputs:
            class Nested:
                value = 42
        def render(*args, **kwargs):
            return f"<p>{args} {sorted(kwargs)}</p>"
        def run(rules, inp):
            return {"rules": rules, "inp": inp}
    """), encoding="utf-8")
    (pkg / "__init__.py").write_text(textwrap.dedent("""
        from generator.core.registry import ExampleKind, Game, Ref, Sheet
        from tests.core.test_registry import Rules, _derive
        GAME = Game("toss", Rules, _derive, (Sheet("toss-sheet", "Tosses", Ref(".parts:render"), per_table=True),),
                    {"toss.throw": ExampleKind(Ref(".parts:Inputs"), Ref(".parts:Inputs.Nested"), Ref(".parts:run"),
                                               "toss_throw")})
    """), encoding="utf-8")
    (tmp_path / "broken_plugin").mkdir()
    (tmp_path / "broken_plugin/__init__.py").write_text("GAME = 'not a game'\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield pkg
    for name in [m for m in sys.modules if m.startswith(("toss_plugin", "broken_plugin"))]:
        del sys.modules[name]


def test_ref_resolves_relative_and_absolute_targets_and_attribute_paths(plugin):
    assert Ref(".parts:Inputs.Nested", "toss_plugin").resolve().value == 42
    assert Ref("generator.core.expr:evaluate").resolve()("1 + 1", {}) == 2


def test_a_game_is_bound_to_its_package_and_imports_its_parts_only_when_used(plugin):
    found: dict[str, Game] = {}
    Registry._add(found, "toss_plugin", "tests")
    toss = found["toss"]
    assert toss.package == "toss_plugin" and toss.folder == plugin
    assert toss.model_path == plugin / "model.yaml" and toss.templates_dir == plugin / "templates"
    assert "toss_plugin.parts" not in sys.modules  # nothing heavy yet
    sheet = toss.sheet("toss-sheet")
    assert sheet.render == Ref(".parts:render", "toss_plugin") and sheet.per_table
    assert sheet.html(1, table=2) == "<p>(1,) ['table']</p>"
    assert "toss_plugin.parts" in sys.modules
    kind = toss.example_kinds["toss.throw"]
    assert kind.input_schema.__name__ == "Inputs" and kind.expect_schema.value == 42
    assert kind("R", "I") == {"rules": "R", "inp": "I"}
    assert toss.sheet("scorepad") is None
    assert toss.kit_parts() is None and toss.card_values("anything") == {}


def test_binding_gives_relative_refs_their_package_and_leaves_absolute_ones_pointing_where_they_did():
    ref = Ref("generator.core.expr:names")
    assert registry._bound(ref, "toss_plugin").resolve() is ref.resolve()
    assert registry._bound(Ref(".x:y"), "toss_plugin") == Ref(".x:y", "toss_plugin")
    assert registry._bound(len, "toss_plugin") is len


def test_a_package_without_a_game_is_one_problem(plugin):
    with pytest.raises(InputError) as err:
        Registry._add({}, "broken_plugin", "entry point 'broken'")
    assert str(err.value) == "entry point 'broken': a game package must define GAME, a generator.core.registry.Game"


def test_two_packages_with_one_id_are_refused(plugin):
    found: dict[str, Game] = {}
    Registry._add(found, "toss_plugin", "first")
    with pytest.raises(InputError) as err:
        Registry._add(found, "toss_plugin", "second")
    assert str(err.value) == "second: game 'toss' is already provided by toss_plugin"


def test_rules_values_and_engine_numbers(plugin):
    found: dict[str, Game] = {}
    Registry._add(found, "toss_plugin", "tests")
    toss = found["toss"]
    assert toss.rule_names() == ("sides", "rounds")
    rules = toss.make_rules({"sides": 6, "rounds": 2})
    assert rule_values(rules) == {"sides": 6, "rounds": 2}
    assert toss.values(rules, {"players": 4}) == {"sides": 6, "rounds": 2, "outcomes": 36, "players": 4}
    with pytest.raises(ValueError, match="sides must be 2 or more, got 1"):
        toss.make_rules({"sides": 1})


def test_lists_become_tuples_for_the_frozen_rules():
    @dataclass(frozen=True)
    class Listed:
        targets: tuple = (1,)

    g = Game("listed", Listed, lambda r, f: {}, ())
    assert g.make_rules({"targets": [1, 2]}).targets == (1, 2)


def test_builtin_games_come_in_id_order_and_are_game_objects():
    ids = list(registry.GAMES)
    assert ids == sorted(ids) and len(ids) == len(registry.GAMES) >= 4
    for gid in ids:
        g = registry.game(gid)
        assert isinstance(g, Game) and g.id == gid and g.package.startswith("generator.games.")
        assert all(isinstance(s, Sheet) for s in g.sheets)
        assert all(isinstance(k, ExampleKind) and name.startswith(gid + ".") for name, k in g.example_kinds.items())
