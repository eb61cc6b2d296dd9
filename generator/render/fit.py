"""Type that fills its page: the largest font size at which a one-page document still passes the gate.

A quick-reference card is read from arm's length, so it gets the largest type that keeps it on one
page: a bounded search over font sizes on a grid of STEP pt, each laid out by WeasyPrint and checked
by the layout gate. Never below FLOOR of the size its stylesheet sets (or FLOOR_PT), never above CEILING of it (or
MAX_PT), and never more than BUDGET layouts: a document that does not settle within them fails in
one line instead of laying out forever.

The answer is the largest size on the grid that fits, whatever the search starts from (a start only
saves layouts): a size that fits and the next one up that does not are both laid out, unless the
size is the ceiling. So a start hint (the size this card had last time, or on the other paper) makes
a card cost two layouts, and the same inputs always give the same bytes.
"""

from __future__ import annotations

import math

from generator.core.errors import RulesheetsError
from generator.render import gate

#: The document asks for fitting with this attribute on its <main>.
MARKER = '<main data-fit="page"'
#: Font sizes are tried to this precision, in pt.
STEP = 0.5
#: The smallest type a card may shrink to when it does not fit a page at its own size: this much of
#: its own size, or FLOOR_PT if that is smaller (a card sheet lays the card out at half size, A5).
FLOOR = 0.75
FLOOR_PT = 9.0
#: The largest type a card may grow to: this many times its own size, and never above MAX_PT.
CEILING = 3.0
MAX_PT = 40.0
#: Layouts one document may take before it fails: the bisection needs about log2 of the grid (7).
BUDGET = 12
#: How a card's fill grows with its type size (fill ~ size ** EXPONENT), before two layouts measure it.
EXPONENT = 1.5


class FitFailed(RulesheetsError):
    """The search did not settle within its budget: the artifact fails, nothing is published."""

    exit_code = 1


def wants_fit(html: str) -> bool:
    return MARKER in html


def size_css(size: float) -> str:
    """The card's font size (its stylesheet sets it on the body; a user sheet's !important wins)."""
    return f"body {{ font-size: {size:g}pt !important; }}"


def fits(document) -> bool:
    return len(document.pages) == 1 and not gate.findings_of(document)


class Search:
    """The state of one bounded search: the largest size known to fit and the smallest known not to."""

    def __init__(self, base: float, budget: int = BUDGET):
        self.base = base
        self.low = _snap_up(min(base * FLOOR, FLOOR_PT))
        self.high = max(base, _snap_down(min(base * CEILING, MAX_PT)))
        self.budget = budget
        self.layouts = 0
        self.fitting: tuple[float, object] | None = None  # (size, document)
        self.failing: float | None = None
        self.first = None  # the document at its own size, when laid out (the gate then says why it fails)
        self.fills: list[tuple[float, float]] = []  # (size, fill) of each fitting layout, in order

    def lay_out(self, render, size: float):
        if self.layouts >= self.budget:
            raise FitFailed(f"layout did not settle within {self.budget} layouts")
        self.layouts += 1
        doc = render(None if size == self.base else size)
        if size == self.base:
            self.first = doc
        if fits(doc):
            if self.fitting is None or size > self.fitting[0]:
                self.fitting = (size, doc)
        elif self.failing is None or size < self.failing:
            self.failing = size
        return doc

    def settled(self) -> bool:
        if self.fitting is None:
            return self.failing is not None and self.failing <= self.low
        top = self.high if self.failing is None else self.failing - STEP
        return self.fitting[0] >= top

    def next_size(self, size: float, doc) -> float:
        """Where to look next: where the fill is predicted to reach the page's foot, else halfway."""
        lower = self.low if self.fitting is None else self.fitting[0] + STEP
        upper = self.high if self.failing is None else self.failing - STEP
        if self.fitting is not None and self.fitting[1] is doc:
            self._measure(size, gate.fill(doc))
        guess = self._predict()
        if guess is None:  # no fill measured: the top if something fits (a page with nothing drawn), else halfway
            guess = upper if self.fitting is not None else _snap_down((lower + upper) / 2)
        return min(max(guess, lower), upper)

    def _measure(self, size: float, filled: float) -> None:
        if filled > 0:
            self.fills.append((size, filled))

    def _predict(self) -> float | None:
        """The largest grid size whose fill is predicted under 1, from the fills measured so far.

        A card's fill grows with its type as a power of it (text reflows in two dimensions, headings
        and rules do not): measured over every card, the power is about 1.5. With two fitting sizes
        the power is taken from the last two.
        """
        if not self.fills:
            return None
        size, filled = self.fills[-1]
        power = EXPONENT
        if len(self.fills) >= 2:
            (s1, f1), (s2, f2) = self.fills[-2], self.fills[-1]
            if s1 != s2 and f1 > 0 and f2 != f1:
                power = min(max(math.log(f2 / f1) / math.log(s2 / s1), 0.5), 3.0)
        return _snap_down(size * (1 / filled) ** (1 / power))


def fit(render, base: float, start: float | None = None, budget: int = BUDGET):
    """The laid-out document with the largest type that fits, found with `render(size)`; and that size.

    `base` is the size the document's own stylesheet gives (None passed to `render`: as it is);
    `start` a size to try first (a hint: the answer does not depend on it). When no size from FLOOR
    of `base` up fits, the document at its own size is returned, and the gate then fails it.
    Raises FitFailed past `budget` layouts.
    """
    search = Search(base, budget)
    size = base if start is None else min(max(_snap_down(start), search.low), search.high)
    while True:
        doc = search.lay_out(render, size)
        if search.settled():
            break
        size = search.next_size(size, doc)
    if search.fitting is None:
        return (search.first if search.first is not None else render(None)), base
    return search.fitting[1], search.fitting[0]


#: Line heights tried, in turn, when a document's last page holds only its tail (the gate's tail rule):
#: the body's 1.45 a little tighter, so that the tail comes back to the page before. Each is one more
#: layout, and only such documents pay for them.
TIGHTER_LINES = (1.4, 1.35)


def line_css(height: float) -> str:
    return f"html {{ line-height: {height:g} !important; }}"


def without_tail(render, doc):
    """`doc`, or the same document laid out with tighter lines (`render(css)`) while its last page holds
    only its tail; if none of TIGHTER_LINES brings the tail back, the last layout (the gate then says why)."""
    for height in TIGHTER_LINES:
        if not gate.has_tail(doc):
            return doc
        doc = render(line_css(height))
    return doc


def _snap_down(size: float) -> float:
    return math.floor(size / STEP + 1e-9) * STEP


def _snap_up(size: float) -> float:
    return math.ceil(size / STEP - 1e-9) * STEP
