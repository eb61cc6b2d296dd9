"""Kits whose last rows or prize lines used to sit alone on a page the contents did not plan (issue 38).

`make test` renders the two cells that failed on 5 December; every size in every language is
test_kit_sizes.py's sweep (`make test-full`), which now also holds each part to the pages its contents
line plans.
"""

from __future__ import annotations

import pytest

from generator.games.bunco import kit as bunco_kit
from generator.kit.assemble import KitOptions, make_kit
from generator.kit.players import read_players
from generator.render.pdf import RenderError


def _kit(game: str, count: int, paper: str):
    names = ",".join(f"Player{i}" for i in range(1, count + 1))
    return make_kit(KitOptions(game, tuple(read_players(names)), "en", paper))


def test_a_stop_the_bus_table_of_sixteen_stays_on_one_page_on_letter():
    kit = _kit("stop-the-bus", 16, "letter")
    tracker = next(p for p in kit.parts if p["id"] == "token-trackers")
    assert kit.pages == 4 and tracker["first_page"] == 4 and tracker["pages"] == 1


def test_a_part_that_runs_past_its_planned_pages_is_refused(monkeypatch):
    """Planted: the results sheet planned as one page while its rows take two."""
    monkeypatch.setattr(bunco_kit, "RESULTS_PER_PAGE", 40)
    with pytest.raises(RenderError, match=r"^kit-bunco: the part 'results' takes \d pages from page \d+, "
                                          r"but the contents page plans 1$"):
        _kit("bunco", 24, "letter")  # 24 rows of 9 mm and the title do not fit one page


def test_forty_eight_results_share_three_even_pages_with_the_prize_lines():
    pages = bunco_kit.results_pages([f"P{i}" for i in range(48)])
    assert [len(p) for p in pages] == [16, 16, 16]
    assert [len(p) for p in bunco_kit.results_pages([f"P{i}" for i in range(21)])] == [11, 10]
