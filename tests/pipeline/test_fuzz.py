"""Property-based fuzzing of inputs: every mutation of a model or catalog ends in a build or a one-line error."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from tests.conftest import examples
from hypothesis import strategies as st

from generator import PROJECT_DIR
from generator.pipeline.build import Options, prepare, render_html
from generator.core.errors import RulesheetsError

MODEL = (PROJECT_DIR / "generator/games/bunco/model.yaml").read_text(encoding="utf-8")
CATALOG = (PROJECT_DIR / "locales/fr/LC_MESSAGES/bunco.po").read_text(encoding="utf-8")
NOISE = st.lists(st.sampled_from(list("{}[]:-#'\"$\\ \t\nabcZ019é한ক॥\ufffd") +
                                 ["{rounds_per_set}", "{nope}", "$bunco_points", "$nope", "msgid ", "msgstr ", "  - "]),
                 max_size=6).map("".join)


@st.composite
def mutated(draw, text: str) -> str:
    """A line of the text deleted, duplicated, cut short, re-indented or spliced with noise."""
    lines = text.splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["delete", "duplicate", "truncate", "indent", "splice"]))
        if how == "delete":
            del lines[i]
        elif how == "duplicate":
            lines.insert(i, lines[i])
        elif how == "truncate":
            lines[i] = lines[i][: draw(st.integers(0, max(0, len(lines[i]) - 1)))] + "\n"
        elif how == "indent":
            lines[i] = " " * draw(st.integers(0, 6)) + lines[i].lstrip(" ")
        else:
            at = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:at] + draw(NOISE) + lines[i][at:]
        if not lines:
            break
    return "".join(lines)


def _outcome(opts: Options) -> None:
    """Build in memory; a user's mistake must be a RulesheetsError of one-line problems with a place."""
    try:
        render_html(prepare(opts), opts)
    except RulesheetsError as exc:
        assert exc.problems
        for problem in exc.problems:
            line = str(problem)
            assert "\n" not in line and ": " in line, line
            assert "Traceback" not in line


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("fuzz")
    shutil.copytree(PROJECT_DIR / "generator/games", root / "games")
    shutil.copytree(PROJECT_DIR / "locales", root / "locales")
    return root


FUZZ = settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.mark.hypothesis
@FUZZ
@given(text=mutated(MODEL))
def test_mutated_model(sandbox, text):
    (sandbox / "games/bunco/model.yaml").write_text(text, encoding="utf-8")
    _outcome(Options(games=("bunco",), locales=("en",), formats=("html",), games_dir=sandbox / "games"))


@pytest.mark.hypothesis
@FUZZ
@given(text=mutated(CATALOG))
def test_mutated_catalog(sandbox, text):
    (sandbox / "games/bunco/model.yaml").write_text(MODEL, encoding="utf-8")
    (sandbox / "locales/fr/LC_MESSAGES/bunco.po").write_text(text, encoding="utf-8")
    _outcome(Options(games=("bunco",), locales=("fr",), formats=("html",), games_dir=sandbox / "games",
                     locales_dir=sandbox / "locales"))
