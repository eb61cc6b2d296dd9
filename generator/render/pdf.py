"""HTML to PDF with WeasyPrint: one FontConfiguration per process, a locked-down URL fetcher, no missing glyphs."""

from __future__ import annotations

import io
import logging
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import unquote, urlparse

from ..paths import CACHE_DIR, TEMPLATES_DIR
from ..errors import RulesheetsError

PAPERS = {"a4": "A4", "letter": "letter"}
#: Where documents may load resources from: nothing outside the project's own templates.
ALLOWED_ROOTS = (TEMPLATES_DIR, CACHE_DIR / "fonts")


class RenderError(RulesheetsError):
    """A document could not be rendered faithfully (a missing glyph, a forbidden URL)."""

    exit_code = 1


_font_config = None


def _fonts():
    global _font_config
    if _font_config is None:
        from weasyprint.text.fonts import FontConfiguration

        from . import actualtext, pdftags

        actualtext.install()  # Indic clusters extract as their own text (search, copy, screen readers)
        pdftags.install()  # drawn cards read by their names
        _font_config = FontConfiguration()
    return _font_config


def _fetcher_class():
    from weasyprint.urls import URLFetcher

    class ProjectFetcher(URLFetcher):
        """Serves data: URLs and files under the project's templates; refuses everything else."""

        def fetch(self, url, headers=None):
            parsed = urlparse(url)
            if parsed.scheme == "data":
                return super().fetch(url, headers)
            if parsed.scheme == "file":
                path = Path(unquote(parsed.path)).resolve()
                if any(path.is_relative_to(root.resolve()) for root in ALLOWED_ROOTS):
                    return super().fetch(url, headers)
            raise RenderError(f"refused to load {url}: documents may only use the project's own files")

    return ProjectFetcher


class _GlyphWatcher(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.missing: list[str] = []
        self.refused: list[str] = []

    def emit(self, record):
        msg = record.getMessage()
        if ".notdef glyph" in msg:
            self.missing.append(msg.split(": ", 1)[-1])
        elif "refused to load" in msg:
            self.refused.append(msg[msg.index("refused to load"):])
        elif msg.startswith(("Failed to load", "Font-face")):
            # A missing image or a font that cannot be loaded would be left out silently: an error instead.
            self.refused.append(" ".join(msg.split())[:200])


@contextmanager
def _watch():
    logger = logging.getLogger("weasyprint")
    watcher = _GlyphWatcher()
    logger.addHandler(watcher)
    old = logger.propagate
    logger.propagate = False  # our own one-line errors replace WeasyPrint's log lines
    try:
        yield watcher
    finally:
        logger.removeHandler(watcher)
        logger.propagate = old


def html_to_pdf(html: str, paper: str, name: str, print_css: str = "") -> tuple[bytes, int]:
    """Render one HTML document on one paper size; returns the PDF bytes and its page count.

    `print_css` is extra CSS for the PDF only (page furniture, the locale's cut-down fonts: fonts.pdf).
    """
    from weasyprint import CSS, HTML

    base_url = TEMPLATES_DIR.as_uri() + "/"
    fetcher = _fetcher_class()()
    sheets = [CSS(string=f"@page {{ size: {PAPERS[paper]}; }}", font_config=_fonts())]
    with _watch() as watcher:
        if print_css:
            sheets.append(CSS(string=print_css, base_url=base_url, url_fetcher=fetcher, font_config=_fonts()))
        doc = HTML(string=html, base_url=base_url, url_fetcher=fetcher).render(
            stylesheets=sheets, font_config=_fonts(), presentational_hints=False)
        out = io.BytesIO()
        # Tagged: headings, lists, tables and figures with alt text reach screen readers, the language
        # and the title (shown in the title bar) come from <html lang> and <title>.
        doc.write_pdf(out, pdf_identifier=b"rulesheets" + name.encode()[:16], pdf_tags=True)
    if watcher.refused:
        raise RenderError(f"{name}: {watcher.refused[0]}")
    if watcher.missing:
        chars = ", ".join(sorted(set(watcher.missing))[:5])
        raise RenderError(f"{name}: no font has a glyph for {chars}; add a font with it to the locale's fonts")
    return out.getvalue(), len(doc.pages)
