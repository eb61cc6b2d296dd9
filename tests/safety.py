"""Helpers for the safety tests: hash a whole tree, run the CLI from any folder, assert a clean refusal."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path


def tree(root: Path, skip: tuple[str, ...] = ()) -> dict[str, str]:
    """Every file, folder and symbolic link under root with its content hash (links by target)."""
    out = {}
    for dirpath, dirs, files in os.walk(root):
        rel_dir = Path(dirpath).relative_to(root)
        dirs[:] = sorted(d for d in dirs if str(rel_dir / d) not in skip)
        for name in sorted(dirs + files):
            path = Path(dirpath, name)
            rel = str(path.relative_to(root))
            if rel in skip:
                continue
            if path.is_symlink():
                out[rel] = "link:" + os.readlink(path)
            elif path.is_dir():
                out[rel] = "dir"
            else:
                out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def cli(project: Path, *args: str, cwd: Path | None = None, env: dict | None = None,
        timeout: int = 600, **popen) -> subprocess.CompletedProcess:
    """`rulesheets ARGS` with the project copy's own package, from `cwd` (default: the project)."""
    full_env = {**os.environ, "PYTHONPATH": str(project), **(env or {})}
    return subprocess.run([sys.executable, "-m", "generator.cli", *args], cwd=cwd or project, env=full_env,
                          capture_output=True, text=True, timeout=timeout, **popen)


def refused(project: Path, *args: str, code: int = 2, root: Path | None = None, **kwargs) -> str:
    """Run the CLI, expect exit `code` with exactly one line and no traceback, and nothing changed under root.

    The project's cache folder is left out: compiled templates may be cached before a render fails,
    and a cache entry is checked on every read (it is never output).
    """
    root = root or project.parent
    skip = (str((project / ".cache").relative_to(root)),) if (project / ".cache").is_relative_to(root) else ()
    before = tree(root, skip)
    r = cli(project, *args, **kwargs)
    assert r.returncode == code, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    assert tree(root, skip) == before
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def consistent(out: Path) -> dict[str, str]:
    """A complete output: its manifest lists files that exist with their sha256; returns the tree."""
    import json

    entries = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    for e in entries:
        assert hashlib.sha256((out / e["path"]).read_bytes()).hexdigest() == e["sha256"], e["path"]
    assert (out / ".rulesheets-state.json").is_file()
    return tree(out)
