"""Hostile text through every input channel (issue 44): control and bidi characters, U+2028/U+2029, lone
surrogates, NaN, infinities and huge numbers in command-line values, a --house-rules file, the project file,
a players file and a catalog. Whatever comes in: no traceback, an exit code of the README's (0 success,
1 a check failed, 2 bad input), and every error exactly one line that starts with where it is, with nothing
from the input that could break or reorder the terminal's line. (Search queries, the sixth channel, are typed
into the site in Chromium: tests/site/test_site.py, test_search_shows_any_query_as_typed.)

`make test` runs each property with a fifth of its examples (`examples(n)`); `make test-full` runs all of them.
"""

from __future__ import annotations

import json
import re
import shutil
import uuid
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from generator.cli import error_lines
from generator.core.errors import RulesheetsError

from tests.conftest import ROOT, examples, run_main

#: Characters that end a line, reorder text, hide or are no text at all.
SPECIAL = ["\x00", "\x07", "\t", "\n", "\r", "\x0b", "\x0c", "\x1b", "\x1c", "\x7f", "\x85", "\x9b", "\u00ad",
           "\u061c", "\u200b", "\u200d", "\u200e", "\u202a", "\u202e", "\u2066", "\u2069", "\u2028", "\u2029",
           "\ufeff", "\ud800", "\udce0", "\udfff"]
#: Numbers no option, rule or stake takes.
NUMBERS = ["nan", "NaN", "inf", "-inf", "+inf", "1e999", "-1e999", "-0", "4.0", "1e3", "0x10", "1_000", "9" * 25,
           "-" + "9" * 25, "9" * 5000]
PLAIN = ["a", "Z", "1", " ", ",", ".", "=", "-", "_", "/", '"', "'", "[", "]", "{", "}", "#", "$&", "`", "\\",
         "राम", "민준", "Chloé", "bunco", "true", "2"]


@st.composite
def hostile(draw) -> str:
    """Text with at least one special character or impossible number in it."""
    core = draw(st.sampled_from(SPECIAL + NUMBERS))
    before = draw(st.lists(st.sampled_from(PLAIN + SPECIAL), max_size=4))
    after = draw(st.lists(st.sampled_from(PLAIN + SPECIAL), max_size=4))
    return "".join(before) + core + "".join(after)


VALUES = st.one_of(st.sampled_from(NUMBERS), hostile())
SETTINGS = settings(max_examples=examples(100), deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

#: An error line says where, then what: `file:line: ...`, `--option: ...`, `rulesheets: command line: ...`.
_WHERE = re.compile(r".+?: .")
#: What must never reach the terminal raw: it ends the line or reorders it.
_RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _one_line_each(lines: list[str]) -> None:
    for line in lines:
        assert _WHERE.match(line), f"an error that does not say where: {line!r}"
        assert not _RAW.search(line), f"raw control, bidi or separator character in {line!r}"


def _assert_clean_exit(result, *, allowed=(0, 1, 2)) -> None:
    assert result.returncode in allowed, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.split("\n")
    assert lines[-1] == "", repr(result.stderr)  # each line ends with its newline, nothing after
    errors = [line for line in lines[:-1] if not line.startswith("rulesheets: note: ")]
    if result.returncode:
        assert errors, "a failure that says nothing"
    _one_line_each(errors)


def _bytes(text: str) -> bytes:
    """UTF-8, with lone surrogates as the bytes a broken file would hold (the reader must refuse them)."""
    return text.encode("utf-8", "surrogatepass")


def _fresh(tmp_path: Path) -> Path:
    folder = tmp_path / uuid.uuid4().hex[:8]
    folder.mkdir()
    return folder


#: A small build that makes one HTML sheet: cheap enough to run for each example when the value is accepted.
BUILD = ("build", "--games", "bunco", "--locales", "en", "--formats", "html", "--kinds", "quick-reference")

BUILD_OPTIONS = ["--group", "--site-name", "--base-url", "--stake", "--currency", "--date", "--sets", "--per-page",
                 "--copies", "--tables", "--kinds", "--papers", "--formats", "--jobs", "--games", "--locales", "--rule",
                 "--site-logo", "--house-rules", "--config"]


@pytest.mark.hypothesis
@SETTINGS
@given(option=st.sampled_from(BUILD_OPTIONS), value=VALUES, as_rule=st.booleans())
def test_command_line_values(tmp_path, option, value, as_rule):
    if option == "--rule" and as_rule:
        value = f"bunco.rounds_per_set={value}"
    out = _fresh(tmp_path) / "out"
    _assert_clean_exit(run_main(*BUILD, option, value, "--out", str(out)))


@pytest.mark.hypothesis
@SETTINGS
@given(command=st.sampled_from([("rules",), ("check", "--games"), ("check", "--locales"), ("kit",),
                                ("kit", "tonk", "--locale"), ("kit", "tonk", "--paper"), ("kit", "tonk", "--group")]),
       value=VALUES)
def test_values_of_the_other_commands(tmp_path, command, value):
    argv = [*command, value]
    if command[0] == "kit":  # players that pass, then a locale that does not: refused before anything is drawn
        argv += ["--players", "A,B"] + (["--locale", "zz"] if "--locale" not in command else [])
        argv += ["--out", str(_fresh(tmp_path) / "kit")]
    _assert_clean_exit(run_main(*argv))


def _toml_value(value: str, form: str) -> str:
    """The value as TOML: bare (a number, or a syntax error), a basic string with escapes, or a literal string."""
    if form == "bare":
        return value
    if form == "basic":
        return json.dumps(value, ensure_ascii=False)
    return f"'{value}'"


TOML_FORM = st.sampled_from(["bare", "basic", "literal"])
BUNCO_RULES = ["wipeout", "rounds_per_set", "target_points", "sets_per_evening", "nope"]


@pytest.mark.hypothesis
@SETTINGS
@given(name=st.sampled_from(BUNCO_RULES), value=VALUES, form=TOML_FORM, game=st.sampled_from(["bunco", "bunco", "chess"]))
def test_house_rules_files(tmp_path, name, value, form, game):
    path = _fresh(tmp_path) / "ours.toml"
    path.write_bytes(_bytes(f"# ours\n[{game}]\ntarget_points = 25\n{name} = {_toml_value(value, form)}\n"))
    _assert_clean_exit(run_main("check", "--games", "bunco", "--locales", "en", "--house-rules", str(path)))


PROJECT_KEYS = ["group", "site_name", "base_url", "stake", "currency", "games", "locales", "papers", "kinds",
                "house-rules.bunco.wipeout", "house-rules.bunco.rounds_per_set"]


@pytest.mark.hypothesis
@SETTINGS
@given(key=st.sampled_from(PROJECT_KEYS), value=VALUES, form=TOML_FORM)
def test_project_files(tmp_path, key, value, form):
    folder = _fresh(tmp_path)
    line = f"{key.rsplit('.', 1)[-1]} = {_toml_value(value, form)}\n"
    table = f"[{key.rsplit('.', 1)[0]}]\n" if "." in key else ""
    (folder / "rulesheets.toml").write_bytes(_bytes(f"# ours\n{table}{line}"))
    _assert_clean_exit(run_main(*BUILD, "--config", str(folder / "rulesheets.toml"), "--out", str(folder / "out")))


@pytest.mark.hypothesis
@SETTINGS
@given(names=st.lists(st.one_of(VALUES, st.sampled_from(["Asha", "Ben", "राम"])), min_size=1, max_size=5),
       separator=st.sampled_from(["\n", "\r\n", "\u2028", "\x85"]))
def test_players_files(tmp_path, names, separator):
    folder = _fresh(tmp_path)
    roster = folder / "players.txt"
    roster.write_bytes(_bytes(separator.join(names)))
    # Players that pass meet a locale that does not: the kit stops before anything is drawn.
    _assert_clean_exit(run_main("kit", "tonk", "--players", str(roster), "--locale", "zz", "--out", str(folder / "kit")),
                       allowed=(2,))


PO_HEADER = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: fr\\n"\n'
             '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n')


def _po_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") \
        .replace("\r", "\\r") + '"'


@pytest.mark.hypothesis
@SETTINGS
@given(value=VALUES, escaped=st.booleans(), placeholder=st.sampled_from(["", "{round}", "{manche}"]))
def test_catalogs(tmp_path, value, escaped, placeholder):
    """The reader every build, check and serve goes through. A translation written as a proper PO string is read
    back exactly, or refused; raw text (quotes, line breaks, surrogates) is refused in one line or read whole."""
    from generator.i18n.translate import load_translator

    locales = _fresh(tmp_path) / "locales"
    (locales / "fr/LC_MESSAGES").mkdir(parents=True)
    shutil.copy(ROOT / "locales/fr/locale.toml", locales / "fr/locale.toml")
    msgstr = f"Manche {placeholder}{value}"
    written = _po_string(msgstr) if escaped else f'"{msgstr}"'
    po = locales / "fr/LC_MESSAGES/common.po"
    po.write_bytes(_bytes(f'{PO_HEADER}msgid "Round {{round}}"\nmsgstr {written}\n'))
    try:
        translator = load_translator("fr", ("common",), locales_dir=locales)
    except RulesheetsError as exc:
        lines = error_lines(exc)
        assert lines and all(line.startswith(str(po)) for line in lines), lines
        _one_line_each(lines)
        return
    read = translator.catalogs["common"].get("Round {round}")
    if escaped and read is not None:
        assert read.string == msgstr  # nothing lost
