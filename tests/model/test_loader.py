"""generator/model/loader.py: a rule model is read, validated and checked for meaning, every problem at its line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.core.errors import InputError
from generator.core.paths import GAMES_DIR
from generator.model.loader import load_model, load_models, placeholders, standard_values


@pytest.fixture
def games_dir(tmp_path: Path) -> Path:
    """Copies of Tonk's and Bunco's models, to be broken one way at a time."""
    for game in ("tonk", "bunco"):
        (tmp_path / game).mkdir()
        shutil.copy(GAMES_DIR / game / "model.yaml", tmp_path / game / "model.yaml")
    return tmp_path


def _edit(games_dir: Path, game: str, old: str, new: str) -> int:
    """Replace `old` (once) in the game's model; returns the line it starts on."""
    path = games_dir / game / "model.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= 1, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[:text.index(old)].count("\n") + 1


def _problems(games_dir: Path, game: str = "tonk") -> list[str]:
    with pytest.raises(InputError) as err:
        load_model(game, games_dir)
    return [str(p) for p in err.value.problems]


def test_a_model_loads_with_its_source_lines(games_dir):
    loaded = load_model("tonk", games_dir)
    assert loaded.path == games_dir / "tonk/model.yaml"
    assert loaded.model.game == "tonk" and loaded.model.rules["hand_size"] == 5
    assert loaded.model.examples and all(e.id in loaded.model.examples_by_id for e in loaded.model.examples)
    values = standard_values(loaded.model)
    assert values["hand_size"] == 5 and values["deck_size"] == 52 and values["max_players"] == 3


def test_an_unknown_key_is_named_at_its_line(games_dir):
    line = _edit(games_dir, "tonk", "author: rulesheets\n", "author: rulesheets\nauthour: typo\n") + 1
    assert _problems(games_dir) == [f"{games_dir}/tonk/model.yaml:{line}: unknown key 'authour'"]


def test_a_placeholder_no_value_has(games_dir):
    line = _edit(games_dir, "tonk", "name: Tonk\n", "name: Tonk for {max_player} players\n")
    assert _problems(games_dir) == [f"{games_dir}/tonk/model.yaml:{line}: unknown placeholder '{{max_player}}': "
                                    f"no rule, fact or computed value has that name"]


def test_a_rule_the_engine_refuses_points_at_the_rule(games_dir):
    line = _edit(games_dir, "tonk", "  hand_size: 5\n", "  hand_size: 0\n")
    problems = _problems(games_dir)
    assert len(problems) == 1 and problems[0].startswith(f"{games_dir}/tonk/model.yaml:{line}: rules.hand_size")


def test_a_rule_the_engine_does_not_have(games_dir):
    _edit(games_dir, "tonk", "  hand_size: 5\n", "  hand_size: 5\n  hand_sizes: 5\n")
    problems = _problems(games_dir)
    assert len(problems) == 1 and "unknown rule 'hand_sizes' (rules of tonk: tonk_totals, hand_size" in problems[0]


def test_a_condition_naming_nothing_known(games_dir):
    text = (games_dir / "tonk/model.yaml").read_text(encoding="utf-8")
    first_section = text.index("sections:\n")
    id_line = text.index("  - id:", first_section)
    line = text[:id_line].count("\n") + 2
    end = text.index("\n", id_line) + 1
    (games_dir / "tonk/model.yaml").write_text(text[:end] + "    when: dealer_wins\n" + text[end:], encoding="utf-8")
    assert _problems(games_dir) == [f"{games_dir}/tonk/model.yaml:{line}: when: unknown name 'dealer_wins'"]


def test_a_condition_that_is_not_an_expression(games_dir):
    text = (games_dir / "tonk/model.yaml").read_text(encoding="utf-8")
    id_line = text.index("  - id:", text.index("sections:\n"))
    end = text.index("\n", id_line) + 1
    (games_dir / "tonk/model.yaml").write_text(text[:end] + "    when: open('x')\n" + text[end:], encoding="utf-8")
    problems = _problems(games_dir)
    assert len(problems) == 1 and problems[0].endswith("when: 'open('x')': call is not allowed in an expression")


def test_the_file_must_be_for_its_game(games_dir):
    line = _edit(games_dir, "tonk", "game: tonk\n", "game: bunco\n")
    problems = _problems(games_dir)
    assert problems[0] == f"{games_dir}/tonk/model.yaml:{line}: game is 'bunco' but the file is for 'tonk'"


def test_not_a_mapping(games_dir):
    (games_dir / "tonk/model.yaml").write_text("- just\n- a list\n", encoding="utf-8")
    assert _problems(games_dir) == [f"{games_dir}/tonk/model.yaml:1: a rule model must be a mapping of keys"]


def test_every_game_is_checked_before_failing_once(games_dir):
    tonk_line = _edit(games_dir, "tonk", "author: rulesheets\n", "author: rulesheets\ncolour: red\n") + 1
    bunco_line = _edit(games_dir, "bunco", "\nname:", "\nnam:") + 1
    root_line = _edit(games_dir, "bunco", "game: bunco", "game: bunco")
    with pytest.raises(InputError) as err:
        load_models(("tonk", "bunco"), games_dir)
    assert [str(p) for p in err.value.problems] == [
        f"{games_dir}/tonk/model.yaml:{tonk_line}: unknown key 'colour'",
        f"{games_dir}/bunco/model.yaml:{root_line}: missing key 'name'",  # the mapping it is missing from
        f"{games_dir}/bunco/model.yaml:{bunco_line}: unknown key 'nam'",
    ]


def test_placeholders():
    assert placeholders("Pay {stake:money} to {winner}, {n} times; {{not one}}") >= {
        ("stake", "money"), ("winner", None), ("n", None)}
    assert placeholders("no placeholders here") == set()
