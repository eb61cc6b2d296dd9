"""Alternative text and table summaries in WeasyPrint 70's PDF structure tree, from the HTML's ARIA labels.

WeasyPrint tags a PDF from the HTML (`pdf_tags=True`) but gives alternative text only to <img alt>
and to an SVG's <title>. Our cards are drawn with text and CSS (`<span role="img" aria-label="King
of spades">K♠</span>`), so a screen reader would say "K black spade suit". This patch gives such an
element's structure element the /Alt of its label (PDF 14.9.3: Alt replaces the content when read
aloud), and a <table aria-label="..."> the /Summary attribute of PDF tables (14.8.5.7), so the many
empty boxes of a score sheet are announced once, by purpose. Tied to WeasyPrint 70.0 like actualtext.
"""

from __future__ import annotations

from .actualtext import SUPPORTED_WEASYPRINT  # noqa: F401  (imports the version guard)

import pydyf  # noqa: E402
from weasyprint.pdf import tags as _tags  # noqa: E402

_original_build_box_tree = _tags._build_box_tree


def _build_box_tree(box, parent, pdf, page_number, nums, annotations, tags):
    """WeasyPrint's `_build_box_tree`, then the box's ARIA label as /Alt (role="img") or table /Summary."""
    element = getattr(box, "_box", box).element  # an absolutely placed box stands for its own box
    label = element.get("aria-label") if element is not None else None
    tag = getattr(box, "element_tag", None)
    for struct in _original_build_box_tree(box, parent, pdf, page_number, nums, annotations, tags):
        if label and tag not in ("html", "body"):
            if element.get("role") == "img":
                struct["Alt"] = pydyf.String(label)
            elif tag == "table" and struct["S"] == "/Table":
                struct["A"] = pydyf.Dictionary({"O": "/Table", "Summary": pydyf.String(label)})
        yield struct


def install() -> None:
    """Tag every following PDF through the function above (idempotent; recursion goes through it too)."""
    _tags._build_box_tree = _build_box_tree
