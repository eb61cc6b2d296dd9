"""Type that fills its page: the largest font size at which a one-page document still passes the gate.

A quick-reference card is read from arm's length, so it gets the largest type that keeps it on one
page: a search over font sizes, each laid out by WeasyPrint and checked by the layout gate. Never
below the size its stylesheet sets (if that does not fit, the gate fails the card as it would
without fitting).
"""

from __future__ import annotations

import math

from generator.render import gate

#: The document asks for fitting with this attribute on its <main>.
MARKER = '<main data-fit="page"'
#: Font sizes are tried to this precision, in pt.
STEP = 0.5
#: The smallest type a card may shrink to when it does not fit a page at its own size.
FLOOR = 0.75
#: The fill aimed at by the first guess (the search then settles on what actually fits).
AIM = 0.96


def wants_fit(html: str) -> bool:
    return MARKER in html


def size_css(size: float) -> str:
    """The card's font size (its stylesheet sets it on the body; a user sheet's !important wins)."""
    return f"body {{ font-size: {size:g}pt !important; }}"


def fits(document) -> bool:
    return len(document.pages) == 1 and not gate.findings_of(document)


def fit(render, base: float):
    """The laid-out document with the largest type that fits, found with `render(size)`; and that size.

    `base` is the size the document's own stylesheet gives (None passed to `render`: as it is).
    The first guess grows the type with the square root of the free height (text reflows in two
    dimensions); from there the size walks up or down by STEP until the next step would not fit:
    about three layouts a card.
    """
    doc = render(None)
    if not fits(doc):
        # Longer than a page at its own size (Tonk's nine payout situations under every house rule,
        # in French or Bengali): the type shrinks by steps, to FLOOR of its size at the least.
        size = base - STEP
        while size >= base * FLOOR:
            candidate = render(size)
            if fits(candidate):
                return candidate, size
            size -= STEP
        return doc, base
    fill = gate.fill(doc)
    if fill <= 0:
        return doc, base
    guess = max(base, _snap(base * math.sqrt(AIM / fill)))
    if guess == base:
        return doc, base
    candidate = render(guess)
    if fits(candidate):
        best, size = candidate, guess
        while True:  # walk up while the next size still fits
            bigger = render(size + STEP)
            if not fits(bigger):
                return best, size
            best, size = bigger, size + STEP
    size = guess - STEP
    while size > base:  # walk down to the first size that fits
        candidate = render(size)
        if fits(candidate):
            return candidate, size
        size -= STEP
    return doc, base


def _snap(size: float) -> float:
    return round(size / STEP) * STEP
