"""WeasyPrint loaded without starting 54 programs: the one speed patch left (README.md: the table).

`weasyprint.text.ffi` tries several names for each C library (Linux, macOS and Windows spellings),
and cffi answers every name it cannot open directly with `ctypes.util.find_library`, which on Linux
runs `ldconfig -p`, then gcc, then ld, for each one: 54 programs started (measured by
tests/patches/test_speedups.py) and about half a second before the first document can be drawn, in every
process that renders. `quick_library_lookup()` keeps find_library to its first step (the linker
cache, exactly as ctypes reads it) while WeasyPrint loads; the libraries found are the same ones
(the name WeasyPrint lists as `libpango-1.0.so.0` is opened directly either way).

Five more fixes were measured with generator/dev/patchgain.py and removed, as none saved 3 % of a
cold build (README.md): tinyhtml5's pattern cache, pydyf serialising each object once, cffi array
types made without its C parser, the layout context held weakly, and computed styles answering
undeclared properties first.
"""

from __future__ import annotations

import re
from contextlib import contextmanager


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
