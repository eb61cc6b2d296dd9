"""cli.py only parses and dispatches to generator/commands/; every command's bad input is one line, exit 2."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from generator import cli
from generator.core import registry


def test_every_command_is_a_module_of_commands():
    assert set(cli.COMMANDS) == {"build", "serve", "kit", "rules", "check", "i18n", "init"}
    for name, module in cli.COMMANDS.items():
        assert module.__name__ == f"generator.commands.{name}"
        assert module.HELP and callable(module.add_arguments) and callable(module.run)


def test_parsing_a_command_imports_nothing_heavy():
    import subprocess
    import sys

    code = ("import sys; from generator import cli; cli.parser().parse_args(['build', '--games', 'tonk']); "
            "print(sorted(m for m in ('generator.pipeline.build', 'weasyprint', 'jinja2', 'babel') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@dataclass(frozen=True)
class _Rules:
    sides: int = 2


@pytest.fixture
def game_without_kit(monkeypatch):
    """The registry with one more game, Tonk's model and sheets under another id, and no kit."""
    games = dict(registry.GAMES._games)
    games["toss"] = replace(games["tonk"], id="toss", kit=None)
    monkeypatch.setitem(registry.GAMES.__dict__, "_games", games)
    return games


def test_a_game_without_a_kit_is_one_line(game_without_kit, tmp_path, capsys):
    code = cli.main(["kit", "toss", "--players", "Asha,Ben,Chloé,Dev", "--out", str(tmp_path / "kit")])
    err = capsys.readouterr().err
    with_kits = ", ".join(g for g, game in game_without_kit.items() if game.kit is not None)
    assert (code, err) == (2, f"kit: toss has no game-night kit (games with one: {with_kits})\n")
    assert not (tmp_path / "kit").exists()


def test_an_unknown_game_for_a_kit_is_one_line(tmp_path, capsys):
    code = cli.main(["kit", "chess", "--players", "Asha,Ben", "--out", str(tmp_path / "kit")])
    assert (code, capsys.readouterr().err) == (
        2, f"kit: unknown game 'chess' (known: {', '.join(registry.GAMES)})\n")


def test_i18n_with_a_stray_locale_is_one_line(capsys):
    assert cli.main(["i18n", "status", "fr"]) == 2
    assert capsys.readouterr().err == "rulesheets: command line: i18n status takes no LANG; use --locales fr\n"


def test_rules_of_one_game(capsys):
    assert cli.main(["rules", "tonk"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "tonk:" and out[1].startswith("  tonk.tonk_totals (default ")
    assert all(line.startswith("  tonk.") for line in out[1:])


@pytest.mark.parametrize("args, line", [
    (("--base-url", "https://x.org/\u2028a/"), "--base-url may hold only letters, digits and URL punctuation (no spaces, "
                                               "control characters, quotes, <, > or &), got 'https://x.org/\\u2028a/'"),
    (("--site-name", "Club\u2029Two"), "--site-name must be 1 to 60 characters on one line, got 'Club\\u2029Two'"),
    (("--site-name", "Club\nTwo"), "--site-name must be 1 to 60 characters on one line, got 'Club\\u000aTwo'"),
])
def test_line_and_paragraph_separators_stay_on_the_errors_line(tmp_path, args, line):
    """U+2028 and U+2029 end a line for Python's splitlines and for many terminals: split the error in two (issue 44)."""
    from tests.conftest import run_main

    r = run_main("build", "--games", "bunco", "--locales", "en", "--formats", "html", *args, "--out", str(tmp_path / "o"))
    assert (r.returncode, r.stderr) == (2, f"rulesheets: command line: {line}\n")


def test_every_problem_is_one_line_whatever_it_quotes():
    from generator.core.errors import InputError, Problem

    quoted = "a\nb\rc\u2028d\u2029e\x85f\x1cg\u202eh\udce0i"
    lines = cli.error_lines(InputError([Problem("x.po", 3, f"bad '{quoted}'"), Problem("--rule", None, quoted)]))
    assert lines == ["x.po:3: bad 'a\\u000ab\\u000dc\\u2028d\\u2029e\\u0085f\\u001cg\\u202eh\\udce0i'",
                     "--rule: a\\u000ab\\u000dc\\u2028d\\u2029e\\u0085f\\u001cg\\u202eh\\udce0i"]
