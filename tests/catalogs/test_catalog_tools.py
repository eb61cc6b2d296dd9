"""Honest catalog tools: current .pot files, a stable `i18n update`, `--strict` naming each .po entry, status that fails."""

from __future__ import annotations

from pathlib import Path

from generator.catalogs.maintain import pot_bytes, pot_path, templates
from generator.i18n.translate import discover_locales, read_catalog

from tests.conftest import run_cli


def test_committed_pot_files_are_current():
    """CI check: the .pot files say what the models and templates say (run `rulesheets i18n update`)."""
    stale = [domain for domain, data in pot_bytes(templates()).items() if pot_path(domain).read_bytes() != data]
    assert not stale, f"stale .pot files: {stale}; run rulesheets i18n update and commit the catalogs"


def _snapshot(locales: Path) -> dict[str, bytes]:
    return {str(p.relative_to(locales)): p.read_bytes() for p in sorted(locales.rglob("*.po*"))}


def _entries(locales: Path) -> dict[str, list]:
    """Every catalog's entries in file order: what a translator sees, whatever the line wrapping."""
    return {str(p.relative_to(locales)): [(m.id, m.string, sorted(m.flags)) for m in read_catalog(p, p.parent.parent.name)]
            for p in sorted(locales.glob("*/LC_MESSAGES/*.po"))}


def test_update_keeps_entries_and_a_second_run_changes_nothing(project):
    locales = project / "locales"
    before = _entries(locales)
    r = run_cli(project, "i18n", "update")
    assert r.returncode == 0, r.stderr
    assert _entries(locales) == before  # nothing reordered, added, dropped or changed
    first = _snapshot(locales)
    r = run_cli(project, "i18n", "update")
    assert r.returncode == 0, r.stderr
    assert _snapshot(locales) == first


def test_strict_names_each_entry_with_its_line_and_whole_msgid(project):
    po = project / "locales/fr/LC_MESSAGES/bunco.po"
    catalog = read_catalog(po, "fr")
    # A long msgid (the report used to cut it at 60 characters), wrapped over several lines in the file.
    long = next(m for m in catalog if isinstance(m.id, str) and len(m.id) > 100 and "{" not in m.id)
    short = catalog.get("Pens for everyone.")
    lines = po.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[short.lineno] == 'msgstr "Des stylos pour tout le monde."\n'
    lines[short.lineno] = 'msgstr ""\n'
    lines.insert(long.lineno - 1, "#, fuzzy\n")
    po.write_text("".join(lines), encoding="utf-8")
    shift = 1 if long.lineno < short.lineno else 0
    r = run_cli(project, "build", "--strict", "--games", "bunco", "--locales", "fr", "--formats", "html")
    assert r.returncode == 1
    escaped = long.id.replace("\\", "\\\\").replace('"', '\\"')
    assert sorted(r.stderr.splitlines()) == sorted([
        f'locales/fr/LC_MESSAGES/bunco.po:{short.lineno + shift}: missing translation: msgid "Pens for everyone."',
        f'locales/fr/LC_MESSAGES/bunco.po:{long.lineno + 1}: fuzzy translation: msgid "{escaped}"',
    ])


def test_status_fails_without_catalogs(project):
    for po in (project / "locales").glob("*/LC_MESSAGES/*.po"):
        po.unlink()
    r = run_cli(project, "i18n", "status")
    assert r.returncode == 2
    every = ", ".join(discover_locales(project / "locales"))
    assert r.stderr == f"locales: no catalogs (locales/<lang>/LC_MESSAGES/*.po) for {every}; run rulesheets i18n update\n"


# -- the standard PO tools (issue 32) ----------------------------------------------------------------

import re
import shutil
import subprocess
import sys

import pytest

from generator.core.paths import PROJECT_DIR
from generator.i18n.translate import spelled_out

CATALOGS = sorted((PROJECT_DIR / "locales").glob("*/LC_MESSAGES/*.po"))
#: translate-toolkit's checks that apply to every language here: the integrity of what a program
#: reads (placeholders, markup, escapes, plural forms, whitespace at the ends, URLs). Left out, and
#: why (docs/TRANSLATING.md): startcaps, simplecaps (Devanagari, Bengali and Hangul have no case);
#: endpunc, startpunc, puncspacing, doublequoting, singlequoting (each language's own punctuation:
#: the danda, French spaces before ':' and '«»', an English possessive apostrophe; test_typography
#: checks it); sentencecount, brackets, short, long, unchanged, numbers, doublewords, acronyms (a
#: translator's free choices: "Page" is French too, Bengali and Nepali write native digits, Bengali
#: doubles words, "US Letter" is transliterated); untranslated, isfuzzy (completeness is
#: `rulesheets i18n status --strict`); spellcheck, validchars, musttranslatewords, notranslatewords
#: (need per-language word lists the project does not keep).
POFILTER_CHECKS = ("blank", "compendiumconflicts", "doublespacing", "emails", "endwhitespace", "escapes",
                   "filepaths", "functions", "kdecomments", "newlines", "nplurals", "options", "printf",
                   "purepunc", "pythonbraceformat", "startwhitespace", "tabs", "urls", "variables", "xmltags")


def test_msgfmt_check_passes_on_every_catalog(tmp_path):
    """GNU msgfmt -c --check-format: no error and no warning (a header field left at its placeholder warns)."""
    if shutil.which("msgfmt") is None:
        pytest.fail("msgfmt is missing: install gettext (scripts/setup.sh --test does)")
    assert CATALOGS
    for po in CATALOGS:
        r = subprocess.run(["msgfmt", "-c", "--check-format", "-o", str(tmp_path / "out.mo"), str(po)],
                           capture_output=True, text=True)
        assert (r.returncode, r.stderr) == (0, ""), f"{po.relative_to(PROJECT_DIR)}:\n{r.stderr}"


def test_pofilter_checks_pass_on_every_catalog(tmp_path):
    """translate-toolkit's pofilter, with the checks that apply; a spelled-out number is the one exception."""
    try:
        import translate.filters.pofilter  # noqa: F401
    except ImportError:
        pytest.fail("translate-toolkit is not installed: pip install -e '.[test]'")
    checks = [arg for name in POFILTER_CHECKS for arg in ("-t", name)]
    r = subprocess.run([sys.executable, "-m", "translate.filters.pofilter", "--progress=none", "--nofuzzy", *checks,
                        str(PROJECT_DIR / "locales"), str(tmp_path / "out")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    failures = []
    for po in sorted((tmp_path / "out").rglob("*.po")):
        locale = po.relative_to(tmp_path / "out").parts[0]
        for msg in read_catalog(po, locale):
            found = [c[len("(pofilter) "):] for c in msg.user_comments if c.startswith("(pofilter) ")]
            # The translator spelled the number out (as TRANSLATING.md asks) and said so in a comment;
            # the entry says no-python-brace-format, and the project's own check holds every other placeholder.
            if spelled_out(msg) and "no-python-brace-format" in msg.flags:
                names = set(spelled_out(msg))
                found = [f for f in found if not (f.startswith("pythonbraceformat: Named placeholders absent")
                                                  and set(re.findall(r"\{(\w+)\}", f)) <= names)]
            failures += [f"{po.relative_to(tmp_path / 'out')}: {msg.id!r}: {f}" for f in found]
    assert not failures, "\n".join(failures)


def test_spelled_out_numbers_are_not_checked_as_brace_formats():
    """The flag is set by `i18n update` from the translator's comment, on every such entry and no other.

    Read from the file as written (Babel adds python-brace-format to any msgid with a placeholder when it reads).
    """
    seen = 0
    for po in CATALOGS:
        for block in po.read_text(encoding="utf-8").split("\n\n"):
            flags = next((line[3:].split(", ") for line in block.splitlines() if line.startswith("#, ")), [])
            if "# spelled out: " in block and "{" in block:
                seen += 1
                assert "no-python-brace-format" in flags and "python-brace-format" not in flags, (po, block)
            else:
                assert "no-python-brace-format" not in flags, (po, block)
    assert seen >= 9 * 4  # the nine of each of fr, hi, bn and ne that msgfmt used to reject


#: Short or ambiguous UI strings (docs/TRANSLATING.md): each carries a msgctxt wherever it is used.
AMBIGUOUS = ("Table", "Hand", "Hands", "won", "Won", "wins", "leads", "knocks", "goes out", "Page", "Sheet",
             "How many", "Round", "Call", "Deal", "Score", "Total", "Tricks", "Print", "Search", "Cards", "Run",
             "Flush", "Pair")


def test_short_strings_have_a_context_and_keep_their_translations():
    """In every catalog (common and each game's own), wherever the string is used."""
    pots = {p.stem: read_catalog(p, "en") for p in sorted((PROJECT_DIR / "locales").glob("*.pot"))}
    for text in AMBIGUOUS:
        entries = [m for pot in pots.values() for m in pot if m.id == text]
        assert entries and all(m.context for m in entries), (text, [m.context for m in entries])
    hands = {m.context for pot in pots.values() for m in pot if m.id == "Hand"}
    assert len(hands) == 2  # the cards a player holds, and the kind of hand (a category)
    for code in ("fr", "hi", "bn", "ne"):
        for domain, pot in pots.items():
            cat = read_catalog(PROJECT_DIR / "locales" / code / "LC_MESSAGES" / f"{domain}.po", code)
            for m in pot:
                if m.id in AMBIGUOUS:
                    entry = cat.get(m.id, m.context)
                    assert entry is not None and entry.string and not entry.fuzzy, (code, domain, m.id, m.context)


def test_update_moves_a_translation_into_a_new_context(project):
    """A catalog from before the msgctxt: `i18n update` keeps its translation, not fuzzy, under the context."""
    po = project / "locales/fr/LC_MESSAGES/bunco.po"  # the scorepad's column
    text = po.read_text(encoding="utf-8")
    old = re.sub(r'msgctxt "column: the table number"\n(msgid "Table"\n)', r"\1", text)
    assert old != text
    po.write_text(old, encoding="utf-8")
    r = run_cli(project, "i18n", "update")
    assert r.returncode == 0, r.stderr
    entry = read_catalog(po, "fr").get("Table", "column: the table number")
    assert entry is not None and entry.string == "Table" and not entry.fuzzy
    assert read_catalog(po, "fr").get("Table") is None  # the entry without a context is gone
    assert po.read_text(encoding="utf-8") == text


def test_fuzzy_entries_keep_the_previous_msgid(project):
    template = project / "templates/site/game.html.j2"
    source = template.read_text(encoding="utf-8")
    assert '_("All printable sheets")' in source
    template.write_text(source.replace('_("All printable sheets")', '_("All the printable sheets")'), encoding="utf-8")
    r = run_cli(project, "i18n", "update")
    assert r.returncode == 0, r.stderr
    po = project / "locales/fr/LC_MESSAGES/common.po"
    entry = read_catalog(po, "fr").get("All the printable sheets")
    assert entry.fuzzy and entry.previous_id == ["All printable sheets"]
    assert entry.string == "Toutes les feuilles à imprimer"
    text = po.read_text(encoding="utf-8")
    assert '#, fuzzy\n#| msgid "All printable sheets"\nmsgid "All the printable sheets"\n' in text
    # A second update reads the #| line back (Babel alone would turn it into a "# |" comment and lose it).
    r = run_cli(project, "i18n", "update")
    assert r.returncode == 0, r.stderr
    assert po.read_text(encoding="utf-8") == text


def test_references_name_the_line_of_the_string():
    """Every reference to a template or Python source points at the line that holds the string."""
    wrong = []
    for pot in sorted((PROJECT_DIR / "locales").glob("*.pot")):
        for msg in read_catalog(pot, "en"):
            if not msg.id:
                continue
            text = msg.id if isinstance(msg.id, str) else msg.id[0]
            for path, line in msg.locations:
                if not path.endswith((".py", ".j2")):
                    continue
                lines = (PROJECT_DIR / path).read_text(encoding="utf-8").splitlines()
                # The string starts on the reference's line; a long literal may go on over the next ones.
                here = " ".join(lines[line - 1:line + 3]) if 0 < line <= len(lines) else ""
                head = text[:24].replace('"', '\\"') if path.endswith(".py") else text[:24]
                if head not in here and text[:24] not in here:
                    wrong.append(f"{path}:{line}: {text[:40]!r}")
    assert not wrong, "\n".join(wrong)


def test_every_catalog_has_a_complete_header():
    for po in CATALOGS:
        code = po.parent.parent.name
        cat = read_catalog(po, code)
        headers = dict(cat.mime_headers)
        assert headers["Language"] == code
        assert headers["Content-Type"] == "text/plain; charset=utf-8"
        assert headers["Plural-Forms"] == cat.plural_forms and "nplurals=" in headers["Plural-Forms"]
        assert headers["Language-Team"] and "LL@li.org" not in headers["Language-Team"]
        assert "EMAIL@ADDRESS" not in po.read_text(encoding="utf-8").split("msgid", 2)[1]


def test_python_strings_skips_only_files_without_a_call():
    """The quick look for a keyword call never hides a string Babel's extractor would find, in any module."""
    from babel.messages.extract import extract_from_file

    from generator.catalogs.maintain import COMMON_KEYWORDS, PYTHON_KEYWORDS, python_strings

    sources = sorted((PROJECT_DIR / "generator").glob("**/*.py"))
    for keywords in (PYTHON_KEYWORDS, {"_": None, **COMMON_KEYWORDS}):
        found = {p: python_strings(p, keywords) for p in sources}
        assert found == {p: list(extract_from_file("python", str(p), keywords=keywords)) for p in sources}
        assert 0 < sum(1 for f in found.values() if f) < len(sources) // 3


@pytest.mark.parametrize("code, found", [("_('x')", True), ("_ (\n  # a comment\n  'x')", True),
                                         ("N_('x')", True), ("common_pgettext('c', 'x')", True),
                                         ("self._('x')", True), ("IN_('x')", False), ("_x('x')", False),
                                         ("name_ = 1", False)])
def test_python_strings_sees_every_way_to_write_a_call(tmp_path, code, found):
    from babel.messages.extract import extract_from_file

    from generator.catalogs.maintain import COMMON_KEYWORDS, python_strings

    path = tmp_path / "m.py"
    path.write_text(code + "\n", encoding="utf-8")
    keywords = {"_": None, "N_": None, **COMMON_KEYWORDS}
    assert bool(python_strings(path, keywords)) == found
    assert python_strings(path, keywords) == list(extract_from_file("python", str(path), keywords=keywords))
