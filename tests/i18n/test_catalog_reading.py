"""Reading a .po file: a string without its closing quote is refused at its line, never read one character short (issue 44)."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.core.errors import InputError
from generator.i18n.translate import read_catalog

from tests.conftest import run_cli

HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: fr\\n"\n\n'

#: Entries that Babel reads without a word, each losing or mangling text; the line of the broken string.
BROKEN = {
    'msgid "Round"\nmsgstr "Manche\n': 7,
    'msgid "Round"\nmsgstr ""\n"Man"\n"che\n': 9,
    'msgid "Round\nmsgstr "Manche"\n': 6,
    'msgid "Round"\nmsgstr "Manche\\"\n': 7,  # the quote at the end is escaped: still open
    'msgid "Round"\nmsgstr "Manche" x\n': 7,  # text after the closing quote
    'msgctxt "table\nmsgid "Round"\nmsgstr "Manche"\n': 6,
    'msgid "{n} round"\nmsgid_plural "{n} rounds"\nmsgstr[0] "{n} manche"\nmsgstr[1] "{n} manches\n': 9,
}

#: Entries that are whole: read as written.
WHOLE = {
    'msgid "Round"\nmsgstr "Manche"\n': "Manche",
    'msgid "Round"\nmsgstr "Man\\\\"\n': "Man\\",  # an escaped backslash, then the closing quote
    'msgid "Round"\nmsgstr ""\n"Man"\n  "che"  \n': "Manche",
    'msgid "Round"\nmsgstr "« \\"Manche\\" »"\n# a "comment" with a quote\n': '« "Manche" »',
}


def _po(tmp_path: Path, entry: str) -> Path:
    po = tmp_path / "common.po"
    po.write_text(HEADER + entry, encoding="utf-8")
    return po


@pytest.mark.parametrize("entry", BROKEN)
def test_an_unterminated_string_is_refused_at_its_line(tmp_path, entry):
    po = _po(tmp_path, entry)
    with pytest.raises(InputError) as refusal:
        read_catalog(po, "fr")
    assert [(p.line, p.message) for p in refusal.value.problems] == [
        (BROKEN[entry], "cannot read catalog: a string without its closing quote")]


@pytest.mark.parametrize("entry", WHOLE)
def test_whole_strings_are_read_as_written(tmp_path, entry):
    assert read_catalog(_po(tmp_path, entry), "fr").get("Round").string == WHOLE[entry]


def test_check_refuses_the_catalog_in_one_line(project):
    """End to end: `check` (as build and serve, which read catalogs through the same reader) exits 2."""
    po = project / "locales/fr/LC_MESSAGES/bunco.po"
    lines = po.read_text(encoding="utf-8").split("\n")
    n = next(i for i, line in enumerate(lines) if line.startswith('msgstr "') and line != 'msgstr ""')
    lines[n] = lines[n][:-1]  # the closing quote gone: Babel read the text one character short
    po.write_text("\n".join(lines), encoding="utf-8")
    r = run_cli(project, "check", "--games", "bunco", "--locales", "fr")
    assert (r.returncode, r.stderr) == (
        2, f"locales/fr/LC_MESSAGES/bunco.po:{n + 1}: cannot read catalog: a string without its closing quote\n")
