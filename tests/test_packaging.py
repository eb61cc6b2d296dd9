"""The wheel: built without warnings, installed into a fresh venv, used from a folder that is not a checkout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT, copy_sources



@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel `python -m build` makes (through the sdist) from a copy of the sources."""
    src = copy_sources(tmp_path_factory.mktemp("src"))
    dist = tmp_path_factory.mktemp("dist")
    # Byte-compiling is the environment's choice; with it switched off setuptools says so with a warning.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    r = subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(src)], env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    warnings = [line for line in (r.stdout + r.stderr).splitlines()
                if "warn" in line.lower() and "Location 'file:" not in line]  # pip's note on this machine's index
    assert not warnings, "\n".join(warnings)
    (found,) = dist.glob("*.whl")
    return found


def test_wheel_carries_games_templates_and_locales(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ("generator/games/bunco/model.yaml", "generator/games/bunco/templates/tally-sheet.html.j2",
                 "generator/games/tonk/templates/examples.html.j2",
                 "generator/templates/rulebook.html.j2", "generator/templates/css/base.css",
                 "generator/templates/site/style.css.j2", "generator/locales/common.pot",
                 "generator/locales/ko/locale.toml", "generator/locales/fr/LC_MESSAGES/bunco.po"):
        assert name in names, name
    # The developer tools (bench, peer, fidelity) are not shipped.
    assert not [n for n in names if n.startswith("generator/dev/")]
    locales = {n.split("/")[2] for n in names if n.startswith("generator/locales/") and n.endswith("/locale.toml")}
    assert locales == {p.parent.name for p in (ROOT / "locales").glob("*/locale.toml")}


def test_installed_wheel_builds_from_any_folder(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    r = subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], capture_output=True, text=True,
                       timeout=900)
    assert r.returncode == 0, r.stderr
    work = tmp_path / "somewhere"
    work.mkdir()
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(tmp_path / "xdg-cache"))
    exe = str(env_dir / "bin" / "rulesheets")

    def cli(*args):
        return subprocess.run([exe, *args], cwd=work, env=env, capture_output=True, text=True, timeout=600)

    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert cli("--version").stdout == f"rulesheets {version}\n"
    site_packages = next((env_dir / "lib").glob("python3*/site-packages"))
    before = {p for p in site_packages.rglob("*") if "__pycache__" not in p.parts}
    r = cli("build", "--games", "bunco", "--locales", "ko", "--kinds", "tally-sheet", "--papers", "a4", "--formats", "pdf")
    assert r.returncode == 0, r.stderr
    entries = json.loads((work / "output" / "manifest.json").read_text(encoding="utf-8"))
    assert [e["path"] for e in entries] == ["ko/bunco/tally-sheet-a4.pdf"]
    assert (work / "output/ko/bunco/tally-sheet-a4.pdf").read_bytes().startswith(b"%PDF")
    assert (tmp_path / "xdg-cache/rulesheets/pdf").is_dir()  # the cache went to the user's cache folder
    # Nothing was written into the installed package (generator/output/ is the output layer's code).
    after = {p for p in site_packages.rglob("*") if "__pycache__" not in p.parts}
    assert sorted(map(str, after - before)) == []
    # The output and nothing else: its lock file is in the cache, never among the user's folders.
    assert sorted(p.name for p in work.iterdir()) == ["output"]
    assert len(list((tmp_path / "xdg-cache/rulesheets/locks").glob("*.lock"))) == 1

    r = cli("i18n", "status")
    assert r.returncode == 0, r.stderr
    assert "ko       complete  bunco" in r.stdout
    r = cli("i18n", "update")  # catalogs are edited in a checkout, never in site-packages
    assert r.returncode == 2
    assert r.stderr.startswith("rulesheets: command line: i18n update writes into a project checkout; ")
    assert len(r.stderr.splitlines()) == 1

    # A host's evening in a fresh folder: a kit first, then a build, with no --out anywhere (issue 32).
    host = tmp_path / "host"
    host.mkdir()

    def host_cli(*args):
        return subprocess.run([exe, *args], cwd=host, env=env, capture_output=True, text=True, timeout=600)

    r = host_cli("kit", "tonk", "--players", "Rina,Sam,Tariq", "--locale", "ko", "--paper", "a4")
    assert r.returncode == 0, r.stderr
    r = host_cli("build", "--games", "tonk", "--locales", "ko", "--kinds", "payout-sheet", "--formats", "html")
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in (host / "output/kit").iterdir()) == [".rulesheets-kit", "tonk-ko-a4.pdf", "tonk-ko.html"]
    assert sorted(p.name for p in host.iterdir()) == ["output"]
    assert not (home.exists() and list(home.rglob("*.lock")))  # no lock beside the user's folders

    # The user's cache folder unusable (XDG_CACHE_HOME is a regular file): one warning, and the build goes on
    # (cut fonts and locks go to a per-user folder in the system's temp), with nothing left in site-packages.
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("x", encoding="utf-8")
    env["XDG_CACHE_HOME"] = str(blocked)
    r = cli("build", "--games", "bunco", "--locales", "ko", "--kinds", "tally-sheet", "--papers", "a4",
            "--formats", "pdf", "--out", str(tmp_path / "no-cache"))
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert [line for line in r.stderr.splitlines() if line.startswith("rulesheets: warning: ")], r.stderr
    assert (tmp_path / "no-cache/ko/bunco/tally-sheet-a4.pdf").read_bytes().startswith(b"%PDF")
    assert blocked.read_text(encoding="utf-8") == "x"
    assert sorted(map(str, {p for p in site_packages.rglob("*") if "__pycache__" not in p.parts} - before)) == []


def test_what_python_m_build_writes_is_ignored_by_git():
    """The README's `python -m build` writes dist/ (and build/): neither is offered to `git add` (issue 44)."""
    paths = ["dist/rulesheets-1.0-py3-none-any.whl", "dist/rulesheets-1.0.tar.gz", "build/lib/generator/cli.py"]
    r = subprocess.run(["git", "check-ignore", "--no-index", *paths], cwd=ROOT, capture_output=True, text=True)
    assert r.stdout.split() == paths, r.stderr
