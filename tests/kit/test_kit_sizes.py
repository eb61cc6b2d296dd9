"""`rulesheets kit` at every documented size: exit 0, and the contents page gives the PDF's real pages.

The page numbers are read back two ways that share nothing with the kit's code: the numbers printed
on page 1 (pdftotext), and the page each part's named destination (its id) points to in the PDF.
Without the fix (the numbers predicted by counting sheets) the 48-player Bunco kit and the 16-player
Stop the Bus kit print numbers one page short from the part that spills over, and these tests fail.
The sweep over every count is marked `full`; the normal suite keeps two representative kits.
"""

from __future__ import annotations

import io
import re
import subprocess
import unicodedata

import pytest
from pypdf import PdfReader

from generator.i18n.translate import discover_locales
from generator.kit.assemble import KitOptions, make_kit
from generator.kit.players import MAX_PLAYERS, read_players
from generator.edition.sheets import SheetOptions

LOCALES = discover_locales()
#: Every player count a kit takes, by game (Bunco: multiples of four or one short; Call Break: fours).
COUNTS = {
    "bunco": [n for n in range(3, MAX_PLAYERS + 1) if n % 4 in (0, 3)],
    "stop-the-bus": list(range(2, MAX_PLAYERS + 1)),
    "tonk": list(range(2, MAX_PLAYERS + 1)),
    "call-break": list(range(4, MAX_PLAYERS + 1, 4)),
}


def _digits(text: str) -> int:
    return int("".join(str(unicodedata.digit(c)) for c in text))


def printed_pages(pdf: bytes) -> list[tuple[int, int]]:
    """(how many, page) of each row of the contents table, as printed on page 1."""
    text = subprocess.run(["pdftotext", "-layout", "-f", "1", "-l", "1", "-", "-"], input=pdf,
                          capture_output=True, check=True).stdout.decode("utf-8")
    return [(_digits(a), _digits(b)) for a, b in re.findall(r"(\d+)\s+(\d+)\s*$", text, re.M)]


def check_kit(game: str, count: int, locale: str = "en", paper: str = "a4", per_page: int = 2, **rules):
    names = [f"P{i}" for i in range(1, count + 1)]
    kit = make_kit(KitOptions(game, tuple(read_players(",".join(names))), locale, paper,
                              SheetOptions(per_page=per_page), {game: rules} if rules else {}))
    pdf = next(data for name, data in kit.files.items() if name.endswith(".pdf"))
    reader = PdfReader(io.BytesIO(pdf))
    destinations = {name: reader.get_destination_page_number(d) + 1 for name, d in reader.named_destinations.items()}
    real = [(p["count"], destinations[p["id"]]) for p in kit.parts]
    assert printed_pages(pdf) == real, (game, count, locale, paper, per_page)
    assert len(reader.pages) == kit.pages
    # Every part has at least one page of its own, in print order.
    firsts = [page for _, page in real] + [kit.pages + 1]
    assert firsts[0] == 2 and all(a < b for a, b in zip(firsts, firsts[1:]))
    return kit


@pytest.mark.render
def test_stop_the_bus_kit_for_sixteen_on_letter():
    kit = check_kit("stop-the-bus", 16, paper="letter")
    assert kit.pages == 4  # the table of sixteen stays on one page (its rows lower than a smaller table's)


@pytest.mark.render
def test_bunco_kit_for_twenty_four_four_to_a_page_with_wipeouts():
    kit = check_kit("bunco", 24, paper="letter", per_page=4, wipeout="true")
    tally = next(p for p in kit.parts if p["id"] == "tally-sheets")
    assert tally["count"] == 24 and tally["pages"] == 12  # 4 sets with wipeouts: 2 to a page, with a note


@pytest.mark.full
@pytest.mark.render
@pytest.mark.parametrize("game, count", [(g, n) for g, counts in COUNTS.items() for n in counts])
def test_every_count_in_english(game, count):
    check_kit(game, count)


@pytest.mark.full
@pytest.mark.render
@pytest.mark.parametrize("game, locale, paper, per_page, at", [
    (g, code, paper, pp, at) for g in COUNTS for code in LOCALES for paper in ("a4", "letter")
    for pp in (2, 4) for at in (0, -1)])
def test_the_boundaries_in_every_language(game, locale, paper, per_page, at):
    check_kit(game, COUNTS[game][at], locale, paper, per_page)


@pytest.mark.render
def test_korean_kits_of_two_games_in_one_process():
    """One process (a `serve`, a worker) renders Korean documents whose characters differ: each gets a cut
    of the Korean font with its own characters. (With one family name for every cut, WeasyPrint's font
    configuration kept drawing with the first, and the second kit missed "♠" and "…".)"""
    check_kit("bunco", 4, "ko")
    check_kit("tonk", 2, "ko")
