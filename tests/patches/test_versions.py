"""The patches are tied to exact upstream versions (generator/patches/versions.py): another WeasyPrint is
refused in one line; another version of any other library leaves its speed patches out."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from generator.patches import versions

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str, tmp_path: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "RULESHEETS_PATCH_VERSIONS_WARNED"}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=tmp_path, env=env,
                          capture_output=True, text=True)


def test_every_pinned_library_is_pinned_exactly_in_pyproject():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8").lower()
    for name, version in versions.PINNED.items():
        assert f'"{name}=={version}"' in text, name


def test_the_build_refuses_another_weasyprint_in_one_line(tmp_path):
    r = _run(f"""
        import sys, weasyprint
        weasyprint.__version__ = "71.0"
        from generator.cli import main
        sys.exit(main(["build", "--games", "bunco", "--locales", "en", "--kinds", "tally-sheet",
                       "--out", {str(tmp_path / "out")!r}]))
    """, tmp_path)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.splitlines()) == 1
    assert r.stderr.startswith("rulesheets: generator/patches/actualtext.py patches WeasyPrint 70.0's text drawing, "
                               "but WeasyPrint 71.0 is installed: install weasyprint==70.0")
    assert not (tmp_path / "out").exists()


def test_an_html_only_build_does_not_need_the_pdf_patches(tmp_path):
    r = _run(f"""
        import sys, weasyprint
        weasyprint.__version__ = "71.0"
        from generator.cli import main
        sys.exit(main(["build", "--games", "bunco", "--locales", "en", "--kinds", "tally-sheet", "--formats", "html",
                       "--out", {str(tmp_path / "out")!r}]))
    """, tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "out/en/bunco/tally-sheet.html").is_file()


def test_other_libraries_warn_once_and_the_warning_is_not_repeated_by_workers(tmp_path, monkeypatch):
    monkeypatch.delenv("RULESHEETS_PATCH_VERSIONS_WARNED", raising=False)
    monkeypatch.setitem(versions.PINNED, "pydyf", "0.1")
    monkeypatch.setitem(versions.PINNED, "fonttools", "0.2")
    assert versions.others_unsupported() == ["pydyf 0.13.0 (patches written for 0.1)",
                                             "fonttools 4.68.0 (patches written for 0.2)"]
    versions.check()  # WeasyPrint is the pinned one: no refusal
    assert os.environ["RULESHEETS_PATCH_VERSIONS_WARNED"] == "1"  # what a worker started now inherits


def test_another_weasyprint_raises_the_one_line_error(monkeypatch):
    import weasyprint

    monkeypatch.setattr(weasyprint, "__version__", "69.1")
    with pytest.raises(versions.UnsupportedVersion) as err:
        versions.check()
    assert err.value.exit_code == 2 and "\n" not in str(err.value) and "WeasyPrint 69.1 is installed" in str(err.value)


def test_woff2_packing_with_another_fonttools_is_fonttools_own(monkeypatch):
    """Both WOFF2 changes are left out: the bytes are those of fontTools' writer at its own quality."""
    import io

    from fontTools.ttLib import TTFont

    from generator.fonts import choice, subset
    from generator.patches import woff2pack

    cut = subset.cut(choice.find_font("DejaVu Sans"), frozenset("Bunco tally sheet 0123456789"))
    patched = woff2pack.pack(cut, subset.FIXED_TIMESTAMP)
    assert woff2pack.brotli_quality() == woff2pack.BROTLI_QUALITY
    monkeypatch.setitem(versions.PINNED, "fonttools", "0")
    assert woff2pack.brotli_quality() == woff2pack.FONTTOOLS_QUALITY
    plain = woff2pack.pack(cut, subset.FIXED_TIMESTAMP)
    with TTFont(io.BytesIO(cut), recalcTimestamp=False) as tt:
        tt["head"].modified = subset.FIXED_TIMESTAMP
        tt.flavor = "woff2"
        own = io.BytesIO()
        tt.save(own)
    assert plain == own.getvalue() and plain != patched


def test_a_speed_patch_can_be_left_out_for_a_measurement(tmp_path):
    r = _run("""
        import os, subprocess
        os.environ["RULESHEETS_SKIP_PATCHES"] = "library-lookup,woff2-brotli"
        from generator import patches
        print(" ".join(patches.apply()))
        from generator.patches import woff2pack
        print(woff2pack.brotli_quality())
    """, tmp_path)
    applied, quality = r.stdout.splitlines()[:2]
    assert applied.split() == ["actualtext", "pdftags"] and quality == "11"
