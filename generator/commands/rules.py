"""`rulesheets rules [GAME]`: every house rule with its default, allowed values and one line."""

from __future__ import annotations

from generator.commands import options

HELP = "list every house rule: name, default, allowed values, what it does"


def add_arguments(r) -> None:
    r.add_argument("game", nargs="?", help="one game, from: {GAMES} (default: all)")


def run(args) -> int:
    from generator.core.errors import InputError, Problem
    from generator.edition.editions import allowed_text, show_value
    from generator.i18n.translate import load_translator
    from generator.model.loader import load_model, standard_values

    games, game = options.games(), args.game
    if game is not None and game not in games:
        raise InputError(Problem("rules", None, f"unknown game '{game}' (known: {', '.join(games)})"))
    english = load_translator("en", ())
    for g in (game,) if game else games:
        model = load_model(g).model
        values = standard_values(model)
        print(f"{g}:")
        for rule in model.house_rules:
            print(f"  {g}.{rule.id} (default {show_value(model.rules[rule.id])}; allowed {allowed_text(rule)}): "
                  f"{rule.label}. {english.fill(rule.describe, values)}")
    return 0
