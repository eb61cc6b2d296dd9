"""`rulesheets check`: validate models, run every worked example, check catalogs and fonts; render nothing."""

from __future__ import annotations

from generator.commands import options

HELP = "validate models, run every worked example, check catalogs and fonts; render nothing"


def add_arguments(p) -> None:
    options.add_selection(p)


def run(args) -> int:
    from generator.core.paths import discover_locales
    from generator.pipeline.build import Options, check

    args = options.with_project(args)
    games = options.many(args.games, options.games())
    locales = options.many(args.locales, discover_locales())
    prep = check(Options(games=games, locales=locales, strict=args.strict, house_rules=options.house_rules(args)))
    n = sum(len(m.model.examples) for m in prep.models.values())
    print(f"checked {len(prep.models)} models, {n} worked examples, {len(prep.translators)} locales: all good")
    return 0
