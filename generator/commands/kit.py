"""`rulesheets kit GAME --players ...`: check everything, render in memory, then write two files."""

from __future__ import annotations

from pathlib import Path

from generator.commands import options
from generator.core.lifecycle import say

HELP = "one print-ordered PDF (and HTML) for a game night with named players"


def add_arguments(k) -> None:
    k.add_argument("game", help="the game, from: {GAMES}")
    k.add_argument("--players", required=True, metavar='"A,B,..."|FILE',
                   help="the players: names separated by commas, or a UTF-8 file with one name a line "
                        "(at most 48 names of at most 24 characters)")
    k.add_argument("--locale", default=None, metavar="LANG",
                   help="a locale, from: {LOCALES} (default: the project file's only locale, else en)")
    k.add_argument("--paper", default=None, metavar="PAPER", help="paper, from: {PAPERS} (default: the locale's usual paper)")
    k.add_argument("--group", default=None, metavar="NAME", help="group name printed on the sheets (at most 60 characters)")
    k.add_argument("--date", type=options.date, default=None, metavar="YYYY-MM-DD", help="date printed on the sheets")
    k.add_argument("--per-page", type=int, default=None, metavar="N",
                   help="Bunco tally sheets per page: 2 or 4, with cut lines (default 2; bunco kits only)")
    k.add_argument("--stake", default=None, metavar="AMOUNT",
                   help="Tonk stake: a positive amount with at most 2 decimals (default: the locale's usual stake)")
    k.add_argument("--currency", default=None, metavar="CODE", help="Tonk currency, from: {CURRENCIES} (default: the locale's)")
    k.add_argument("--rule", action="append", default=[], metavar="GAME.NAME=VALUE",
                   help="a house rule of the kit's game (repeatable; every NAME and VALUE: `rulesheets rules GAME`)")
    k.add_argument("--house-rules", type=Path, metavar="FILE.toml", help="house rules from a TOML file")
    k.add_argument("--strict", action="store_true", help="missing or fuzzy translations are errors")
    options.add_press(k)
    k.add_argument("--out", type=Path, default=None, metavar="DIR",
                   help="folder the kit is written to: missing, empty or an earlier kit's (default: kit/ in the output folder)")
    options.add_config(k)


def run(args) -> int:
    from generator.edition.sheets import SheetOptions, parse_stake
    from generator.kit.assemble import KitOptions, kit_folder, make_kit, write_kit
    from generator.kit.players import read_players

    args = options.with_project(args)
    if args.per_page is not None:
        from generator.commands.checks import check_kit_per_page

        check_kit_per_page(args.game, args.per_page)
    sheets = SheetOptions(group=args.group, date=args.date, per_page=2 if args.per_page is None else args.per_page,
                          stake=None if args.stake is None else parse_stake(args.stake), currency=args.currency)
    players = read_players(args.players)
    opts = KitOptions(args.game, tuple(players), args.locale, args.paper, sheets, options.house_rules(args), args.out,
                      args.strict, output_root=args.output_root, press=args.press)
    options.check_patch_versions(pdfs=True)
    kit = make_kit(opts)
    for path in write_kit(kit_folder(opts.out, opts.output_root), kit.files, opts.output_root):
        say(f"wrote {path}")
    from generator.i18n.translate import COMMON_DOMAIN, load_translator
    from generator.kit.summary import kit_summary

    say(kit_summary(load_translator(opts.locale, (COMMON_DOMAIN,)), len(players), kit.pages, kit.parts))
    return 0
