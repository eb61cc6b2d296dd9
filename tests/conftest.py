"""Shared fixtures: a throw-away copy of the project to break, and a way to run the CLI in it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator.dev.bench import copy_project

ROOT = Path(__file__).resolve().parent.parent


def run_cli(project: Path, *args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    """Run `rulesheets ARGS` against a project copy (its own generator package, templates, locales)."""
    env = {**os.environ, "PYTHONPATH": str(project)}
    return subprocess.run([sys.executable, "-m", "generator.cli", *args], cwd=project, env=env,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(tmp_path / "proj")


@pytest.fixture(scope="session")
def full_build(tmp_path_factory) -> Path:
    """One complete build of every artifact, shared by the tests that inspect output."""
    proj = copy_project(tmp_path_factory.mktemp("full") / "proj")
    result = run_cli(proj, "build")
    assert result.returncode == 0, result.stderr
    return proj / "output"


def manifest(out: Path) -> list[dict]:
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))
