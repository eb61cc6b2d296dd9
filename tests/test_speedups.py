"""The speed fixes to WeasyPrint's stack (generator/patches/speedups.py) change nothing but time."""

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


def test_parser_patterns_are_made_once_and_parse_the_same():
    """tinyhtml5's chars_until cache: a miss is made under the right key, and the tree is unchanged."""
    import tinyhtml5
    from tinyhtml5 import inputstream

    html = '<p class="a" lang="ko">주사위 &amp; <b>dice</b><!-- c --><img alt="x"></p>' * 20
    plain = tinyhtml5.parse(html)
    speedups.install()
    patterns = inputstream.characters_until_regex
    assert isinstance(patterns, speedups.CharsUntilPatterns)
    patched = tinyhtml5.parse(html)
    made = len(patterns)
    tinyhtml5.parse(html)
    assert len(patterns) == made  # the second parse finds every pattern it needs
    from xml.etree import ElementTree
    assert ElementTree.tostring(patched) == ElementTree.tostring(plain)


@pytest.mark.render
def test_pdf_objects_are_serialised_once_and_the_file_is_the_same(monkeypatch):
    """pydyf makes each object's bytes twice when the PDF has an identifier; with the fix, once, same file."""
    import collections

    import pydyf

    from generator.render.pdf import html_to_pdf

    die = ("data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20viewBox='0%200%2010%2010'%3E"
           "%3Crect%20width='10'%20height='10'/%3E%3C/svg%3E")
    html = ('<!DOCTYPE html><html lang="ko"><head><title>t</title></head><body><h1>주사위</h1>'
            '<table><tr><th>A</th><td>2 ♠</td></tr></table>' + f'<p><img src="{die}" alt="1"> 판돈</p>' * 40 +
            '</body></html>')
    html_to_pdf(html, "a4", "warm")  # installs the fixes
    original = pydyf.Stream.__dict__["data"].fget._rulesheets_original
    made = collections.Counter()

    def counted(stream):
        made[id(stream)] += 1
        return original(stream)

    monkeypatch.setattr(pydyf.Stream, "data", speedups._made_once(counted))
    fixed, _ = html_to_pdf(html, "a4", "t")
    once = sorted(made.values())
    made.clear()
    monkeypatch.setattr(pydyf.Stream, "data", property(counted))
    monkeypatch.setattr(pydyf.PDF, "write", pydyf.PDF.write._rulesheets_original)
    shipped, _ = html_to_pdf(html, "a4", "t")
    assert fixed == shipped
    assert len(once) >= 4 and set(once) == {1}  # content streams, fonts, the object and xref streams
    assert sorted(made.values()).count(2) >= len(once) - 1  # shipped: all but the xref stream made twice


def test_array_types_are_the_parsers_own_and_need_no_parsing(monkeypatch):
    """`NAME[N]` comes from cffi's backend, the same object the C parser gives, and pycparser is not run."""
    import cffi.cparser
    from hypothesis import given, settings, strategies as st

    speedups.load_weasyprint()
    speedups.install()
    from weasyprint.text.ffi import ffi

    assert isinstance(ffi._parsed_types, speedups.ArrayTypes)
    parser = cffi.FFI()
    parser.cdef("typedef uint32_t hb_codepoint_t;")
    parsed = []
    real_parse = cffi.cparser.Parser._parse

    def counting(self, csource):
        parsed.append(csource)
        return real_parse(self, csource)

    @settings(max_examples=60, deadline=None)
    @given(st.integers(min_value=0, max_value=200_000), st.sampled_from(["hb_codepoint_t", "int", "uint8_t"]))
    def same_type(n, item):
        declaration = f"{item}[{n}]"
        ffi.typeof(f"{item} *")  # the item type once, as WeasyPrint's first use of it does
        monkeypatch.setattr(cffi.cparser.Parser, "_parse", counting)
        made = ffi.typeof(declaration)
        monkeypatch.setattr(cffi.cparser.Parser, "_parse", real_parse)
        assert not parsed, parsed
        assert str(made) == str(parser.typeof(declaration)).replace("hb_codepoint_t", "uint32_t")
        assert made is ffi._backend.new_array_type(ffi.typeof(f"{item} *"), n)
        values = list(range(min(n, 50)))  # within uint8_t
        assert list(ffi.new(declaration, values))[:len(values)] == values

    same_type()
    with pytest.raises(KeyError):
        ffi._parsed_types["struct nothing"]  # anything else is still left to the parser


@pytest.mark.render
def test_fonts_subset_the_same_with_array_types(monkeypatch):
    """A document whose fonts are subset with the cached array types is the same file as with cffi's parser."""
    from generator.render.pdf import html_to_pdf

    html = ('<!DOCTYPE html><html lang="hi"><head><title>t</title></head><body><h1>पासा 주사위</h1>'
            '<p>Dice ♠ ♥ 12 345</p></body></html>')
    html_to_pdf(html, "a4", "warm")  # installs the fixes
    from weasyprint.text.ffi import ffi

    fixed, _ = html_to_pdf(html, "a4", "t")
    monkeypatch.setattr(ffi, "_parsed_types", dict(ffi._parsed_types))
    for key in [k for k in ffi._parsed_types if "[" in k]:
        del ffi._parsed_types[key]
    parsed, _ = html_to_pdf(html, "a4", "t")
    assert fixed == parsed


def test_every_fix_is_written_for_the_installed_version():
    """Fails when a dependency moves on: check the fix against its new code, then update patches/versions.py."""
    from importlib.metadata import version

    from generator.patches.versions import PINNED

    assert {name: version(name) for name in PINNED} == PINNED


UNSUPPORTED = textwrap.dedent("""
    from generator.patches import versions
    versions.PINNED.update({name: "0" for name in versions.PINNED if name != "weasyprint"})
    from generator.render.pdf import html_to_pdf
    data, pages = html_to_pdf("<!DOCTYPE html><html lang=en><title>t</title><p>Dice 12", "a4", "t")
    data, pages = html_to_pdf("<!DOCTYPE html><html lang=en><title>t</title><p>Dice 12", "a4", "t")
    import pydyf
    from tinyhtml5 import inputstream
    from weasyprint.text.ffi import ffi
    print(data[:5].decode(), pages, type(inputstream.characters_until_regex).__name__,
          hasattr(pydyf.PDF.write, "_rulesheets_original"), type(ffi._parsed_types).__name__)
""")


@pytest.mark.render
def test_another_version_leaves_its_fix_out_and_still_renders():
    """pydyf, tinyhtml5, cffi at other versions: their fixes are left out with one warning line (for two
    documents), and the PDF is still made."""
    env = {k: v for k, v in os.environ.items() if k != "RULESHEETS_PATCH_VERSIONS_WARNED"}
    r = subprocess.run([sys.executable, "-c", UNSUPPORTED], capture_output=True, text=True, check=True, env=env)
    assert r.stdout.split() == ["%PDF-", "1", "dict", "False", "dict"]
    warnings = r.stderr.splitlines()
    assert len(warnings) == 1 and warnings[0].startswith("rulesheets: warning: pydyf 0.13.0 (patches written for 0)")
    assert "cffi 2.1.1 (patches written for 0)" in warnings[0] and "output unchanged" in warnings[0]
