"""`rulesheets i18n extract | update | compile | status | init LANG`: the message catalogs."""

from __future__ import annotations

from generator.commands import options

HELP = "message catalogs: extract, update, compile, status; init LANG adds a draft locale"


def add_arguments(i) -> None:
    i.add_argument("action", choices=("extract", "update", "compile", "status", "init"),
                   help="extract: the English templates (.pot); update: merge them into every catalog; compile: .mo "
                        "files; status: translated, fuzzy and missing per catalog; init: a new draft locale")
    i.add_argument("lang", nargs="?", metavar="LANG", help="init: the new locale's BCP 47 tag (es, es-MX, pt-BR)")
    i.add_argument("--locales", nargs="+", metavar="LANG", help="locales, from: {LOCALES} (default: all)")
    i.add_argument("--strict", action="store_true", help="status: exit 1 unless everything is translated")


def run(args) -> int:
    from generator.catalogs import maintain as catalogs
    from generator.core.paths import discover_locales

    if args.action == "init":
        from generator.catalogs.newlocale import init

        return init(args.lang)
    if args.lang:
        options.raise_usage(f"i18n {args.action} takes no LANG; use --locales {args.lang}")
    return catalogs.run(args.action, options.many(args.locales, discover_locales()), strict=args.strict,
                        explicit=bool(args.locales))
