"""Page craft: paragraphs of the rulebooks whose last line is one short word (render/gate.short_endings).

`python -m generator.dev.craft [--games G,..] [--locales L,..] [--papers a4,letter] [-v]` lays out
every rulebook as the build does (print HTML, page furniture, cut-down fonts) and prints the count
per locale; -v lists each paragraph.
"""

from __future__ import annotations

import argparse
from collections import Counter

from generator.render.gate import ShortEnding


def document_endings(games=None, locales=None, papers=("a4", "letter"), house_rules=None, kinds=("rulebook",)):
    """{(game, locale, paper): [ShortEnding, ...]} over the rulebooks asked for (or documents of other
    kinds: then the key is (game, locale, "kind-paper"))."""
    from generator.pipeline.build import Options, prepare, print_stylesheets, render_html
    from generator.render import gate, pdf
    from generator.render.script import for_print

    kw = {"kinds": tuple(kinds), "formats": ("pdf",), "papers": tuple(papers)}
    if games:
        kw["games"] = tuple(games)
    if locales:
        kw["locales"] = tuple(locales)
    if house_rules:
        kw["house_rules"] = house_rules
    opts = Options(**kw)
    prep = prepare(opts)
    docs = render_html(prep, opts)
    extra = print_stylesheets(prep, docs)
    out: dict[tuple[str, str, str], list[ShortEnding]] = {}
    for key, html in sorted(docs.items(), key=lambda kv: tuple(map(str, kv[0]))):
        game, code, kind, table = key
        stem = kind if table is None else f"{kind}-table-{table}"
        for paper in papers:
            seen: list = []
            pdf.html_to_pdf(for_print(html, code), paper, f"{code}/{game}/{stem}-{paper}.pdf", extra[key],
                            inspect=lambda doc, code=code: seen.extend(gate.short_endings(doc, code)))
            out[(game, code, paper if kinds == ("rulebook",) else f"{stem}-{paper}")] = seen
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m generator.dev.craft")
    ap.add_argument("--games", default="")
    ap.add_argument("--locales", default="")
    ap.add_argument("--papers", default="a4,letter")
    ap.add_argument("--kinds", default="rulebook", help="artifact kinds (default: rulebook)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    split = lambda s: [x for x in s.split(",") if x]  # noqa: E731
    found = document_endings(split(args.games) or None, split(args.locales) or None, split(args.papers),
                             kinds=tuple(split(args.kinds)))
    per_locale: Counter = Counter()
    for (game, code, paper), items in found.items():
        per_locale[code] += len(items)
        if args.verbose:
            for f in items:
                stem = paper if "-" in paper else f"rulebook-{paper}"
                print(f.line(f"{code}/{game}/{stem}.pdf"))
    for code in sorted({k[1] for k in found}):
        print(f"{code}: {per_locale[code]}")
    print(f"total: {sum(per_locale.values())} over {len(found)} documents")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
