"""Whatever the option values, house-rules TOML or model expression: exit 0, 1 or 2, never a traceback (issue 27)."""

from __future__ import annotations

import contextlib
import io

import pytest

from hypothesis import HealthCheck, given, settings

from tests.conftest import examples
from hypothesis import strategies as st

from generator import cli
from generator.core import expr
from generator.core.errors import InputError
from generator.model.houserules import read_house_rules

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
SETTINGS = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _run(argv: list[str]) -> tuple[int, str]:
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        try:
            code = cli.main(argv)
        except SystemExit as exc:  # argparse
            code = exc.code
    return code, err.getvalue()


@pytest.mark.hypothesis
@SETTINGS
@given(option=st.sampled_from(["--port", "--jobs", "--base-url", "--games", "--locales", "--formats", "--papers",
                               "--kinds", "--rule", "--sets", "--per-page", "--stake", "--currency", "--date"]),
       value=TEXT)
def test_option_values(tmp_path, option, value):
    # `check` never writes; the options it does not take are still parsed (exit 2), so every value is read.
    command = ["check"] if option in ("--games", "--locales", "--rule") else ["serve", "--out", str(tmp_path / "x" / "y")]
    if command[0] == "serve":  # stop before serving: an unknown game after the value makes it exit 2
        argv = [*command, option, value, "--games", "no-such-game"]
    else:
        argv = [*command, option, value]
    code, err = _run(argv)
    assert code in (0, 1, 2), (argv, code, err)
    assert "Traceback" not in err


TOML_PIECES = st.lists(st.sampled_from(["[bunco]\n", "[tonk]\n", "wipeout = ", "true", "1", "[", "]", "{", "}", "\"",
                                        "'", ",", "\n", "#", "x = ", "tonk_totals = ", "1e999", "-0", "\\u0000",
                                        "[[a]]\n", "= =", "nan", "inf"]), max_size=30).map("".join)


@pytest.mark.hypothesis
@SETTINGS
@given(text=TOML_PIECES)
def test_house_rules_toml(tmp_path, text):
    path = tmp_path / "rules.toml"
    path.write_text(text, encoding="utf-8")
    try:
        read_house_rules(path)
    except InputError as exc:
        assert len(exc.problems) == 1 and str(path) in str(exc)


EXPR_PIECES = st.lists(st.sampled_from(["rounds_per_set", "wipeout", "(", ")", "(0,)", "*", "//", "+", "-", "0", "5",
                                        "1000000", " in ", " and ", "not ", "[0]", "==", "**", "x", ",", "true"]),
                       min_size=1, max_size=14).map("".join)


@settings(max_examples=200, deadline=1000)
@given(text=EXPR_PIECES)
def test_model_expressions(text):
    try:
        expr.evaluate(text, {"rounds_per_set": 6, "wipeout": False})
    except expr.ExprError:
        pass
