"""The package's layers are a contract (pyproject.toml, [tool.importlinter]) that `lint-imports` checks.

The contract is run on the code as it is, and on temporary copies with one import planted that breaks
it (an upward import inside a function, a layer naming a game, one game importing another), so a
contract that silently checks nothing would fail here too.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

pytestmark = pytest.mark.skipif(not LINT_IMPORTS.exists(), reason="import-linter is in the test extras")


def _lint(root: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=root, env=env, capture_output=True, text=True)


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "generator", root / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    return root


def _plant(root: Path, module: str, line: str) -> None:
    path = root / (module.replace(".", "/") + ".py")
    path.write_text(path.read_text(encoding="utf-8") + "\n\n" + line + "\n", encoding="utf-8")


def test_the_code_keeps_every_contract():
    r = _lint(ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Contracts: 3 kept, 0 broken." in r.stdout


@pytest.mark.parametrize(("module", "line", "broken"), [
    # core reaching up into the renderer, hidden in a function body as the old registry did
    ("generator.core.expr", "def _up():\n    from generator.render import html  # noqa: F401",
     "Layers: each stage imports only the stages below it"),
    # the site (a layer above the games, so the layers allow it) naming one game instead of asking the registry
    ("generator.site.builder", "import generator.games.tonk.engine  # noqa: F401",
     "Games are plug-ins: nothing outside generator/games/ names a game's module"),
    ("generator.games.bunco.engine", "from generator.games.tonk import engine as _tonk  # noqa: F401",
     "Games do not import each other"),
])
def test_a_planted_import_breaks_the_contract(tmp_path, module, line, broken):
    root = _copy(tmp_path)
    assert _lint(root).returncode == 0  # the copy itself is clean
    _plant(root, module, line)
    r = _lint(root)
    assert r.returncode != 0
    assert f"{broken} BROKEN" in r.stdout
    assert "Contracts: 2 kept, 1 broken." in r.stdout
    assert module in r.stdout
