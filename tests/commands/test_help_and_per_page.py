"""`--help` of every command: two examples, every option's valid values in full; `--per-page` never silently ignored (issue 32)."""

from __future__ import annotations

import argparse
import re
import shlex

import pytest

from generator.cli import main, parser
from generator.commands.checks import check_per_page
from generator.core.errors import InputError
from generator.core.paths import discover_locales
from generator.core.registry import GAMES
from generator.edition.sheets import CURRENCIES
from generator.pipeline.build import DEFAULT_KINDS, FORMATS, KINDS, PAPERS

COMMANDS = sorted(next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction)).choices)
#: Options whose valid values are a known list, and that list, read from the sources.
VALUES = {"--games": tuple(GAMES), "--locales": discover_locales(), "--kinds": tuple(KINDS), "--papers": PAPERS,
          "--formats": FORMATS, "--currency": CURRENCIES, "--paper": PAPERS, "--locale": discover_locales(),
          "game": tuple(GAMES)}


def _help(capsys, monkeypatch, *argv: str) -> str:
    monkeypatch.setenv("COLUMNS", "100")
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--help"])
    assert exit_.value.code == 0
    return capsys.readouterr().out


def _options(text: str) -> dict[str, str]:
    """Each option's (or positional's) help paragraph, by its first name, whitespace collapsed."""
    body = text.split("\nexamples:", 1)[0]
    found: dict[str, str] = {}
    for m in re.finditer(r"(?m)^  (-[-\w]+|[A-Za-z{][\w,{}-]*)(?:[ ,][^\n]*)?\n?((?:^ {6,}[^\n]*\n?)*)", body):
        found.setdefault(m.group(1), " ".join(m.group(0).split()))
    return found


def test_every_command_is_covered():
    assert {"build", "serve", "kit", "rules", "check", "i18n", "init"} <= set(COMMANDS)


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_shows_two_examples_that_parse(command, capsys, monkeypatch):
    text = _help(capsys, monkeypatch, *([command] if command else []))
    examples = text.split("\nexamples:\n", 1)[1].strip().splitlines()
    assert len(examples) == 2, examples
    for line in examples:
        argv = shlex.split(line)
        assert argv[0] == "rulesheets" and (command is None or argv[1] == command), line
        parser().parse_args(argv[1:])  # a usage error would exit 2


@pytest.mark.parametrize("command", COMMANDS)
def test_help_lists_every_options_values_in_full(command, capsys, monkeypatch):
    text = _help(capsys, monkeypatch, command)
    options = _options(text)
    sub = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction)).choices[command]
    for action in sub._actions:
        name = action.option_strings[-1] if action.option_strings else action.dest
        if name == "--help":
            continue
        key = name if action.option_strings else (action.metavar or name)
        if action.choices:  # choices with a help saying what each does
            key = "{" + ",".join(action.choices) + "}"
        paragraph = options.get(action.option_strings[0] if action.option_strings else key)
        assert paragraph and len(paragraph) > len(key) + 10, (command, name, paragraph)
        for value in VALUES.get(name, ()):
            assert re.search(rf"(?<![\w-]){re.escape(value)}(?![\w-])", paragraph), (command, name, value)
        if "..." in paragraph.replace("[GAME ...]", "").replace("[LANG ...]", "").replace("[KIND ...]", "") \
                .replace("[FMT ...]", "").replace("[PAPER ...]", "").replace('"A,B,..."', ""):
            pytest.fail(f"{command} {name}: a list cut short: {paragraph}")


# --- --per-page --------------------------------------------------------------------------------

def _err(capsys, *argv: str) -> tuple[int, list[str]]:
    code = main(list(argv))
    return code, capsys.readouterr().err.strip().splitlines()


def test_per_page_for_a_kind_that_has_none_is_an_error(capsys):
    assert _err(capsys, "build", "--kinds", "quick-reference", "--per-page", "2") == (2, [
        "rulesheets: command line: --per-page 2 applies only to tally-sheet (bunco), which this build does not make "
        "(--kinds quick-reference); leave --per-page out"])


def test_per_page_for_games_without_the_kind_is_an_error(capsys):
    assert _err(capsys, "build", "--games", "tonk", "call-break", "--per-page", "4") == (2, [
        "rulesheets: command line: --per-page 4 applies only to tally-sheet (bunco), which this build does not make "
        f"(--games tonk call-break --kinds {' '.join(DEFAULT_KINDS)}); leave --per-page out"])


def test_per_page_for_a_kit_without_tally_sheets_is_an_error(capsys, tmp_path):
    assert _err(capsys, "kit", "tonk", "--players", "A,B,C", "--per-page", "2", "--out", str(tmp_path / "k")) == (2, [
        "rulesheets: command line: --per-page 2 applies only to kits with tally-sheet (bunco); a tonk kit has none; "
        "leave --per-page out"])
    assert not (tmp_path / "k").exists()


@pytest.mark.parametrize("per_page", ["1", "3", "0", "-2"])
def test_a_kit_asks_for_2_or_4_at_once(capsys, tmp_path, per_page):
    """Issue 44: 3 was refused with "must be 1, 2 or 4", and then 1 with "a kit prints 2 or 4"."""
    assert _err(capsys, "kit", "bunco", "--players", "A,B,C,D", "--per-page", per_page, "--out", str(tmp_path / "k")) == (
        2, [f"rulesheets: command line: --per-page must be 2 or 4 in a kit, got {per_page}"])
    assert not (tmp_path / "k").exists()


@pytest.mark.parametrize("games, kinds", [(("bunco",), ("tally-sheet",)), (tuple(GAMES), tuple(KINDS)),
                                          (("bunco", "tonk"), ("payout-sheet", "tally-sheet"))])
def test_per_page_with_a_tally_sheet_is_accepted(games, kinds):
    check_per_page(games, kinds, 2)


def test_every_sheet_that_takes_per_page_says_which_values():
    takers = [s for g in GAMES.values() for s in g.sheets if s.per_page]
    assert takers and all(set(s.per_page) <= {1, 2, 4} for s in takers)
    with pytest.raises(InputError):
        check_per_page(("bunco",), ("scorepad",), 2)
