"""Golden HTML snapshots of the rulebooks and sheets (en, fr). `python -m tests.golden --update` rewrites them."""

from __future__ import annotations

import sys
from pathlib import Path

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
LOCALES = ("en", "fr")


def render_all() -> dict[str, str]:
    """Every HTML document of the golden locales, by relative path, rendered in memory."""
    from generator.pipeline.build import Options, prepare, render_html

    opts = Options(locales=LOCALES, formats=("html",))
    docs = render_html(prepare(opts), opts)
    out = {}
    for (game, code, kind, table), html in docs.items():
        stem = kind if table is None else f"{kind}-table-{table}"
        out[f"{code}/{game}/{stem}.html"] = html
    return out


def update() -> None:
    for rel, html in render_all().items():
        path = GOLDEN_DIR / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(html, encoding="utf-8")
        print(f"wrote tests/golden/{rel}")


if __name__ == "__main__":
    if "--update" not in sys.argv:
        sys.exit("usage: python -m tests.golden --update")
    update()
