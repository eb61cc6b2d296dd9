"""Cumulative Layout Shift of site pages in Chromium while the web fonts arrive late (issue 32).

The site is served over HTTP from a thread; every .woff2 answer is held back `delay` seconds, so the
first paint is in the fallback fonts, then the web fonts swap in. The browser has the fonts of a plain
Linux desktop (DejaVu Sans as sans-serif), none of the Noto families the site serves. CLS is the sum of
the page's 'layout-shift' entries without recent input, read from a PerformanceObserver, as Lighthouse
counts it for a page load. `python -m tests.layoutshift SITE [PAGE...]` prints each page's figure.
"""

from __future__ import annotations

import functools
import http.server
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from tests.chromium import CHROMIUM, CHROMIUM_ARGS, fonts_only

#: The system fonts of the measuring browser: what a Linux visitor without Noto has.
SYSTEM_FONTS = ("DejaVu Sans", "DejaVu Sans:bold", "DejaVu Sans Mono")
OBSERVER = """
window.__cls = 0;
new PerformanceObserver(list => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value; })
  .observe({type: 'layout-shift', buffered: true});
"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    #: Seconds each .woff2 answer is held back (each request in a thread of its own: they wait together).
    font_delay = 0.0

    def do_GET(self):
        if self.path.split("?")[0].endswith(".woff2") and self.font_delay:
            time.sleep(self.font_delay)
        super().do_GET()

    def log_message(self, *args):
        pass


@contextmanager
def serve(folder: Path, font_delay: float = 0.0):
    """http://127.0.0.1:PORT/ serving folder, its fonts `font_delay` seconds late, for as long as the block runs."""
    handler = type("_Held", (_Quiet,), {"font_delay": font_delay})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def browser():
    """Chromium (Debian's, through Playwright) with only the SYSTEM_FONTS installed."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="cls-fonts-") as tmp:
        env = fonts_only(Path(tmp), SYSTEM_FONTS)
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, env=env)
            try:
                yield b
            finally:
                b.close()


def layout_shift(b, url: str, width: int = 412, height: int = 900) -> float:
    """The page's CLS as served (`serve` holds the fonts back), at a phone's width by default (text wraps most there)."""
    page = b.new_page(viewport={"width": width, "height": height})
    try:
        page.add_init_script(OBSERVER)
        page.goto(url, wait_until="load")
        page.evaluate("document.fonts.ready.then(() => true)")
        page.wait_for_timeout(300)
        assert page.evaluate("Array.from(document.fonts).some(f => f.status === 'loaded')"), "no web font loaded"
        return page.evaluate("window.__cls")
    finally:
        page.close()


def measure(site: Path, pages: list[str], delay: float = 0.6, **kw) -> dict[str, float]:
    """CLS of each page with its web fonts `delay` seconds late."""
    with serve(site, font_delay=delay) as root, browser() as b:
        return {rel: layout_shift(b, root + rel, **kw) for rel in pages}


if __name__ == "__main__":
    site = Path(sys.argv[1])
    pages = sys.argv[2:] or sorted(str(p.relative_to(site)) for p in site.glob("*/**/index.html"))
    for rel, cls in measure(site, pages).items():
        print(f"{cls:.3f}  {rel}")
