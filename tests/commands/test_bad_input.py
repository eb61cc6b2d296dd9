"""Bad input: one line `path:line: problem`, exit 2, and the previous output left exactly as it was."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from generator.i18n.translate import discover_locales

from tests.conftest import copy_of_build, run_cli
from generator.core.registry import GAMES

#: The games the registry finds, as the one-line errors list them.
KNOWN_GAMES = ", ".join(sorted(GAMES))


def _snapshot(out: Path) -> dict[str, str]:
    return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.fixture
def built(tmp_path_factory, tmp_path) -> Path:
    """A project copy with a small previous output/ to protect (a copy of one shared build)."""
    return copy_of_build(tmp_path_factory, tmp_path / "proj", "--games", "bunco", "--locales", "en", "--formats", "html")


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _line_of(path: Path, needle: str) -> int:
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line:
            return n
    raise AssertionError(needle)


def _fails_cleanly(project: Path, *args: str, code: int = 2) -> str:
    before = _snapshot(project / "output")
    r = run_cli(project, "build", "--games", "bunco", "--locales", "en", "--formats", "html", *args)
    assert r.returncode == code, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    assert _snapshot(project / "output") == before
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


BUNCO = Path("generator/games/bunco/model.yaml")


def test_yaml_syntax_error(built):
    _edit(built / BUNCO, "usual_tables: 3", "usual_tables: [3")
    line = _fails_cleanly(built)
    assert line.startswith(f"{BUNCO}:")
    assert "YAML syntax error" in line


def test_unknown_key(built):
    _edit(built / BUNCO, "  - id: objective\n", "  - id: objective\n    colour: red\n")
    n = _line_of(built / BUNCO, "colour: red")
    assert _fails_cleanly(built) == f"{BUNCO}:{n}: unknown key 'colour'"


def test_wrong_type(built):
    _edit(built / BUNCO, "bunco_points: 21", "bunco_points: twenty-one")
    n = _line_of(built / BUNCO, "bunco_points: twenty")
    assert _fails_cleanly(built) == f"{BUNCO}:{n}: rules.bunco_points must be a whole number, 1 or more, got 'twenty-one'"


def test_unknown_placeholder_in_prose(built):
    _edit(built / BUNCO, "title: Setting up", "title: Setting up {table_count}")
    n = _line_of(built / BUNCO, "Setting up {table_count}")
    assert _fails_cleanly(built) == (
        f"{BUNCO}:{n}: unknown placeholder '{{table_count}}': no rule, fact or computed value has that name")


def test_example_refers_to_missing_fact(built):
    _edit(built / BUNCO, "expect: {points: $baby_bunco_points, baby_bunco: true, bunco: false}",
          "expect: {points: $tiny_bunco_points, baby_bunco: true, bunco: false}")
    n = _line_of(built / BUNCO, "$tiny_bunco_points")
    assert _fails_cleanly(built) == (
        f"{BUNCO}:{n}: example 'throw-baby' refers to 'tiny_bunco_points', which the model does not define")


def test_unknown_placeholder_in_translation(built):
    po = built / "locales/fr/LC_MESSAGES/common.po"
    po.parent.mkdir(parents=True, exist_ok=True)
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                  'msgid "Round {round}"\nmsgstr "Manche {manche}"\n', encoding="utf-8")
    before = _snapshot(built / "output")
    r = run_cli(built, "build", "--games", "bunco", "--locales", "fr", "--formats", "html")
    assert r.returncode == 2
    assert r.stderr.strip() == ("locales/fr/LC_MESSAGES/common.po:5: translation of 'Round {round}': "
                                "unknown placeholder {manche}; missing placeholder {round}")
    assert _snapshot(built / "output") == before


def test_unknown_locale(built):
    assert _fails_cleanly(built, "--locales", "xx") == (
        f"rulesheets: command line: unknown locale 'xx' (known: {', '.join(discover_locales())})")


def test_unknown_game(built):
    assert _fails_cleanly(built, "--games", "chess") == (
        f"rulesheets: command line: unknown game 'chess' (known: {KNOWN_GAMES})")


@pytest.mark.parametrize("args, message", [
    (("--sets", "0"), "--sets must be between 1 and 6, got 0"),
    (("--stake", "-1"), "--stake must be a positive amount with at most 2 decimals, got -1"),
    (("--per-page", "3"), "--per-page must be 1, 2 or 4, got 3"),
    (("--currency", "XYZ"), "unknown currency 'XYZ' (known: INR, NPR, BDT, KRW, EUR, USD)"),
])
def test_bad_sheet_options(built, args, message):
    assert _fails_cleanly(built, *args) == f"rulesheets: command line: {message}"


def test_out_inside_source_tree(built):
    assert _fails_cleanly(built, "--out", "generator/out") == (
        "rulesheets: command line: --out generator/out is inside the project, where only output/ may be used; "
        "choose another folder")


def test_example_mismatch_fails_check_and_build(built):
    _edit(built / BUNCO, 'expect: {points: "=2 * point_per_die", rolls_again: true}', "expect: {points: 3, rolls_again: true}")
    n = _line_of(built / BUNCO, "expect: {points: 3, rolls_again: true}")
    expected = f"{BUNCO}:{n}: example 'throw-two-hits': points is written as 3 but the engine computes 2"
    r = run_cli(built, "check", "--games", "bunco", "--locales", "en")
    assert (r.returncode, r.stderr.strip()) == (1, expected)
    assert _fails_cleanly(built, code=1) == expected


def test_broken_catalog_is_one_short_line(built):
    """Found by the fuzzer: Babel quotes a multi-line msgid in its error; we report one line."""
    po = built / "locales/fr/LC_MESSAGES/bunco.po"
    po.write_text('msgid ""\n"Project-Id-Version: x\\n"\n"Language: fr\\n"\n', encoding="utf-8")
    before = _snapshot(built / "output")
    r = run_cli(built, "build", "--games", "bunco", "--locales", "fr", "--formats", "html")
    assert r.returncode == 2
    assert r.stderr.strip() == ("locales/fr/LC_MESSAGES/bunco.po:1: cannot read catalog: missing msgstr for msgid "
                                "'Project-Id-Version: x Language: fr '")
    assert _snapshot(built / "output") == before
