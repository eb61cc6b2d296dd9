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
