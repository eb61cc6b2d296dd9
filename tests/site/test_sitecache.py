"""The static site is taken from .cache/site when the inputs and PDFs of a build did not change."""

from __future__ import annotations

from pathlib import Path

from generator.core import cache
from generator.site import cache as sitecache

from tests.conftest import run_cli

# Only a full build (every game, locale and kind) makes the site; HTML alone keeps the test quick.
ARGS = ("build", "--formats", "html", "--jobs", "1")
MARK = b"<!-- served from the site cache -->\n"


def _site(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in (out / "site").rglob("*") if p.is_file()}


def test_unchanged_inputs_reuse_the_cached_site_and_a_changed_option_does_not(project):
    first = run_cli(project, *ARGS, "--out", str(project.parent / "a"))
    assert first.returncode == 0, first.stderr
    cached = list((project / ".cache" / "site").glob("*/files/site/en/tonk/index.html"))
    assert len(cached) == 1
    # Mark the cached copy: a build that shows the mark took its page from the cache.
    cache.write_checked(cached[0], cached[0].read_bytes() + MARK)

    second = run_cli(project, *ARGS, "--out", str(project.parent / "b"))
    assert second.returncode == 0, second.stderr
    a, b = _site(project.parent / "a"), _site(project.parent / "b")
    assert set(a) == set(b)
    assert b["site/en/tonk/index.html"] == a["site/en/tonk/index.html"] + MARK
    assert all(a[p] == b[p] for p in a if p != "site/en/tonk/index.html")

    third = run_cli(project, *ARGS, "--out", str(project.parent / "c"), "--base-url", "https://rules.example.com/")
    assert third.returncode == 0, third.stderr
    page = (project.parent / "c" / "site/en/tonk/index.html").read_bytes()
    assert MARK not in page and b"https://rules.example.com/" in page


def test_pdf_copies_are_referenced_not_stored(tmp_path):
    files = {"en/tonk/rulebook-a4.pdf": b"%PDF-1.7 rulebook", "en/tonk/rulebook.html": b"<html>"}
    site = {"site/en/tonk/index.html": b"<html>page", "site/en/tonk/rulebook-a4.pdf": b"%PDF-1.7 rulebook",
            "site/fonts/en.css": b"@font-face {}"}
    sitecache.put("k1", site, files, root=tmp_path)
    assert not list(tmp_path.rglob("*.pdf"))
    assert sitecache.get("k1", files, root=tmp_path) == site
    # The PDF comes from the build's files: a changed PDF would be a different key, but the copy is the build's.
    assert sitecache.get("k1", {**files, "en/tonk/rulebook-a4.pdf": b"%PDF-1.7 new"}, root=tmp_path)[
        "site/en/tonk/rulebook-a4.pdf"] == b"%PDF-1.7 new"
    assert sitecache.get("other", files, root=tmp_path) is None


def test_a_damaged_cached_site_is_made_again(tmp_path):
    site = {"site/en/index.html": b"<html>page"}
    sitecache.put("k", site, {}, root=tmp_path)
    page = next(tmp_path.glob("k/files/site/en/index.html"))
    page.write_bytes(b"<html>edited")
    assert sitecache.get("k", {}, root=tmp_path) is None
    assert not (tmp_path / "k").exists()
