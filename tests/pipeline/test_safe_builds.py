"""Builds are incremental, deterministic, atomic and locked down (issue 7)."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from babel.messages.pofile import read_po, write_po

from generator.render.pdf import RenderError, html_to_pdf

from tests.conftest import copy_project, manifest, run_cli

SMALL = ("build", "--games", "bunco", "--locales", "en", "fr", "--papers", "a4")


def _tree(out: Path) -> dict[str, str]:
    return {str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("url", ["file:///etc/passwd", "../../../../etc/hosts", "http://example.com/x.css",
                                 "https://example.com/font.woff2"])
@pytest.mark.parametrize("tag", ['<img src="{}">', '<link rel="stylesheet" href="{}">'])
def test_fetcher_refuses_outside_resources(url, tag):
    html = f"<!DOCTYPE html><html lang=en><head>{tag.format(url) if 'link' in tag else ''}</head>" \
           f"<body><p>x</p>{tag.format(url) if 'img' in tag else ''}</body></html>"
    with pytest.raises(RenderError, match="refused to load"):
        html_to_pdf(html, "a4", "test.pdf")


def test_template_with_forbidden_url_fails_build_and_keeps_output(project):
    assert run_cli(project, *SMALL, "--formats", "html").returncode == 0
    before = _tree(project / "output")
    base = project / "templates/base.html.j2"
    base.write_text(base.read_text().replace("</head>", '<link rel="stylesheet" href="file:///etc/passwd">\n</head>'))
    r = run_cli(project, *SMALL)
    assert r.returncode == 1
    assert "refused to load file:///etc/passwd: documents may only use the project's own files" in r.stderr
    assert "Traceback" not in r.stderr
    assert _tree(project / "output") == before


def set_translation(po: Path, msgid: str, msgstr: str) -> None:
    """Change one entry of a catalog the way a .po editor would."""
    with po.open("rb") as fh:
        catalog = read_po(fh)
    # Only an entry the catalog has: a string that moved to another catalog must not make a test pass vacuously.
    assert msgid in catalog, f"{po.name} has no entry {msgid!r}"
    catalog[msgid].string = msgstr
    catalog[msgid].flags.discard("fuzzy")
    with po.open("wb") as fh:
        write_po(fh, catalog, width=100)


def test_link_in_translation_is_refused(project):
    set_translation(project / "locales/fr/LC_MESSAGES/bunco.po", "Pens for everyone.", "Voir [ici](https://example.com/).")
    r = run_cli(project, "build", "--games", "bunco", "--locales", "fr", "--formats", "html")
    assert r.returncode == 2
    assert r.stderr.strip() == ("locales/fr/LC_MESSAGES/bunco.po: link to 'https://example.com/' in "
                                "'Pens for everyone.': rule prose may only link inside the document")


def test_two_builds_in_different_folders_are_byte_identical(tmp_path):
    a, b = copy_project(tmp_path / "a"), copy_project(tmp_path / "b")
    assert run_cli(a, *SMALL).returncode == 0
    time.sleep(1.1)  # a different second, in case anything stamps the time
    assert run_cli(b, *SMALL).returncode == 0
    assert (a / "output/manifest.json").read_bytes() == (b / "output/manifest.json").read_bytes()
    assert _tree(a / "output") == _tree(b / "output")


def test_noop_and_incremental_rebuild(project):
    r = run_cli(project, *SMALL)
    assert r.returncode == 0, r.stderr
    r = run_cli(project, *SMALL)
    assert r.returncode == 0 and r.stdout.startswith("nothing changed:"), r.stdout
    set_translation(project / "locales/fr/LC_MESSAGES/bunco.po", "Pens for everyone.",
                    "Un stylo pour chacun, et un de rechange.")
    r = run_cli(project, *SMALL)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("built 1 PDFs, reused"), r.stdout  # only the French rulebook (A4)
    entries = {e["path"]: e for e in manifest(project / "output")}
    assert "Un stylo pour chacun" in (project / "output/fr/bunco/rulebook.html").read_text(encoding="utf-8")
    assert entries["fr/bunco/rulebook-a4.pdf"]["pages"] >= 1


#: Libraries and modules a build that finds nothing changed has no use for.
HEAVY = ("pydantic", "babel", "jinja2", "markdown_it", "yaml", "weasyprint", "fontTools",
         "generator.model.loader", "generator.i18n.translate", "generator.edition.editions", "generator.render")


def _build_listing_heavy_modules(project, *args) -> tuple[str, list[str]]:
    """Run a build in a fresh process; its stdout, and which of HEAVY it had loaded at the end."""
    code = ("import sys; from generator import cli; code = cli.main(sys.argv[2:]); "
            "print(sorted(set(sys.modules) & set(sys.argv[1].split(','))), code)")
    r = subprocess.run([sys.executable, "-c", code, ",".join(HEAVY), *args], cwd=project,
                       env={**os.environ, "PYTHONPATH": str(project)}, capture_output=True, text=True, check=True)
    return r.stdout, r.stdout.splitlines()[-1]


def test_noop_loads_no_model_catalog_template_or_renderer(project):
    """A build that finds nothing changed hashes its inputs and stops: none of the heavy libraries load."""
    small = (*SMALL, "--formats", "html")
    assert run_cli(project, *small).returncode == 0
    stdout, loaded = _build_listing_heavy_modules(project, *small)
    assert stdout.startswith("nothing changed:"), stdout
    assert loaded == "[] 0"
    # A real change still loads everything and builds.
    set_translation(project / "locales/fr/LC_MESSAGES/bunco.po", "Pens for everyone.", "Un stylo pour chacun.")
    stdout, loaded = _build_listing_heavy_modules(project, *small)
    assert stdout.startswith("built 0 PDFs"), stdout
    assert "'babel'" in loaded and "'jinja2'" in loaded


def test_failure_mid_build_leaves_previous_output(project):
    assert run_cli(project, *SMALL).returncode == 0
    before = _tree(project / "output")
    # A character no installed font has: the French scorepad fails after other PDFs rendered.
    set_translation(project / "locales/fr/LC_MESSAGES/bunco.po", "Bunco scorepad", "Bloc \U0001FAE8")
    r = run_cli(project, *SMALL, "--jobs", "1")
    assert r.returncode == 1
    assert "no font has a glyph for" in r.stderr and "Traceback" not in r.stderr
    assert _tree(project / "output") == before


def test_sigkill_mid_build_leaves_previous_output(project):
    assert run_cli(project, *SMALL, "--formats", "html").returncode == 0
    before = _tree(project / "output")
    env = {**os.environ, "PYTHONPATH": str(project)}
    proc = subprocess.Popen([sys.executable, "-m", "generator.cli", *SMALL, "--jobs", "1"], cwd=project, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    assert proc.stderr.readline().startswith(b"[1/")  # the first PDF is done, the rest are not
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert _tree(project / "output") == before
    # The next build cleans up after the killed one and succeeds.
    assert run_cli(project, *SMALL).returncode == 0
    assert not list(project.glob(".output.*-*"))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_build_leaves_nothing_in_the_temporary_folder(project, tmp_path, jobs):
    """WeasyPrint writes @font-face fonts (the Korean cuts) to a temporary folder: every process removes its own."""
    temp = tmp_path / "temp"
    temp.mkdir()
    env = {**os.environ, "PYTHONPATH": str(project), "TMPDIR": str(temp)}
    args = ("build", "--games", "bunco", "--locales", "ko", "--kinds", "tally-sheet", "quick-reference",
            "--formats", "pdf", "--jobs", jobs)
    r = subprocess.run([sys.executable, "-m", "generator.cli", *args], cwd=project, env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert len(manifest(project / "output")) == 4
    assert sorted(p.name for p in temp.iterdir()) == []
