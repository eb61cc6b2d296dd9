"""HTML to PDF with WeasyPrint: one FontConfiguration per process, a locked-down URL fetcher, no missing glyphs."""

from __future__ import annotations

import io
import logging
import re
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlparse

from generator.core.paths import CACHE_DIR, TEMPLATES_DIR
from generator.core.errors import RulesheetsError
from generator.render import glyphs, press

#: Paper sizes WeasyPrint lays out on; the half sizes are the pages of booklets and card sheets (render/imposition.py).
PAPERS = {"a4": "A4", "letter": "letter", "a5": "A5", "half-letter": "5.5in 8.5in"}
#: Where documents may load resources from: nothing outside the project's own templates.
ALLOWED_ROOTS = (TEMPLATES_DIR, CACHE_DIR / "fonts", press.PROFILE.parent)


class RenderError(RulesheetsError):
    """A document could not be rendered faithfully (a missing glyph, a forbidden URL)."""

    exit_code = 1


_font_config = None


def _fonts():
    global _font_config
    if _font_config is None:
        from generator import patches

        patches.apply()  # loads WeasyPrint first; refuses one it does not mirror (generator/patches/README.md)
        from weasyprint.text.fonts import FontConfiguration

        _font_config = FontConfiguration()
        _remove_font_folder_at_exit(_font_config)
    return _font_config


def preload() -> None:
    """Load WeasyPrint, its font configuration and fetcher in this process, so forked workers start with them."""
    _fonts()
    _fetcher_class()


def _remove_font_folder_at_exit(config) -> None:
    """Remove the temporary folder WeasyPrint writes @font-face fonts into when this process ends.

    WeasyPrint removes it only when the configuration is garbage collected, which never happens to
    ours (a module global) in a worker process, as those end with os._exit: each build left one
    folder of fonts per worker in the temporary directory. multiprocessing runs its finalizers at
    the end of its workers and, through atexit, of the main process; a forked child does not remove
    its parent's folder.
    """
    import os
    import shutil
    from multiprocessing import util

    owner = os.getpid()

    def remove():
        folder = getattr(config, "_folder", None)  # made on the first @font-face
        if folder is not None and os.getpid() == owner:
            shutil.rmtree(folder, ignore_errors=True)

    util.Finalize(None, remove, exitpriority=0)


@cache
def _fetcher_class():
    """The class, made once per process (a class is a reference cycle: one per document was garbage to collect)."""
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


class _LoadWatcher(logging.Handler):
    """Resources WeasyPrint could not load (it logs them and goes on); missing glyphs are render/glyphs.py's."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.refused: list[str] = []

    def emit(self, record):
        msg = record.getMessage()
        if "refused to load" in msg:
            self.refused.append(msg[msg.index("refused to load"):])
        elif msg.startswith(("Failed to load", "Font-face")):
            # A missing image or a font that cannot be loaded would be left out silently: an error instead.
            self.refused.append(" ".join(msg.split())[:200])


@contextmanager
def _watch():
    logger = logging.getLogger("weasyprint")
    watcher = _LoadWatcher()
    logger.addHandler(watcher)
    old = logger.propagate
    logger.propagate = False  # our own one-line errors replace WeasyPrint's log lines
    try:
        yield watcher
    finally:
        logger.removeHandler(watcher)
        logger.propagate = old


#: The one <style> element every template writes in the document's head (templates/base.html.j2).
_STYLE = re.compile(r"<style>(.*?)</style>", re.S)
#: Parsed stylesheets of this process by their text: every document of a kind carries the same CSS.
#: A full build has about forty different texts; `serve` may see many more over a session, so the
#: oldest are dropped past SHEETS_KEPT.
_sheets: dict[str, object] = {}
SHEETS_KEPT = 128
class _ImageCache(dict):
    """Images by URL for every document of this process (WeasyPrint's own cache lasts one document).

    The drawn dice are data: URLs, the same few in every Bunco document: they are parsed once. Files
    are not kept, so a file edited while `rulesheets serve` runs is read again.
    """

    def __setitem__(self, key, value):
        if not (isinstance(key, str) and key.startswith("file:")):
            super().__setitem__(key, value)


_images = _ImageCache()


def _stylesheet(css: str, watcher: _LoadWatcher, color_profiles: dict | None = None):
    """`css` parsed once per process (WeasyPrint parses and compiles a stylesheet on every render).

    A sheet whose fonts or images could not be loaded is not kept, so every document using it fails.
    `color_profiles`: where its @color-profile rules land (WeasyPrint reads them only from a dictionary
    it is handed at render time).
    """
    sheet = _sheets.get(css)
    if sheet is None:
        from weasyprint import CSS

        base_url = TEMPLATES_DIR.as_uri() + "/"
        sheet = CSS(string=css, base_url=base_url, url_fetcher=_fetcher_class()(), font_config=_fonts(),
                    color_profiles=color_profiles)
        if not watcher.refused:
            if len(_sheets) >= SHEETS_KEPT:
                del _sheets[next(iter(_sheets))]
            _sheets[css] = sheet
    return sheet


def _split_style(html: str) -> tuple[str, str]:
    """The document without its <style> element, and that element's CSS ("" when there is not exactly one)."""
    found = _STYLE.findall(html)
    if len(found) != 1:
        return html, ""
    return _STYLE.sub("", html, count=1), found[0]


@contextmanager
def _one_collection():
    """The cyclic garbage collector held off while one document renders, then run once over its objects.

    WeasyPrint allocates millions of objects per document, so the collector would run hundreds of
    times over objects that are still in use; held off, it runs once, when the document's objects
    are all young (collect(1): the young generations, where all of them still are). Measured on 36
    documents in one process: about 10 % less CPU, the same peak memory (a full collection after each
    document instead would cost more than it saves; no collection at all would grow the heap ~3 MB a document).
    """
    import gc

    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect(1)


#: The type size each fitted document of this process got, by name (render/fit.py): the pipeline keeps
#: them as the next build's start hints.
fitted: dict[str, float] = {}


def html_to_pdf(html: str, paper: str, name: str, print_css: str = "", gate: bool = True,
                inspect=None, fit_start: float | None = None, for_press: bool = False) -> tuple[bytes, int]:
    """Render one HTML document on one paper size; returns the PDF bytes and its page count.

    `fit_start`: where a card's type-size search starts (a hint; the result does not depend on it).
    `for_press`: a print shop's file (render/press.py) instead of an accessible one (PDF/UA-1).
    """
    with _one_collection():
        return _html_to_pdf(html, paper, name, print_css, gate, inspect, fit_start, for_press)


_press_profiles: dict = {}


def _press_sheet(watcher):
    """The press stylesheet; its CMYK profile lands in `_press_profiles`, embedded as the file's own bytes."""
    sheet = _stylesheet(press.CSS, watcher, _press_profiles)
    for profile in _press_profiles.values():
        if not getattr(profile, "from_file", False):  # parsed just now
            profile.__class__ = _profile_class(type(profile))
    return sheet


@cache
def _profile_class(base):
    """WeasyPrint embeds a profile as littleCMS writes it out again, which differs from run to run
    (the same input gave other bytes): this one embeds the file's own bytes."""

    class FileProfile(base):
        from_file = True

        @property
        def content(self):
            return press.PROFILE.read_bytes()

    return FileProfile


_BODY_SIZE = re.compile(r"\.quick-reference\s*\{\s*font-size:\s*([\d.]+)pt")


def _base_size(css: str) -> float:
    """The card's font size as its stylesheet sets it (sheet.css), the least the fitting may give."""
    m = _BODY_SIZE.search(css)
    return float(m.group(1)) if m else 12.0


def anchor_pages(document) -> dict[str, int]:
    """Each id of a laid-out document and the page (1-based) it is on."""
    found: dict[str, int] = {}
    for number, page in enumerate(document.pages, 1):
        for anchor in page.anchors:
            found.setdefault(anchor, number)
    return found


def _html_to_pdf(html: str, paper: str, name: str, print_css: str = "", gate: bool = True,
                 inspect=None, fit_start: float | None = None, for_press: bool = False) -> tuple[bytes, int]:
    """`print_css` is extra CSS for the PDF only (page furniture, the locale's cut-down fonts: fonts.pdf).
    The document's own stylesheet is handed to WeasyPrint beside it, parsed once per process: the
    same boxes, as no print stylesheet sets a property the document's stylesheet sets (only fonts,
    with !important, which wins either way), and the document's comes last, so it keeps the last word.
    """
    font_config = _fonts()  # loads WeasyPrint first, the quick way
    from weasyprint import HTML

    base_url = TEMPLATES_DIR.as_uri() + "/"
    fetcher = _fetcher_class()()
    html, own_css = _split_style(html)
    with _watch() as watcher:
        sheets = [_stylesheet(f"@page {{ size: {PAPERS[paper]}; }}", watcher)]
        sheets += [_stylesheet(css, watcher) for css in (print_css, own_css) if css]
        press_options = {}
        if for_press:
            sheets.append(_press_sheet(watcher))
            press_options = {"color_profiles": _press_profiles, "pdf_variant": "pdf/x-4"}
        source = HTML(string=html, base_url=base_url, url_fetcher=fetcher)

        def render(size=None, css=""):
            extra = [] if size is None else [_stylesheet(fit.size_css(size), watcher)]
            extra += [_stylesheet(css, watcher)] if css else []
            return source.render(stylesheets=sheets + extra, font_config=font_config, presentational_hints=False,
                                 cache=_images, **press_options)

        from generator.render import fit

        if gate and fit.wants_fit(html):  # a card: the largest type that keeps it on its page
            try:
                doc, fitted[name] = fit.fit(render, _base_size(own_css), fit_start)
            except fit.FitFailed as exc:
                raise RenderError(f"{name}: {exc}") from None
        else:
            doc = render()
            if gate:  # a last page holding only the tail: the lines a little tighter, at most twice
                doc = fit.without_tail(lambda css: render(css=css), doc)
        if gate:
            from generator.render import gate as layout_gate

            layout_gate.check(doc, name)  # before writing: a document that does not fit is never written
        if inspect is not None:
            inspect(doc)  # what the caller reads back from the layout (a kit: the page of each part)
        out = io.BytesIO()
        # Tagged: headings, lists, tables and figures with alt text reach screen readers, the language
        # and the title (shown in the title bar) come from <html lang> and <title>. PDF/UA-1 declares
        # that in the XMP metadata (pdfuaid:part 1); patches/pdftags.py adds what the claim needs.
        doc.write_pdf(out, pdf_identifier=b"rulesheets" + name.encode()[:16], pdf_tags=True,
                      pdf_variant="pdf/x-4" if for_press else "pdf/ua-1")
    if watcher.refused:
        raise RenderError(f"{name}: {watcher.refused[0]}")
    missing = glyphs.missing_characters(doc)  # from the fonts' cmaps; the PDF is not handed out
    if missing:
        raise RenderError(f"{name}: no font has a glyph for {glyphs.describe(missing)}; "
                          f"add a font with it to the locale's fonts")
    data = press.fixed_ids(out.getvalue()) if for_press else out.getvalue()
    return data, len(doc.pages)
