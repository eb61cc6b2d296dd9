"""`rulesheets build`: every artifact into output/ (replaced atomically), with a one-line summary."""

from __future__ import annotations

from generator.commands import options
from generator.core.lifecycle import say

HELP = "build every artifact into output/ (replaced atomically)"


def add_arguments(p) -> None:
    options.add_selection(p)
    options.add_outputs(p, "output folder: missing, empty or a previous output (default: output/ of the checkout, "
                           "or ./output)")
    options.add_sheet_options(p)


def run(args) -> int:
    from generator.core.progress import Progress
    from generator.pipeline.build import build, is_full

    opts = options.build_options(options.with_project(args))
    options.check_patch_versions(pdfs="pdf" in opts.formats)
    with Progress() as progress:
        report = build(opts, progress=progress.advance, on_plan=progress.start)
    kinds: dict[str, int] = {}
    for e in report.artifacts:
        kinds[e["format"]] = kinds.get(e["format"], 0) + 1
    made = ", ".join(f"{n} {fmt.upper()}" for fmt, n in sorted(kinds.items()))
    if report.noop:
        say(f"nothing changed: {len(report.artifacts)} artifacts ({made}) in {opts.out} are up to date ({report.seconds:.2f} s)")
    else:
        say(f"built {report.built} PDFs, reused {report.reused}, failed 0: {len(report.artifacts)} artifacts "
              f"({made}) in {opts.out}, {report.seconds:.1f} s; manifest.json lists them")
        print("stages: " + ", ".join(f"{k} {v:.1f} s" for k, v in report.stages.items()))
        if not opts.base_url and is_full(opts):  # the site was made
            print("site: no --base-url, so relative links only: no canonical, Open Graph URL, sitemap.xml or robots.txt")
        elif is_full(opts) and not _site_at_host_root(opts.base_url):
            print(f"site: no robots.txt, since crawlers read it only at a host's root and {opts.base_url} is not one; "
                  f"add 'Sitemap: {opts.base_url}sitemap.xml' to the host's robots.txt")
    return 0


def _site_at_host_root(base_url: str) -> bool:
    from generator.site.builder import at_host_root

    return at_host_root(base_url)
