"""The type-size search of render/fit.py: bounded, and its answer does not depend on where it starts.

The search is driven here by a stand-in for WeasyPrint: a "document" at size s fits when s is at most
a threshold, and fills s / threshold of its page. That is the shape of a real card (more type, more
height); a threshold above every size is the card-sheet defect of issue 38 (a stylesheet rule beat
the fitting's, so every size "fitted" and the old search walked up without end).
"""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from generator.render import fit, gate


class Doc:
    def __init__(self, size: float, threshold: float):
        self.size, self.threshold = size, threshold
        self.pages = [object()] if size <= threshold else [object(), object()]


@pytest.fixture(autouse=True)
def stand_in(monkeypatch):
    monkeypatch.setattr(fit, "fits", lambda doc: len(doc.pages) == 1)
    monkeypatch.setattr(gate, "fill", lambda doc: min(1.0, doc.size / doc.threshold) * 0.97)


def search(base: float, threshold: float, start=None, budget=fit.BUDGET):
    calls = []

    def render(size):
        size = base if size is None else size
        calls.append(size)
        return Doc(size, threshold)

    doc, size = fit.fit(render, base, start, budget)
    return doc, size, calls


def expected(base: float, threshold: float) -> float | None:
    """The largest size on the grid, between the floor and the ceiling, that fits (None: none does)."""
    s = fit.Search(base)
    grid = [s.low + i * fit.STEP for i in range(int(round((s.high - s.low) / fit.STEP)) + 1)]
    fitting = [g for g in grid if g <= threshold]
    return max(fitting) if fitting else None


sizes = st.integers(min_value=16, max_value=40).map(lambda n: n / 2)  # 8 to 20 pt, as the stylesheets set


@given(base=sizes, threshold=st.floats(min_value=4, max_value=200), start=st.none() | st.floats(1, 100))
def test_the_answer_is_the_largest_size_that_fits_wherever_the_search_starts(base, threshold, start):
    doc, size, calls = search(base, threshold, start)
    want = expected(base, threshold)
    if want is None:  # nothing fits: the document at its own size, for the gate to refuse
        assert size == base and doc.size == base
    else:
        assert size == want and doc.size == want
    assert len(calls) <= fit.BUDGET


def test_a_document_that_always_fits_stops_at_the_ceiling():
    """The card-sheet hang: every size fits. The old walk went on past 4,000 pt; this stops at 3x, within budget."""
    doc, size, calls = search(14.5, float("inf"))
    assert size == fit.Search(14.5).high <= 14.5 * fit.CEILING and size <= fit.MAX_PT
    assert len(calls) <= 6, calls


def test_a_hint_at_the_answer_costs_two_layouts():
    _, size, _ = search(14.5, 19.3)
    _, again, calls = search(14.5, 19.3, start=size)
    assert again == size == 19.0 and calls == [19.0, 19.5]


def test_over_budget_fails_in_one_line():
    with pytest.raises(fit.FitFailed, match=r"^layout did not settle within 2 layouts$"):
        search(10, 29.0, budget=2)
