"""A full disk and a read-only file system under --out (issue 27): one line, exit 2, nothing half-written,
the previous output as it was.

The tests run as root, for whom permission bits do not stop a write: the disks are real, a small tmpfs
mounted for each test (full: filled to the last block; read-only: mounted `ro`). Where mounting is not
allowed (no root, no CAP_SYS_ADMIN), they are skipped and say why.
"""

from __future__ import annotations

import contextlib
import hashlib
import subprocess
from pathlib import Path

import pytest

from tests.conftest import run_main

pytestmark = pytest.mark.full


@contextlib.contextmanager
def _mounted(point: Path, *options: str):
    """A tmpfs at `point` with these mount options, for as long as the block runs."""
    point.mkdir(parents=True, exist_ok=True)
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", ",".join(options), "tmpfs", str(point)], capture_output=True,
                       text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.strip()}")
    try:
        yield point
    finally:
        subprocess.run(["umount", "-l", str(point)], check=False)


@pytest.fixture
def disk(tmp_path):
    """A 4 MB file system of its own at tmp_path/disk; `_fill` uses up its free space."""
    with _mounted(tmp_path / "disk", "size=4m") as point:
        yield point


def _fill(point: Path) -> None:
    with open(point / "filler", "wb", buffering=0) as f:
        for size in (65536, 512, 1):  # big writes, then the last blocks
            try:
                while True:
                    f.write(b"\0" * size)
            except OSError:
                pass


def _tree(out: Path) -> dict[str, str]:
    return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file()}


def _one_line(r, *words: str) -> str:
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and all(w in lines[0] for w in words), r.stderr
    return lines[0]


BUILD = ("build", "--games", "bunco", "--locales", "en", "--formats", "html")


def test_a_build_onto_a_full_disk_keeps_the_previous_output(disk):
    out = disk / "out"
    r = run_main(*BUILD, "--out", str(out))
    assert r.returncode == 0, r.stderr
    before = _tree(out)
    _fill(disk)
    r = run_main(*BUILD, "--group", "Friday club", "--out", str(out))
    _one_line(r, f"--out {out}", "No space left on device", "the previous output is unchanged")
    assert _tree(out) == before
    assert sorted(p.name for p in disk.iterdir()) == ["filler", "out"]  # no .out.new-* left


def test_a_kit_onto_a_full_disk_leaves_no_part_of_a_pdf(disk):
    _fill(disk)
    r = run_main("kit", "bunco", "--players", "Asha,Ben,Chloé,Dev", "--out", str(disk / "kit"))
    _one_line(r, f"--out {disk / 'kit'}", "No space left on device")
    assert not any(p.is_file() for p in (disk / "kit").rglob("*"))  # no file at all, whole or part


def test_a_build_onto_a_read_only_file_system(tmp_path):
    with _mounted(tmp_path / "ro", "size=1m", "ro") as point:
        r = run_main(*BUILD, "--out", str(point / "out"))
        _one_line(r, f"--out {point / 'out'}", "Read-only file system")
        assert list(point.iterdir()) == []
