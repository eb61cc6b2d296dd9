"""Fixes to the speed of WeasyPrint's own stack that change no output byte.

Loading WeasyPrint: `weasyprint.text.ffi` tries several names for each C library (Linux, macOS and
Windows spellings), and cffi answers every name it cannot open directly with
`ctypes.util.find_library`, which on Linux runs `ldconfig -p`, then gcc, then ld, for each one:
54 programs started (measured by tests/test_speedups.py) and about half a second before the first document can be drawn, in every
process that renders. `quick_library_lookup()` keeps find_library to its first step (the linker
cache, exactly as ctypes reads it) while WeasyPrint loads; the libraries found are the same ones
(the name WeasyPrint lists as `libpango-1.0.so.0` is opened directly either way).

tinyhtml5 (the HTML parser WeasyPrint uses) keeps compiled regular expressions for
`HTMLUnicodeInputStream.chars_until` in a module dict, but its chained assignment
`characters = characters_until_regex[(characters, opposite)] = regex` rebinds `characters` to the
regex before the key is made, so each entry is stored under the regex itself and the lookup, made
with the character set, never hits: every call builds the pattern's text again (a 52-letter set
for each attribute name) and asks `re` for it. That was a tenth of the time of a Tonk rulebook.
A dict that makes a missing entry itself, under the right key, is put in its place: the lookup then
always succeeds and the faulty line is never reached. The patterns are the ones tinyhtml5 builds.

pydyf (WeasyPrint's PDF writer) serialises every object twice when the PDF has an identifier, as
ours all do: once to write it, and once more, inside `PDF.write`, to hash all the objects' bytes for
the second half of the /ID. Each content stream and font is compressed again (at zlib level 9) only
to give the same bytes. While a PDF is written, `written_once` keeps each numbered object's bytes
from the first time they are made and hands them out the second time: half as many compressions
(25 -> 13 for a Stop the Bus rulebook), 3 % fewer instructions for a rulebook, and the same file.
Objects are not changed between the two passes (the hash is taken after all of them are written),
which tests/test_speedups.py checks byte for byte.

Subsetting fonts: WeasyPrint hands HarfBuzz its glyph lists as `ffi.new(f'hb_codepoint_t[{n}]', ...)`,
a C type named by its length, so almost every font of every document names a type cffi has not seen,
and cffi runs its C parser (pycparser, pure Python) over the declaration: about 1.7 ms each time, 121
times for the 72 HTML artifacts (three fonts a document). `ArrayTypes` answers `NAME[N]` for an item
type cffi already knows with the array type cffi's backend makes for it (`new_array_type`, the very
object the parser would give: the backend keeps one object per type) in about a microsecond.

Two more fixes were measured and removed (generator/patches/README.md): the layout context held
weakly (WeasyPrint 70's `LayoutContext` keeps a reference cycle; render/pdf.py's one collection per
document already frees it) and computed styles answering undeclared properties first (about 1.6 %
of a cold build, under the 3 % a patch must gain).

`install()` is idempotent and called by `generator.patches.apply()` only. Each fix is tied to the
version whose code it mirrors (patches/versions.py): with another version installed that fix is left
out, so a user's renders are only slower, never wrong, and tests/test_speedups.py fails until the
fix is checked against the new code (and dropped once fixed upstream). Gains: README.md.
"""

from __future__ import annotations

import re
from contextlib import contextmanager

import pydyf
from tinyhtml5 import inputstream as _inputstream

from generator.patches.versions import PINNED, supported  # noqa: F401  (PINNED: the versions each fix mirrors)


class CharsUntilPatterns(dict):
    """`chars_until`'s patterns by (characters, opposite), each made on first use, as tinyhtml5 makes it."""

    def __missing__(self, key):
        characters, opposite = key
        regex = "".join(f"\\x{ord(character):02x}" for character in characters)
        if not opposite:
            regex = f"^{regex}"
        pattern = self[key] = re.compile(f"[{regex}]+")
        return pattern


#: While `PDF.write` runs: id(object) -> (its bytes, the object, kept so the id is not reused).
_written: dict[int, tuple[bytes, object]] | None = None


def _made_once(fget):
    """The `data` property `fget`, answered from `_written` for numbered (top-level) objects during a write."""

    def data(self):
        if _written is None or self.number is None:
            return fget(self)
        hit = _written.get(id(self))
        if hit is None:
            hit = _written[id(self)] = (fget(self), self)
        return hit[0]

    data._rulesheets_original = fget
    return property(data, doc=fget.__doc__)


def _write_once(write):
    def written_once(self, *args, **kwargs):
        global _written
        outer, _written = _written, {}
        try:
            return write(self, *args, **kwargs)
        finally:
            _written = outer

    written_once._rulesheets_original = write
    return written_once


#: The pydyf classes whose `data` is made again by `PDF.write` (WeasyPrint's own objects derive from them).
_SERIALISED = (pydyf.Dictionary, pydyf.Stream, pydyf.String, pydyf.Array)


class ArrayTypes(dict):
    """cffi's parsed types by declaration (`FFI._parsed_types`), where a missing `NAME[N]` is made without parsing.

    `FFI._typeof` looks a declaration up here first and parses it only on a KeyError; entries are
    (ctype, is_function_type), as cffi stores them. Any other declaration is left to the parser.
    """

    ARRAY = re.compile(r"([A-Za-z_]\w*)\[([0-9]+)\]")

    def __init__(self, ffi, parsed):
        super().__init__(parsed)
        self.ffi = ffi

    def __missing__(self, cdecl):
        found = self.ARRAY.fullmatch(cdecl) if isinstance(cdecl, str) else None
        if found is None:
            raise KeyError(cdecl)
        pointer = self.ffi._typeof(f"{found[1]} *")  # parsed once per item type
        result = self[cdecl] = (self.ffi._backend.new_array_type(pointer, int(found[2])), False)
        return result


def _chars_until() -> None:
    if not isinstance(_inputstream.characters_until_regex, CharsUntilPatterns):
        _inputstream.characters_until_regex = CharsUntilPatterns()


def _write_objects_once() -> None:
    if not hasattr(pydyf.PDF.write, "_rulesheets_original"):
        for cls in _SERIALISED:
            cls.data = _made_once(cls.__dict__["data"].fget)
        pydyf.PDF.write = _write_once(pydyf.PDF.write)


def _array_types() -> None:
    from weasyprint.text.ffi import ffi

    if not isinstance(ffi._parsed_types, ArrayTypes):
        ffi._parsed_types = ArrayTypes(ffi, ffi._parsed_types)


#: Each fix by its name in README.md's table: (the distribution whose code it mirrors, how it goes in).
FIXES = {
    "chars-until": ("tinyhtml5", _chars_until),
    "write-once": ("pydyf", _write_objects_once),
    "array-types": ("cffi", _array_types),
}


def install(skip: frozenset[str] = frozenset()) -> list[str]:
    """Put in every fix written for the installed version of its library, except those in `skip`
    (idempotent); returns the names of the fixes in place."""
    done = []
    for name, (distribution, put_in) in FIXES.items():
        if name not in skip and supported(distribution):
            put_in()
            done.append(name)
    return done


@contextmanager
def quick_library_lookup():
    """`ctypes.util.find_library` limited to the linker cache (ldconfig -p) inside the block, on Linux."""
    import ctypes.util
    import sys

    if not sys.platform.startswith("linux") or not hasattr(ctypes.util, "_findSoname_ldconfig"):
        yield
        return
    original = ctypes.util.find_library
    ctypes.util.find_library = _in_linker_cache
    try:
        yield
    finally:
        ctypes.util.find_library = original


def _linker_cache() -> bytes:
    """`ldconfig -p`, read once per process (ctypes reads it again for every name)."""
    global _LDCONFIG
    if _LDCONFIG is None:
        import subprocess

        try:
            _LDCONFIG = subprocess.run(["/sbin/ldconfig", "-p"], stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                       stdout=subprocess.PIPE, env={"LC_ALL": "C", "LANG": "C"}).stdout
        except OSError:
            _LDCONFIG = b""
    return _LDCONFIG


_LDCONFIG: bytes | None = None


def _in_linker_cache(name: str) -> str | None:
    """ctypes.util._findSoname_ldconfig (CPython 3.11), over the output read once."""
    import os
    import struct

    machine = os.uname().machine + ("-32" if struct.calcsize("l") == 4 else "-64")
    abi_type = {"x86_64-64": "libc6,x86-64", "ppc64-64": "libc6,64bit", "sparc64-64": "libc6,64bit",
                "s390x-64": "libc6,64bit", "ia64-64": "libc6,IA-64"}.get(machine, "libc6")
    found = re.search(os.fsencode(r"\s+(lib%s\.[^\s]+)\s+\(%s" % (re.escape(name), abi_type)), _linker_cache())
    return os.fsdecode(found.group(1)) if found else None


def load_weasyprint() -> None:
    """Import WeasyPrint's C bindings the quick way (see the module's docstring); later imports are free."""
    import sys

    if "weasyprint.text.ffi" in sys.modules:
        return
    with quick_library_lookup():
        import weasyprint.text.ffi  # noqa: F401
