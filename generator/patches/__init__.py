"""Every change to a dependency's internals, version-gated, in one place (README.md: the table).

Nothing is patched on import: the render layer calls `apply()` once per process, before its first
document, and the WOFF2 writer's changes (woff2pack) hold only while it packs a font.
"""

from __future__ import annotations

import os

#: Developer measurements only (generator/dev/patchgain.py): comma-separated speed patches to leave out.
SKIP_ENV = "RULESHEETS_SKIP_PATCHES"
#: The speed patches by their names in README.md's table.
LIBRARY_LOOKUP, WOFF2_GLYF, WOFF2_BROTLI = "library-lookup", "woff2-glyf", "woff2-brotli"

_applied: list[str] | None = None


def skipped() -> frozenset[str]:
    """The speed patches left out for a measurement ($RULESHEETS_SKIP_PATCHES)."""
    return frozenset(filter(None, os.environ.get(SKIP_ENV, "").replace(" ", "").split(",")))


def apply() -> list[str]:
    """Load WeasyPrint and put every patch in (once per process); returns the names of those in place.

    Refuses in one line (UnsupportedVersion, exit 2) with a WeasyPrint other than the one the output
    patches mirror; another version of any other patched library gets one warning line for the
    whole build (its speed patches, in woff2pack, are left out).
    """
    global _applied
    if _applied is not None:
        return _applied
    from generator.patches import versions

    versions.check()
    from generator.patches import speedups

    skip = skipped()
    done = []
    if LIBRARY_LOOKUP not in skip:
        speedups.load_weasyprint()  # before anything imports WeasyPrint's C bindings
        done.append(LIBRARY_LOOKUP)
    from generator.patches import actualtext, pdftags

    actualtext.install()  # Indic clusters extract as their own text (search, copy, screen readers)
    pdftags.install()  # drawn cards read by their names, smaller structure trees
    _applied = done + ["actualtext", "pdftags"]
    return _applied
