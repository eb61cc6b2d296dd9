"""Command line: `rulesheets build | check | serve | kit | rules | i18n | init`. The only place that turns errors into exit codes."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from generator import GAMES
from generator.core.errors import RulesheetsError
from generator.core.paths import default_output


def _list(value: str) -> tuple[str, ...]:
    return tuple(v for v in value.replace(" ", ",").split(",") if v)


def _many(values: list[str] | None, default: tuple[str, ...]) -> tuple[str, ...]:
    if not values:
        return default
    out: list[str] = []
    for v in values:
        out += _list(v)
    return tuple(dict.fromkeys(out))


def _positive(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got '{value}'") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, got {n}")
    return n


def _date(value: str):
    import datetime as dt

    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date like 2026-12-31, got '{value}'") from None


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, as for any other bad input
        self.exit(2, f"rulesheets: {message}\n")


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("rulesheets")
    except metadata.PackageNotFoundError:  # run from a copy of the sources that was never installed
        return "unknown (not installed)"


def parser() -> argparse.ArgumentParser:
    from generator.commands.helptext import HelpFormatter, epilog

    p = _Parser(prog="rulesheets", description="Compile rule models into localised rulebooks and score sheets.",
                formatter_class=HelpFormatter, epilog=epilog(None))
    p.add_argument("--version", action="version", version=f"rulesheets {_version()}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    def command(name, help):
        return sub.add_parser(name, help=help, description=help[0].upper() + help[1:] + ".",
                              formatter_class=HelpFormatter, epilog=epilog(name))

    def config(sp):
        sp.add_argument("--config", type=Path, metavar="FILE",
                        help="project file to read (default: rulesheets.toml in the working folder, if there is one); "
                             "flags given here win over it")

    def selection(sp):
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
        config(sp)

    def outputs(sp, out_help):
        sp.add_argument("--kinds", nargs="+", metavar="KIND", help="artifact kinds, from: {KINDS}; booklet and card-sheet are PDF only "
                        "(default: all but booklet and card-sheet)")
        sp.add_argument("--formats", nargs="+", metavar="FMT", help="formats, from: {FORMATS} (default: both)")
        sp.add_argument("--papers", nargs="+", metavar="PAPER", help="papers, from: {PAPERS} (default: both)")
        sp.add_argument("--out", type=Path, default=None, metavar="DIR", help=out_help)
        sp.add_argument("--jobs", type=_positive, default=0, metavar="N",
                        help="PDF worker processes: 0 or more (default 0: one per CPU)")
        sp.add_argument("--base-url", default=None, metavar="URL",
                        help="public address of the static site, http:// or https:// ending in /, for canonical links "
                             "and sitemap.xml (default: none; the site links relatively and has no sitemap)")
        sp.add_argument("--site-name", default=None, metavar="NAME",
                        help="the static site's name: 1 to 60 characters (default: rulesheets)")
        sp.add_argument("--site-logo", type=Path, default=None, metavar="FILE",
                        help="an image (.svg, .png or .webp, at most 200 kB) shown before the site's name (default: none)")

    b = command("build", "build every artifact into output/ (replaced atomically)")
    selection(b)
    outputs(b, "output folder: missing, empty or a previous output (default: output/ of the checkout, or ./output)")
    sheet_options(b)

    v = command("serve", "live preview: build, serve on 127.0.0.1, rebuild and reload pages on every change")
    selection(v)
    outputs(v, "preview folder (default: a folder in the cache)")
    v.add_argument("--port", type=_positive, default=8000, metavar="N",
                   help="port on 127.0.0.1: 1 to 65535 (default 8000; 0 picks a free one)")
    sheet_options(v)

    k = command("kit", "one print-ordered PDF (and HTML) for a game night with named players")
    k.add_argument("game", help="the game, from: {GAMES}")
    k.add_argument("--players", required=True, metavar='"A,B,..."|FILE',
                   help="the players: names separated by commas, or a UTF-8 file with one name a line "
                        "(at most 48 names of at most 24 characters)")
    k.add_argument("--locale", default=None, metavar="LANG",
                   help="a locale, from: {LOCALES} (default: the project file's only locale, else en)")
    k.add_argument("--paper", default=None, metavar="PAPER", help="paper, from: {PAPERS} (default: the locale's usual paper)")
    k.add_argument("--group", default=None, metavar="NAME", help="group name printed on the sheets (at most 60 characters)")
    k.add_argument("--date", type=_date, default=None, metavar="YYYY-MM-DD", help="date printed on the sheets")
    k.add_argument("--per-page", type=int, default=None, metavar="N",
                   help="Bunco tally sheets per page: 2 or 4, with cut lines (default 2; bunco kits only)")
    k.add_argument("--stake", default=None, metavar="AMOUNT",
                   help="Tonk stake: a positive amount with at most 2 decimals (default: the locale's usual stake)")
    k.add_argument("--currency", default=None, metavar="CODE", help="Tonk currency, from: {CURRENCIES} (default: the locale's)")
    k.add_argument("--rule", action="append", default=[], metavar="GAME.NAME=VALUE",
                   help="a house rule of the kit's game (repeatable; every NAME and VALUE: `rulesheets rules GAME`)")
    k.add_argument("--house-rules", type=Path, metavar="FILE.toml", help="house rules from a TOML file")
    k.add_argument("--strict", action="store_true", help="missing or fuzzy translations are errors")
    k.add_argument("--out", type=Path, default=None, metavar="DIR",
                   help="folder the kit is written to: missing, empty or an earlier kit's (default: kit/ in the output folder)")
    config(k)

    r = command("rules", "list every house rule: name, default, allowed values, what it does")
    r.add_argument("game", nargs="?", help="one game, from: {GAMES} (default: all)")

    c = command("check", "validate models, run every worked example, check catalogs and fonts; render nothing")
    selection(c)

    i = command("i18n", "message catalogs: extract, update, compile, status; init LANG adds a draft locale")
    i.add_argument("action", choices=("extract", "update", "compile", "status", "init"),
                   help="extract: the English templates (.pot); update: merge them into every catalog; compile: .mo "
                        "files; status: translated, fuzzy and missing per catalog; init: a new draft locale")
    i.add_argument("lang", nargs="?", metavar="LANG", help="init: the new locale's BCP 47 tag (es, es-MX, pt-BR)")
    i.add_argument("--locales", nargs="+", metavar="LANG", help="locales, from: {LOCALES} (default: all)")
    i.add_argument("--strict", action="store_true", help="status: exit 1 unless everything is translated")

    n = command("init", "write a commented project file, rulesheets.toml, in the working folder")
    n.add_argument("--config", type=Path, metavar="FILE",
                   help="where to write it (default: rulesheets.toml); an existing file is never replaced")
    return p


def sheet_options(b) -> None:
    s = b.add_argument_group("sheets")
    s.add_argument("--sets", type=int, default=None, metavar="N",
                   help="Bunco sets per evening on tally sheets and scorepads: 1 to 6 (default: the rules', 4)")
    s.add_argument("--group", default=None, metavar="NAME", help="group name printed on tally sheets (at most 60 characters)")
    s.add_argument("--date", type=_date, default=None, metavar="YYYY-MM-DD", help="date printed on tally sheets")
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


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return _run(args)
    except RulesheetsError as exc:
        for line in str(exc).splitlines():
            print(f"rulesheets: {line}" if ":" not in line.split(" ")[0] else line, file=sys.stderr)
        return exc.exit_code
    except Exception as exc:  # a broken template is bad input too: one line, exit 2
        from jinja2 import TemplateError

        if not isinstance(exc, TemplateError):
            raise
        from generator.core.errors import template_problem

        print(template_problem(exc), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("rulesheets: interrupted; output/ left as it was", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `rulesheets i18n status | head`: the reader has all it wanted
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _run(args) -> int:
    from generator.core.paths import discover_locales

    if args.command == "i18n":
        from generator.catalogs import maintain as catalogs

        if args.action == "init":
            from generator.catalogs.newlocale import init

            return init(args.lang)
        if args.lang:
            raise_usage(f"i18n {args.action} takes no LANG; use --locales {args.lang}")
        return catalogs.run(args.action, _many(args.locales, discover_locales()), strict=args.strict,
                            explicit=bool(args.locales))

    if args.command == "rules":
        return _list_rules(args.game)
    from generator.commands import project

    if args.command == "init":
        return project.init(args.config)
    project.apply(args, project.find_project(args.config))  # flags win over rulesheets.toml
    if args.command == "kit":
        return _kit(args)
    from generator.pipeline.build import DEFAULT_KINDS, Options, build, check, is_full

    games = _many(args.games, GAMES)
    locales = _many(args.locales, discover_locales())
    house_rules = _house_rules(args)
    if args.command == "check":
        prep = check(Options(games=games, locales=locales, strict=args.strict, house_rules=house_rules))
        n = sum(len(m.model.examples) for m in prep.models.values())
        print(f"checked {len(prep.models)} models, {n} worked examples, {len(prep.translators)} locales: all good")
        return 0
    from generator.edition.sheets import SheetOptions, parse_stake

    kinds = _many(args.kinds, DEFAULT_KINDS)
    if args.per_page is not None:
        from generator.commands.checks import check_per_page

        check_per_page(games, kinds, args.per_page)
    sheets = SheetOptions(sets=args.sets, group=args.group, date=args.date,
                          per_page=1 if args.per_page is None else args.per_page,
                          copies=args.copies, tables=args.tables,
                          stake=None if args.stake is None else parse_stake(args.stake),
                          currency=args.currency)
    opts = Options(games=games, locales=locales, formats=_many(args.formats, ("html", "pdf")),
                   papers=_many(args.papers, ("a4", "letter")),
                   out=args.out or (args.output_root if args.command == "build" else None) or default_output(),
                   jobs=args.jobs, strict=args.strict, sheets=sheets, base_url=args.base_url,
                   site_name=args.site_name, site_logo=args.site_logo, house_rules=house_rules, kinds=kinds)
    if args.command == "serve":
        from generator.commands.serve import serve

        return serve(opts, port=args.port, out=args.out)
    from generator.core.progress import Progress

    with Progress() as progress:
        report = build(opts, progress=progress.advance, on_plan=progress.start)
    kinds: dict[str, int] = {}
    for e in report.artifacts:
        kinds[e["format"]] = kinds.get(e["format"], 0) + 1
    made = ", ".join(f"{n} {fmt.upper()}" for fmt, n in sorted(kinds.items()))
    if report.noop:
        print(f"nothing changed: {len(report.artifacts)} artifacts ({made}) in {opts.out} are up to date ({report.seconds:.2f} s)")
    else:
        print(f"built {report.built} PDFs, reused {report.reused}, failed 0: {len(report.artifacts)} artifacts "
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


def _kit(args) -> int:
    """`rulesheets kit GAME --players ...`: check everything, render in memory, then write two files."""
    from generator.kit.assemble import KitOptions, kit_folder, make_kit, write_kit
    from generator.kit.players import read_players
    from generator.edition.sheets import SheetOptions, parse_stake

    if args.per_page is not None:
        from generator.commands.checks import check_kit_per_page

        check_kit_per_page(args.game, args.per_page)
    sheets = SheetOptions(group=args.group, date=args.date, per_page=2 if args.per_page is None else args.per_page,
                          stake=None if args.stake is None else parse_stake(args.stake), currency=args.currency)
    players = read_players(args.players)
    opts = KitOptions(args.game, tuple(players), args.locale, args.paper, sheets, _house_rules(args), args.out,
                      args.strict, output_root=args.output_root)
    kit = make_kit(opts)
    for path in write_kit(kit_folder(opts.out, opts.output_root), kit.files, opts.output_root):
        print(f"wrote {path}")
    sheets_line = ", ".join(f"{p['count']} {p['id']}" for p in kit.parts)
    print(f"{len(players)} players, {kit.pages} pages: {sheets_line}")
    return 0


def _house_rules(args) -> dict:
    from generator.model.houserules import merge_house_rules, parse_rule_options, read_house_rules

    from_file = read_house_rules(args.house_rules) if args.house_rules else {}
    return merge_house_rules(getattr(args, "project_house_rules", {}), from_file, parse_rule_options(args.rule))


def _list_rules(game: str | None) -> int:
    """`rulesheets rules [GAME]`: every house rule with its default, allowed values and one line."""
    from generator.edition.editions import allowed_text, show_value
    from generator.core.errors import InputError, Problem
    from generator.i18n.translate import load_translator
    from generator.model.loader import load_model, standard_values

    if game is not None and game not in GAMES:
        raise InputError(Problem("rules", None, f"unknown game '{game}' (known: {', '.join(GAMES)})"))
    english = load_translator("en", ())
    for g in (game,) if game else GAMES:
        model = load_model(g).model
        values = standard_values(model)
        print(f"{g}:")
        for rule in model.house_rules:
            print(f"  {g}.{rule.id} (default {show_value(model.rules[rule.id])}; allowed {allowed_text(rule)}): "
                  f"{rule.label}. {english.fill(rule.describe, values)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
