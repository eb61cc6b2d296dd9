"""The exact upstream version every patch of this folder mirrors, and what another version means.

Each patch copies or reaches into code of one release (README.md, the table). pyproject.toml pins
each of these exactly, so an ordinary install always matches; someone who installs another version
by hand gets, before any document is drawn:

- WeasyPrint: a one-line refusal, exit 2. The ActualText and tagging patches rewrite its drawing and
  PDF structure code; against other code they would write wrong PDFs, and without them the Indic
  PDFs would not extract as they read. No build with it is better than a silently worse one.
- any other package: one warning line, and the speed patches written against it are left out
  (patches.woff2pack). Those change time only, so the output is still right.
"""

from __future__ import annotations

import os
import sys
from importlib import metadata

from generator.core.errors import RulesheetsError

#: distribution -> the version whose code the patches mirror (pinned exactly in pyproject.toml).
PINNED = {
    "weasyprint": "70.0",  # actualtext.py, pdftags.py (output)
    "pydyf": "0.13.0",  # pdftags.py renumbers the PDF's objects through pydyf's own
    "fonttools": "4.68.0",  # woff2pack.py (speed)
}
#: Set in the environment once the warning is printed, so worker processes do not print it again.
_WARNED = "RULESHEETS_PATCH_VERSIONS_WARNED"


class UnsupportedVersion(RulesheetsError, ImportError):
    """A library is at a version whose code a patch that changes output does not mirror: exit 2."""

    exit_code = 2


def installed(distribution: str) -> str:
    """The installed version (WeasyPrint's own `__version__` once it is imported, as its code reports it)."""
    if distribution == "weasyprint" and "weasyprint" in sys.modules:
        return sys.modules["weasyprint"].__version__
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "none"


def supported(distribution: str) -> bool:
    """Whether the installed `distribution` is the version its patches were written against."""
    return installed(distribution) == PINNED[distribution]


def require_weasyprint() -> None:
    """Refuse, in one line, to draw with a WeasyPrint whose code the output patches do not mirror."""
    found, pinned = installed("weasyprint"), PINNED["weasyprint"]
    if found != pinned:
        raise UnsupportedVersion(
            f"generator/patches/actualtext.py patches WeasyPrint {pinned}'s text drawing, but WeasyPrint {found} "
            f"is installed: install weasyprint=={pinned} (pip install -e .), or check the patch against "
            f"weasyprint/draw/text.py and update PINNED in generator/patches/versions.py")


def others_unsupported() -> list[str]:
    """`name found (patches written for pinned)` for each library other than WeasyPrint at another version."""
    return [f"{name} {installed(name)} (patches written for {pinned})"
            for name, pinned in PINNED.items() if name != "weasyprint" and installed(name) != pinned]


def warn_unsupported() -> None:
    """One warning line naming the libraries whose speed patches are left out (once per process tree)."""
    others = others_unsupported()
    if others and not os.environ.get(_WARNED):
        os.environ[_WARNED] = "1"  # inherited by the render workers started after this
        print(f"rulesheets: warning: {', '.join(others)}: their speed patches are left out "
              f"(output unchanged, builds slower)", file=sys.stderr)


def check() -> None:
    """Before any work: refuse an unsupported WeasyPrint, warn once about the other libraries."""
    require_weasyprint()
    warn_unsupported()
