"""Games are plug-ins: found by folder or through the `rulesheets.games` entry point, never named by the code."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tokenize
from pathlib import Path

import pytest

from tests.conftest import copy_sources

from generator.core.registry import GAMES, Game, Ref, game
from generator.core.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests/fixtures/coin_toss_game"
#: Layers below the games: they find games through the registry and never name one.
GAME_BLIND = ("core", "model", "i18n", "edition", "render", "fonts", "patches", "output", "site", "kit", "pipeline")
#: A game's id or one of its sheet kinds as a whole string, or a game's module as a name: an if-chain or import.
GAME_STRINGS = {"bunco", "tonk", "stop-the-bus", "call-break", "tally-sheet", "scorepad", "payout-sheet", "hand-ranking",
                "score-sheet"}
GAME_NAMES = {"bunco", "tonk", "stop_the_bus", "call_break"}


def test_builtin_games_are_the_folders_of_generator_games():
    folders = sorted(p.name for p in (ROOT / "generator/games").iterdir() if (p / "__init__.py").is_file())
    assert sorted(g.replace("-", "_") for g in GAMES if GAMES[g].package.startswith("generator.games.")) == folders
    for g in GAMES.values():
        assert isinstance(g, Game) and g.model_path.is_file(), g.id


def test_every_lazy_part_of_every_game_resolves():
    for g in GAMES.values():
        for sheet in g.sheets:
            assert callable(sheet.render.resolve() if isinstance(sheet.render, Ref) else sheet.render), sheet.kind
        for name, kind in g.example_kinds.items():
            assert name.startswith(g.id + "."), name
            assert kind.input_schema.model_fields is not None and callable(kind.run.resolve())
            macros = (g.templates_dir / "examples.html.j2").read_text(encoding="utf-8")
            assert f"{{% macro {kind.macro}(" in macros, (name, kind.macro)


def test_an_unknown_game_is_one_line():
    with pytest.raises(InputError) as err:
        game("chess")
    assert str(err.value) == f"command line: unknown game 'chess' (games: {', '.join(GAMES)})"


@pytest.mark.parametrize("layer", GAME_BLIND)
def test_layers_below_the_games_never_name_a_game(layer):
    """Code outside generator/games/ asks the registry; a game's name in it would be a new if-chain."""
    found = []
    for path in sorted((ROOT / "generator" / layer).rglob("*.py")):
        with path.open("rb") as f:
            for tok in tokenize.tokenize(f.readline):
                text = tok.string.lower()
                if (tok.type == tokenize.NAME and text in GAME_NAMES) or (
                        tok.type == tokenize.STRING and text.strip("\"'") in GAME_STRINGS):
                    found.append(f"{path.relative_to(ROOT)}:{tok.start[0]}: {tok.line.strip()}")
    assert not found, "\n".join(found)


def _fresh_venv(tmp: Path) -> Path:
    """A new virtual environment that borrows the test environment's installed libraries (no downloads)."""
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = subprocess.run([str(venv / "bin/python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    Path(site, "borrowed.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return venv


def test_a_game_installed_from_another_distribution_builds(tmp_path):
    """pip-install rulesheets and the Coin Toss fixture into a fresh venv; its rulebook and sheet build."""
    venv = _fresh_venv(tmp_path)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "PIP_NO_INPUT": "1"}
    env.pop("PYTHONPATH", None)
    # pip builds a local project in its own folder (build/, *.egg-info): install from copies, never the checkout.
    sources = tmp_path / "src"
    copy_sources(sources / "rulesheets")
    shutil.copytree(FIXTURE, sources / "coin-toss", ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    subprocess.run([str(venv / "bin/python"), "-m", "pip", "install", "-q", "--no-deps", str(sources / "rulesheets"),
                    str(sources / "coin-toss")], check=True, cwd=tmp_path, env=env, capture_output=True, timeout=600)
    listed = subprocess.run([str(venv / "bin/rulesheets"), "rules", "coin-toss"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=120)
    assert listed.returncode == 0, listed.stderr
    r = subprocess.run([str(venv / "bin/rulesheets"), "build", "--games", "coin-toss", "--locales", "en",
                        "--kinds", "rulebook", "toss-sheet", "--formats", "html", "--out", str(tmp_path / "out")],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    rulebook = (tmp_path / "out/en/coin-toss/rulebook.html").read_text(encoding="utf-8")
    # The worked example ran through the fixture's engine: HHT scores 2 heads at 1 point each.
    example = re.search(r'<figure class="example" id="ex-three-flips">(.*?)</figure>', rulebook, re.S).group(1)
    assert '<p class="flips">HHT</p>' in example and '<p class="result">2</p>' in example
    sheet = (tmp_path / "out/en/coin-toss/toss-sheet.html").read_text(encoding="utf-8")
    assert sheet.count('<th scope="row">') == 3  # one row per flip of the rules
    # Its strings are its own domain, translated by the catalog its package ships (French here), with
    # rulesheets' shared strings from rulesheets' common catalog; --strict: nothing left in English.
    fr = subprocess.run([str(venv / "bin/rulesheets"), "build", "--games", "coin-toss", "--locales", "fr", "--strict",
                         "--kinds", "rulebook", "toss-sheet", "--formats", "html", "--out", str(tmp_path / "out-fr")],
                        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert fr.returncode == 0, fr.stderr
    sheet = (tmp_path / "out-fr/fr/coin-toss/toss-sheet.html").read_text(encoding="utf-8")
    assert '<h1 class="sheet-title">Feuille de marque de Pile ou face</h1>' in sheet and 'class="untranslated"' not in sheet
    # Read with plain spaces: a short last word is tied to the one before it (U+00A0, render/ties.py).
    rulebook = (tmp_path / "out-fr/fr/coin-toss/rulebook.html").read_text(encoding="utf-8").replace("\u00a0", " ")
    assert "Lancez la pièce 3 fois" in rulebook, rulebook
    assert "Face, face, pile." in rulebook and 'class="untranslated"' not in rulebook
    # The game came through the entry point: rulesheets' own games folder knows nothing of it.
    assert not list((tmp_path / "venv/lib").glob("**/generator/games/coin_toss*"))
    bad = subprocess.run([str(venv / "bin/rulesheets"), "build", "--games", "coin-tos", "--out", str(tmp_path / "o2")],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "coin-tos" in bad.stderr
