"""What several commands parse the same way: lists, numbers, dates, the selection, outputs, sheets, house rules,
and the project file (rulesheets.toml) under the flags."""

from __future__ import annotations

import argparse
from pathlib import Path


def split_list(value: str) -> tuple[str, ...]:
    return tuple(v for v in value.replace(" ", ",").split(",") if v)


def many(values: list[str] | None, default: tuple[str, ...]) -> tuple[str, ...]:
    """`--x a,b c` as ("a", "b", "c"), each once, in order; `default` when not given."""
    if not values:
        return default
    out: list[str] = []
    for v in values:
        out += split_list(v)
    return tuple(dict.fromkeys(out))


def positive(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got '{value}'") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, got {n}")
    return n


def port(value: str) -> int:
    n = positive(value)
    if n > 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, got {n}")
    return n


def jobs(requested: int) -> int:
    """--jobs, at most one worker per CPU this process may use (each worker holds a few hundred MB)."""
    import os
    import sys

    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    if requested > cpus:
        print(f"rulesheets: --jobs {requested} is more than the {cpus} CPUs here; using {cpus}", file=sys.stderr)
        return cpus
    return requested


def date(value: str):
    import datetime as dt

    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date like 2026-12-31, got '{value}'") from None


def games() -> tuple[str, ...]:
    from generator.core.registry import GAMES

    return tuple(GAMES)


def add_config(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--config", type=Path, metavar="FILE",
                    help="project file to read (default: rulesheets.toml in the working folder, if there is one); "
                         "flags given here win over it")


def add_selection(sp: argparse.ArgumentParser) -> None:
    """Which games and locales, strictness, house rules, the project file (build, serve, check)."""
    sp.add_argument("--games", nargs="+", metavar="GAME", help="games, from: {GAMES} (default: all)")
    sp.add_argument("--locales", nargs="+", metavar="LANG",
                    help="locales, from: {LOCALES} (default: every folder of locales/)")
    sp.add_argument("--strict", action="store_true",
                    help="missing or fuzzy translations of complete locales are errors, not English fallbacks")
    sp.add_argument("--rule", action="append", default=[], metavar="GAME.NAME=VALUE",
                    help="a house rule, e.g. bunco.wipeout=true (repeatable); GAME from: {GAMES}; "
                         "every NAME and its allowed VALUEs: `rulesheets rules`")
    sp.add_argument("--house-rules", type=Path, metavar="FILE.toml",
                    help="house rules from a TOML file with one table per game ([bunco] wipeout = true)")
    add_config(sp)


def add_outputs(sp: argparse.ArgumentParser, out_help: str) -> None:
    """Which artifacts, where, how many workers, the site's address and name (build, serve)."""
    sp.add_argument("--kinds", nargs="+", metavar="KIND", help="artifact kinds, from: {KINDS}; booklet and card-sheet are PDF only "
                    "(default: all but booklet and card-sheet)")
    sp.add_argument("--formats", nargs="+", metavar="FMT", help="formats, from: {FORMATS} (default: both)")
    sp.add_argument("--papers", nargs="+", metavar="PAPER", help="papers, from: {PAPERS} (default: both)")
    sp.add_argument("--out", type=Path, default=None, metavar="DIR", help=out_help)
    sp.add_argument("--jobs", type=positive, default=0, metavar="N",
                    help="PDF worker processes: 0 or more (default 0: one per CPU)")
    sp.add_argument("--base-url", default=None, metavar="URL",
                    help="public address of the static site, http:// or https:// ending in /, for canonical links "
                         "and sitemap.xml (default: none; the site links relatively and has no sitemap)")
    sp.add_argument("--site-name", default=None, metavar="NAME",
                    help="the static site's name: 1 to 60 characters (default: rulesheets)")
    sp.add_argument("--site-logo", type=Path, default=None, metavar="FILE",
                    help="an image (.svg, .png or .webp, at most 200 kB) shown before the site's name (default: none)")
    add_press(sp)


def add_press(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--press", action="store_true",
                    help="PDFs for a print shop: 3 mm bleed, crop marks, PDF/X-4 with a CMYK output intent "
                         "(default: PDFs for a home printer and screen readers, PDF/UA-1)")


def add_sheet_options(b: argparse.ArgumentParser) -> None:
    s = b.add_argument_group("sheets")
    s.add_argument("--sets", type=int, default=None, metavar="N",
                   help="Bunco sets per evening on tally sheets and scorepads: 1 to 6 (default: the rules', 4)")
    s.add_argument("--group", default=None, metavar="NAME", help="group name printed on tally sheets (at most 60 characters)")
    s.add_argument("--date", type=date, default=None, metavar="YYYY-MM-DD", help="date printed on tally sheets")
    s.add_argument("--per-page", type=int, default=None, metavar="N",
                   help="tally sheets per page: 1, 2 or 4, with cut lines (default 1); kinds that take it: {PERPAGE}")
    s.add_argument("--copies", type=int, default=1, metavar="N", help="pages of tally sheets: 1 to 100 (default 1)")
    s.add_argument("--tables", type=int, default=3, metavar="N", help="Bunco tables, one scorepad each: 1 to 12 (default 3)")
    s.add_argument("--stake", default=None, metavar="AMOUNT",
                   help="Tonk stake for the payout sheet: a positive amount with at most 2 decimals "
                        "(default: the locale's usual stake)")
    s.add_argument("--currency", default=None, metavar="CODE",
                   help="currency for the payout sheet, from: {CURRENCIES} (default: the locale's)")


def raise_usage(message: str):
    from generator.core.errors import InputError, Problem

    raise InputError(Problem("command line", None, message))


def with_project(args):
    """The arguments with every option not given filled in from the project file (flags win)."""
    from generator.commands import project

    return project.apply(args, project.find_project(args.config))


def house_rules(args) -> dict:
    """The project file's house rules, then --house-rules FILE, then each --rule (the last word wins)."""
    from generator.model.houserules import merge_house_rules, parse_rule_options, read_house_rules

    from_file = read_house_rules(args.house_rules) if args.house_rules else {}
    return merge_house_rules(getattr(args, "project_house_rules", {}), from_file, parse_rule_options(args.rule))


def build_options(args):
    """The pipeline's Options for `build` and `serve`, from their arguments (after `with_project`)."""
    from generator.core.paths import default_output, discover_locales
    from generator.edition.sheets import SheetOptions, parse_stake
    from generator.pipeline.build import DEFAULT_KINDS, Options

    selected, locales, rules = many(args.games, games()), many(args.locales, discover_locales()), house_rules(args)
    kinds = many(args.kinds, DEFAULT_KINDS)
    if args.per_page is not None:
        from generator.commands.checks import check_per_page

        check_per_page(selected, kinds, args.per_page)
    sheets = SheetOptions(sets=args.sets, group=args.group, date=args.date,
                          per_page=1 if args.per_page is None else args.per_page,
                          copies=args.copies, tables=args.tables,
                          stake=None if args.stake is None else parse_stake(args.stake),
                          currency=args.currency)
    return Options(games=selected, locales=locales, formats=many(args.formats, ("html", "pdf")),
                   papers=many(args.papers, ("a4", "letter")),
                   out=args.out or (args.output_root if args.command == "build" else None) or default_output(),
                   jobs=jobs(args.jobs), strict=args.strict, sheets=sheets, base_url=args.base_url,
                   site_name=args.site_name, site_logo=args.site_logo, house_rules=rules, kinds=kinds,
                   press=args.press)


def check_patch_versions(pdfs: bool) -> None:
    """Before any work: with PDFs to draw, refuse a WeasyPrint the patches do not mirror (one line, exit 2);
    warn once about other libraries whose speed patches will be left out."""
    from generator.patches import versions

    if pdfs:
        versions.check()
    else:
        versions.warn_unsupported()
