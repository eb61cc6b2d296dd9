"""Kit and build share one output folder: a build keeps output/kit/, no lock lands beside the user's folders (issue 32)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from generator.core import paths
from generator.output.folder import STATE_FILE, lock_path
from tests.safety import cli

BUILD = ("build", "--games", "tonk", "--kinds", "payout-sheet", "--formats", "html")
KIT = ("kit", "tonk", "--players", "Rina,Sam,Tariq", "--paper", "a4")


ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def host(tmp_path) -> Path:
    """A host's folder with a project file naming output/ there."""
    work = tmp_path / "evening"
    work.mkdir()
    (work / "rulesheets.toml").write_text('out = "output"\n', encoding="utf-8")
    return work


def _cli(host: Path, *argv: str):
    """`rulesheets ARGV` run from the host's folder (a process of its own, as a host runs it)."""
    return cli(ROOT, *argv, cwd=host)


def _run(host: Path, *argv: str) -> tuple[int, list[str]]:
    r = _cli(host, *argv)
    assert "Traceback" not in r.stderr
    return r.returncode, r.stderr.strip().splitlines()


def _kit_state(out: Path) -> dict[str, str]:
    return json.loads((out / STATE_FILE).read_text(encoding="utf-8"))["kit"]


def _hashes(folder: Path) -> dict[str, str]:
    return {f"kit/{p.name}": hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}


def test_kit_first_then_builds_keep_it(host):
    out = host / "output"
    assert _run(host, *KIT) == (0, [])
    kit = sorted(p.name for p in (out / "kit").iterdir())
    assert kit == [".rulesheets-kit", "tonk-en-a4.pdf", "tonk-en.html"]
    before = _hashes(out / "kit")
    # The first build accepts a folder that holds only a kit, and keeps the kit.
    assert _run(host, *BUILD, "--locales", "en") == (0, [])
    assert _hashes(out / "kit") == before
    assert _kit_state(out) == before  # recorded in the state file
    # A kit written into a built output is recorded at once, and makes no build necessary.
    assert _run(host, "kit", "stop-the-bus", "--players", "Rina,Sam,Tariq", "--paper", "a4") == (0, [])
    after = _hashes(out / "kit")
    assert _kit_state(out) == after and len(after) == 5
    r = _cli(host, *BUILD, "--locales", "en")
    assert r.returncode == 0 and r.stdout.startswith("nothing changed"), r.stdout + r.stderr
    # A build that replaces the output (another locale) keeps both kits.
    assert _run(host, *BUILD, "--locales", "fr") == (0, [])
    assert _hashes(out / "kit") == after and _kit_state(out) == after
    assert {e["path"] for e in json.loads((out / "manifest.json").read_text(encoding="utf-8"))} == {
        "en/tonk/payout-sheet.html", "fr/tonk/payout-sheet.html"}
    # Nothing but the project file and the output in the host's folder: the lock is in the cache.
    assert sorted(p.name for p in host.iterdir()) == ["output", "rulesheets.toml"]
    assert not list(out.rglob("*.lock"))
    assert lock_path(out).is_file() and lock_path(out).is_relative_to(paths.CACHE_DIR)


def test_a_kit_of_its_own_leaves_no_lock_beside_it(host):
    assert _run(host, *KIT, "--locale", "ko", "--out", "ko-tonk") == (0, [])
    assert sorted(p.name for p in host.iterdir()) == ["ko-tonk", "rulesheets.toml"]
    assert sorted(p.name for p in (host / "ko-tonk").iterdir()) == [".rulesheets-kit", "tonk-ko-a4.pdf", "tonk-ko.html"]


def test_a_lock_left_by_an_older_version_does_not_block_the_build(host):
    kit = host / "output" / "kit"
    kit.mkdir(parents=True)
    (kit / ".rulesheets-kit").write_text("rulesheets kit\n", encoding="utf-8")
    (kit / "bunco-hi-a4.pdf").write_bytes(b"%PDF-1.7 an earlier kit")
    (host / "output" / ".kit.lock").write_bytes(b"")
    assert _run(host, *BUILD, "--locales", "en") == (0, [])
    assert not (host / "output" / ".kit.lock").exists()
    assert (kit / "bunco-hi-a4.pdf").read_bytes() == b"%PDF-1.7 an earlier kit"


def test_a_folder_in_kit_is_named_not_dropped(host):
    assert _run(host, *BUILD, "--locales", "en") == (0, [])
    photos = host / "output" / "kit" / "photos"
    photos.mkdir(parents=True)
    (photos / "table.jpg").write_bytes(b"jpeg")
    state = (host / "output" / STATE_FILE).read_bytes()
    assert _run(host, *BUILD, "--locales", "fr") == (2, [
        "rulesheets: command line: --out output holds output/kit/photos, which is not a file a kit wrote (a folder, "
        "link or device); move it out of output/kit/ so the build can keep the kit"])
    assert (photos / "table.jpg").read_bytes() == b"jpeg"
    assert (host / "output" / STATE_FILE).read_bytes() == state


def test_a_kit_elsewhere_inside_an_output_is_refused(host):
    assert _run(host, *BUILD, "--locales", "en") == (0, [])
    assert _run(host, *KIT, "--out", "output/friday") == (2, [
        "rulesheets: command line: --out output/friday is inside a rulesheets output, which the next build "
        "replaces; use output/kit or a folder of its own"])
    assert not (host / "output" / "friday").exists()


def test_other_files_still_make_a_folder_no_output(host):
    (host / "output" / "kit").mkdir(parents=True)
    (host / "output" / "kit" / ".rulesheets-kit").write_text("rulesheets kit\n", encoding="utf-8")
    (host / "output" / "notes.md").write_text("mine\n", encoding="utf-8")
    assert _run(host, *BUILD, "--locales", "en") == (2, [
        "rulesheets: command line: --out output is not empty and holds no previous rulesheets output "
        "(no manifest.json and .rulesheets-state.json); choose a new or empty folder"])
