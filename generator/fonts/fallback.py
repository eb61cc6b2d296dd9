"""Metric-matched fallback faces for the site's web fonts: text drawn before a web font arrives takes the
room the web font will take, so nothing moves when it swaps in (Cumulative Layout Shift).

For each web family F the site serves, `F fallback` is an @font-face over a font the visitor already has
(`local()`), scaled with `size-adjust` so its average Latin advance equals F's, and with F's ascent,
descent and line gap (`ascent-override`, ...), as browsers' font-metric overrides allow. The stacks in
style.css name it right after F. The reference is DejaVu Sans, the sans-serif of most Linux desktops and
of every machine that builds this site (scripts/setup.sh installs it), so the numbers come from the files
themselves; Arial-compatible faces (Arial, Liberation Sans, Arimo) get their own face, from metrics
measured once on Liberation Sans (see ARIAL), since no build machine is required to have them.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from generator.fonts.choice import find_font

#: Weighted Latin sample: English letter frequencies (per mille) plus the space; what running text is made of.
LETTERS = {" ": 180, "e": 102, "t": 73, "a": 65, "o": 60, "i": 56, "n": 56, "s": 51, "h": 49, "r": 48, "d": 34,
           "l": 32, "u": 22, "c": 22, "m": 20, "w": 19, "f": 18, "g": 16, "y": 16, "p": 15, "b": 12, "v": 8,
           "k": 6, ",": 8, ".": 8, "T": 3, "A": 2, "I": 2, "S": 2}


@dataclass(frozen=True)
class Metrics:
    """A face's vertical metrics (fractions of the em) and its weighted average advance (em)."""

    ascent: float
    descent: float
    line_gap: float
    avg_width: float


#: Arial (and the metric-compatible Liberation Sans and Arimo, whose advance widths are Arial's), regular
#: and bold: hhea 1854 / -434 / 67 on a 2048 em, and the weighted average advance of LETTERS, measured with
#: `metrics()` on Liberation Sans 2 (Debian fonts-liberation) once; no build machine needs the files.
ARIAL = {400: Metrics(1854 / 2048, 434 / 2048, 67 / 2048, 0.43971), 700: Metrics(1854 / 2048, 434 / 2048, 67 / 2048, 0.47467)}
#: The local faces each fallback tries, by weight, and their metrics (None: read from the installed file).
REFERENCES = (
    ("DejaVu Sans", {400: ("DejaVu Sans", "DejaVuSans"), 700: ("DejaVu Sans Bold", "DejaVuSans-Bold")}, None),
    ("Arial", {400: ("Arial", "ArialMT", "Liberation Sans", "LiberationSans", "Arimo"),
               700: ("Arial Bold", "Arial-BoldMT", "Liberation Sans Bold", "LiberationSans-Bold", "Arimo Bold")}, ARIAL),
)
#: A family whose face lacks most of LETTERS draws no Latin text: no fallback (it would take the Latin over).
MIN_COVERAGE = 0.9


@lru_cache(maxsize=None)
def metrics(family: str, weight: int = 400) -> Metrics | None:
    """An installed face's metrics, from its file (hhea, or OS/2 typo metrics when the font says to use them)."""
    from fontTools.ttLib import TTFont

    found = find_font(family, weight) or find_font(family)
    if found is None:
        return None
    font = TTFont(str(found.path), fontNumber=found.index, lazy=True)
    upm = font["head"].unitsPerEm
    os2, hhea = font["OS/2"], font["hhea"]
    if os2.fsSelection & (1 << 7):  # USE_TYPO_METRICS
        ascent, descent, gap = os2.sTypoAscender, -os2.sTypoDescender, os2.sTypoLineGap
    else:
        ascent, descent, gap = hhea.ascent, -hhea.descent, hhea.lineGap
    cmap, hmtx = font.getBestCmap(), font["hmtx"]
    weighted = [(hmtx[cmap[ord(c)]][0], w) for c, w in LETTERS.items() if ord(c) in cmap]
    covered = sum(w for _, w in weighted)
    if covered < MIN_COVERAGE * sum(LETTERS.values()):
        return None
    return Metrics(ascent / upm, descent / upm, gap / upm, sum(a * w for a, w in weighted) / covered / upm)


def fallback_names(family: str) -> tuple[str, ...]:
    """The fallback families a stack names right after `family` (each exists only where a set's CSS declares it)."""
    return tuple(f"{family} fallback {ref}" for ref, _, _ in REFERENCES if ref != family)


def fallback_face_css(family: str, weight: int, unicode_range: str) -> list[str]:
    """@font-face rules of the family's fallbacks at one weight, over the same characters as its web subset."""
    web = metrics(family, weight)
    if web is None:
        return []
    rules = []
    for reference, local_names, fixed in REFERENCES:
        ref = fixed[weight] if fixed else metrics(reference, weight)
        if reference == family or ref is None:
            continue
        scale = web.avg_width / ref.avg_width
        src = ", ".join(f'local("{n}")' for n in local_names[weight])
        rules.append(
            f'@font-face {{ font-family: "{family} fallback {reference}"; font-style: normal; font-weight: {weight}; '
            f"src: {src}; size-adjust: {scale * 100:.2f}%; ascent-override: {web.ascent / scale * 100:.2f}%; "
            f"descent-override: {web.descent / scale * 100:.2f}%; line-gap-override: {web.line_gap / scale * 100:.2f}%; "
            f"unicode-range: {unicode_range}; }}")
    return rules


#: How long a page whose script has no metric-matched fallback stays hidden waiting for its web font, at most (ms):
#: the block period browsers give `font-display: block`, after which they too draw in whatever font there is.
WAIT_MS = 3000


def needs_wait(letter: str) -> bool:
    """Whether text in `letter`'s script must wait for its web font rather than be drawn in a local fallback first.

    The fallbacks above are Latin faces (DejaVu Sans, Arial): sized to the web font's Latin advance, they stand in
    for Latin text only. A visitor with no font for Devanagari, Bengali or Hangul would see boxes of the wrong
    width, then the text re-wrapped when the web font arrived (CLS 0.05 to 0.12 measured on such pages).
    """
    return not unicodedata.name(letter, "").startswith("LATIN")
