"""The peer in `make bench`: headless Chromium printing the same HTML artifacts as WeasyPrint.

Run in the bench's copy of the project after a build (`python -m generator.peer OUTPUT_DIR`); prints
one JSON line. Each HTML artifact is printed on A4 by both engines, one after the other, in two
rounds; each document counts with its faster round (best of two), so a burst of load from
elsewhere on the machine hits both engines alike. WeasyPrint gets exactly what the build gives it
(the print HTML and its page furniture, see build.print_stylesheets); Chromium opens the HTML
artifact as written, the file a reader would print from a browser.

Chromium prints each document twice: as a browser prints by default (`plain`: no structure tags, no
outline, no backgrounds, no page numbers) and asked for what every one of our PDFs has (`same`:
tagged for screen readers, an outline from the headings, backgrounds, and page x / y at the foot of
each page, as the rulebooks carry). The second is the like-for-like figure; the first is kept
because the bench printed it first.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
#: One warm browser with nothing running beside the page (no updates, sync or network chatter).
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
ROUNDS = 2


def _page_margins() -> dict[str, str]:
    """The margins of templates/css/page.css.j2 (`margin: top [right [bottom [left]]]`), for Chromium's page.pdf."""
    from generator.core.paths import TEMPLATES_DIR

    text = (TEMPLATES_DIR / "css" / "page.css.j2").read_text(encoding="utf-8")
    v = re.search(r"@page\s*\{[^}]*\bmargin:\s*([^;}]+)", text).group(1).split()
    top = v[0]
    right = v[1] if len(v) > 1 else top
    bottom = v[2] if len(v) > 2 else top
    return {"top": top, "right": right, "bottom": bottom, "left": v[3] if len(v) > 3 else right}


#: Chromium asked for the features our PDFs have (see the module's docstring), on the documents' own margins.
SAME = {"tagged": True, "outline": True, "print_background": True, "display_header_footer": True,
        "header_template": "<span></span>",
        "footer_template": '<div style="font-size: 8pt; width: 100%; text-align: center">'
                           '<span class="pageNumber"></span> / <span class="totalPages"></span></div>',
        "margin": _page_margins()}


def compare(out: Path) -> dict:
    from playwright.sync_api import sync_playwright

    from generator.pipeline.build import Artifact, Options, prepare, print_stylesheets, render_html
    from generator.render.pdf import html_to_pdf
    from generator.render.script import for_print

    opts = Options()
    prep = prepare(opts)
    docs = render_html(prep, opts)
    extra = print_stylesheets(prep, docs)
    keys = sorted(docs, key=lambda k: tuple(map(str, k)))
    best: dict[tuple, list[float]] = {k: [float("inf")] * 3 for k in keys}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        # Warm both engines on one document first: the first render pays for loading fonts.
        warm = keys[0]
        html_to_pdf(for_print(docs[warm], warm[1]), "a4", "warm", extra[warm])
        page.goto((out / Artifact(warm[0], warm[1], warm[2], "html", None, warm[3]).path).as_uri())
        page.pdf(format="A4")
        for _ in range(ROUNDS):
            for key in keys:
                game, code, kind, table = key
                t = time.perf_counter()
                html_to_pdf(for_print(docs[key], code), "a4", kind, extra[key])
                weasy = time.perf_counter() - t
                url = (out / Artifact(game, code, kind, "html", None, table).path).as_uri()
                chrome = []
                for options in ({}, SAME):
                    t = time.perf_counter()
                    page.goto(url, wait_until="load")
                    page.pdf(format="A4", **options)
                    chrome.append(time.perf_counter() - t)
                best[key] = [min(b, v) for b, v in zip(best[key], [weasy, *chrome])]
        browser.close()
    by_kind: dict[str, list[float]] = {}
    for (game, code, kind, table), times in best.items():
        group = "rulebook" if kind == "rulebook" else "sheets"
        acc = by_kind.setdefault(group, [0.0, 0.0, 0.0])
        for i, v in enumerate(times):
            acc[i] += v
    return {"documents": len(keys), "weasyprint": sum(t[0] for t in best.values()),
            "chromium": sum(t[1] for t in best.values()), "chromium_same": sum(t[2] for t in best.values()),
            "by_kind": by_kind}


if __name__ == "__main__":
    print(json.dumps(compare(Path(sys.argv[1]))))
