"""The speed patch that loads WeasyPrint (generator/patches/speedups.py) changes nothing but time."""

from __future__ import annotations

import ctypes.util
import os
import subprocess
import sys
import textwrap

import pytest

from generator.patches import speedups

LOADED = textwrap.dedent("""
    import collections, subprocess, sys
    started = collections.Counter()
    popen = subprocess.Popen.__init__
    def counting(self, args, *a, **k):
        started[str(args[0])] += 1
        return popen(self, args, *a, **k)
    subprocess.Popen.__init__ = counting
    if sys.argv[1] == "quick":
        from generator.patches import speedups
        speedups.load_weasyprint()
    else:
        import weasyprint.text.ffi
    from weasyprint.text import ffi
    libraries = sorted({line.split()[-1] for line in open("/proc/self/maps")
                        if any(n in line for n in ("gobject", "pango", "harfbuzz", "fontconfig"))})
    print(sum(started.values()), ffi.harfbuzz_subset is not None, ffi.harfbuzz_vector is not None, *libraries)
""")


def _load(how: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", LOADED, how], capture_output=True, text=True, check=True).stdout
    return out.split()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the quick lookup is for Linux only")
def test_weasyprint_loads_the_same_libraries_with_far_fewer_programs_started():
    plain, quick = _load("plain"), _load("quick")
    assert quick[1:] == plain[1:]  # the same optional libraries found, the same files mapped
    assert any("libpango" in lib for lib in quick)
    assert int(quick[0]) <= 1 < int(plain[0])  # ldconfig once, against gcc and ld for every name
    print(f"programs started while loading WeasyPrint: {plain[0]} -> {quick[0]}")


@pytest.mark.parametrize("name", ["libgobject-2.0-0", "gobject-2.0", "pango-1.0", "harfbuzz", "harfbuzz-subset",
                                  "harfbuzz-vector", "fontconfig", "pangoft2-1.0", "c", "m"])
def test_linker_cache_answers_as_ctypes_first_step(name):
    if not hasattr(ctypes.util, "_findSoname_ldconfig"):
        pytest.skip("not glibc's ctypes")
    assert speedups._in_linker_cache(name) == ctypes.util._findSoname_ldconfig(name)


def test_lookup_is_restored_after_the_block():
    before = ctypes.util.find_library
    with speedups.quick_library_lookup():
        pass
    assert ctypes.util.find_library is before


def test_every_fix_is_written_for_the_installed_version():
    """Fails when a dependency moves on: check the fix against its new code, then update patches/versions.py."""
    from importlib.metadata import version

    from generator.patches.versions import PINNED

    assert {name: version(name) for name in PINNED} == PINNED


UNSUPPORTED = textwrap.dedent("""
    from generator.patches import versions
    versions.PINNED.update({name: "0" for name in versions.PINNED if name != "weasyprint"})
    from generator.patches import woff2pack
    from generator.render.pdf import html_to_pdf
    data, pages = html_to_pdf("<!DOCTYPE html><html lang=en><title>t</title><p>Dice 12", "a4", "t")
    data, pages = html_to_pdf("<!DOCTYPE html><html lang=en><title>t</title><p>Dice 12", "a4", "t")
    print(data[:5].decode(), pages, woff2pack.brotli_quality())
""")


@pytest.mark.render
def test_another_version_leaves_its_fix_out_and_still_renders():
    """pydyf and fontTools at other versions: one warning line (for two documents), the WOFF2 changes left
    out, and the PDF still made."""
    env = {k: v for k, v in os.environ.items() if k != "RULESHEETS_PATCH_VERSIONS_WARNED"}
    r = subprocess.run([sys.executable, "-c", UNSUPPORTED], capture_output=True, text=True, check=True, env=env)
    assert r.stdout.split() == ["%PDF-", "1", "11"]
    warnings = r.stderr.splitlines()
    assert warnings == ["rulesheets: warning: pydyf 0.13.0 (patches written for 0), fonttools 4.68.0 (patches "
                        "written for 0): their speed patches are left out (output unchanged, builds slower)"]
