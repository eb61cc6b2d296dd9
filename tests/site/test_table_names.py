"""Each game names its own tables in the site's list of downloads (issue 38, item 6).

Bunco's tables are ranked (head / middle / low); a card game's tables are numbered. The downloads list used to
name every game's per-table sheets with Bunco's names. Every game with a per-table sheet, every locale, one to
four tables: the list names each table as the game's own sheet does (`Sheet.label_table`, what the sheet
itself prints). Cheap: no build, the macro is rendered from made-up manifest entries.
"""

from __future__ import annotations

import pytest

from generator.core.registry import GAMES
from generator.i18n.translate import discover_locales, load_translator
from generator.render.html import environment, locale_globals, table_label
from generator.site.builder import _downloads

LOCALES = sorted(discover_locales())
PER_TABLE = [(g.id, s.kind) for g in map(GAMES.__getitem__, GAMES) for s in g.sheets if s.per_table]


def test_some_game_has_per_table_sheets():
    assert {"bunco", "call-break"} <= {g for g, _ in PER_TABLE}


def _listed(code: str, game: str, kind: str, tables: int) -> list[str]:
    tr = load_translator(code, ("common", game))
    entries = [{"format": "pdf", "locale": code, "game": game, "kind": kind, "table": t, "paper": "a4",
                "path": f"{code}/{game}/{kind}-table-{t}-a4.pdf", "pages": 1} for t in range(1, tables + 1)]
    downloads = _downloads(entries, {}, {code: tr}, {})[(code, game)]
    macro = environment().get_template("site/downloads.html.j2").make_module(locale_globals(tr)).doc_label
    return [str(macro(d)) for d in downloads]


@pytest.mark.parametrize("code", LOCALES)
@pytest.mark.parametrize("game,kind", PER_TABLE)
def test_downloads_name_each_game_s_own_tables(game, kind, code):
    sheet = GAMES[game].sheet(kind)
    for tables in (1, 2, 3, 4):
        listed = _listed(code, game, kind, tables)
        tr = load_translator(code, ("common",))
        assert len(listed) == tables
        for i, text in enumerate(listed):
            own = str(sheet.label_table(tr, i, tables))
            assert text.endswith(" – " + own), (game, code, tables, i, text)
            if game != "bunco":
                # Bunco's ranked names never label another game's tables.
                bunco_names = {str(table_label(tr, j, 3)) for j in range(3)} - {str(own)}
                assert not any(text.endswith(" – " + n) for n in bunco_names), (game, code, text)
