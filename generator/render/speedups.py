"""Fixes to the speed of WeasyPrint's own stack that change no output byte.

tinyhtml5 (the HTML parser WeasyPrint uses) keeps compiled regular expressions for
`HTMLUnicodeInputStream.chars_until` in a module dict, but its chained assignment
`characters = characters_until_regex[(characters, opposite)] = regex` rebinds `characters` to the
regex before the key is made, so each entry is stored under the regex itself and the lookup, made
with the character set, never hits: every call builds the pattern's text again (a 52-letter set
for each attribute name) and asks `re` for it. That was a tenth of the time of a Tonk rulebook.
A dict that makes a missing entry itself, under the right key, is put in its place: the lookup then
always succeeds and the faulty line is never reached. The patterns are the ones tinyhtml5 builds.

`install()` is idempotent and tied to tinyhtml5 2.1.0, whose code this mirrors: another version
fails loudly at import, so the fix is looked at again (and dropped once the parser is fixed).
"""

from __future__ import annotations

import re
from importlib.metadata import version

SUPPORTED_TINYHTML5 = "2.1.0"
if version("tinyhtml5") != SUPPORTED_TINYHTML5:
    raise ImportError(
        f"generator.render.speedups fixes tinyhtml5 {SUPPORTED_TINYHTML5}'s chars_until cache, but tinyhtml5 "
        f"{version('tinyhtml5')} is installed: check tinyhtml5/inputstream.py against this module, then update it")

from tinyhtml5 import inputstream as _inputstream  # noqa: E402  (after the version guard on purpose)


class CharsUntilPatterns(dict):
    """`chars_until`'s patterns by (characters, opposite), each made on first use, as tinyhtml5 makes it."""

    def __missing__(self, key):
        characters, opposite = key
        regex = "".join(f"\\x{ord(character):02x}" for character in characters)
        if not opposite:
            regex = f"^{regex}"
        pattern = self[key] = re.compile(f"[{regex}]+")
        return pattern


def install() -> None:
    if not isinstance(_inputstream.characters_until_regex, CharsUntilPatterns):
        _inputstream.characters_until_regex = CharsUntilPatterns()
