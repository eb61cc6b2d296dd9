"""HTML for the printable sheets, from the game's edition (rules, model, engine) and the host's options."""

from __future__ import annotations

from babel.dates import format_date

from generator.i18n.translate import Translator
from generator.edition.sheets import SheetOptions, payments, ranking_rows, situation_totals
from generator.render.html import (environment, house_rules_box, locale_globals, model_text, rules_in_force, table_label)

#: Titles the code passes to templates (extracted into the common catalog with the templates' strings).
TITLES = ("{game}: quick reference", "{game}: game night kit", "Table signs")


def _render(template: str, edition, tr: Translator, title_msgid: str, kind: str, title_values=None,
            **context) -> str:
    g = locale_globals(tr)
    title = g["_"](title_msgid, **(title_values or {}))
    model = edition.model
    html = environment().get_template(template).render(
        **g, title=title.striptags(), description=title.striptags(), author=model.author,
        published=model.published.isoformat(), body_class=f"sheet {kind} game-{model.game}",
        rules=edition.rules, values=edition.values, rules_in_force=rules_in_force(edition), **context)
    return html


def sets(edition, opts: SheetOptions) -> int:
    """Sets on a tally sheet or scorepad: the host's --sets, else the rules' sets per evening."""
    return opts.sets if opts.sets is not None else edition.rules.sets_per_evening


def tally_sheet(edition, tr: Translator, opts: SheetOptions, table=None, names: tuple[str, ...] = ()) -> str:
    """Blank tally sheets (`opts.copies` pages), or one per name with the name printed (a kit)."""
    date = tr.digits(format_date(opts.date, "long", locale=tr.config.babel)) if opts.date else ""
    return _render("tally-sheet.html.j2", edition, tr, "Bunco tally sheet", "tally-sheet",
                   opts=opts, sets=sets(edition, opts), date=date, names=list(names))


def scorepad(edition, tr: Translator, opts: SheetOptions, table: int) -> str:
    return _render("scorepad.html.j2", edition, tr, "Bunco scorepad", "scorepad", opts=opts,
                   sets=sets(edition, opts), label=table_label(tr, table, opts.tables))


def stake_text(tr: Translator, opts: SheetOptions) -> str:
    """The Tonk stake in force: the host's --stake and --currency, else the locale's usual ones."""
    stake = opts.stake if opts.stake is not None else tr.config.stake
    return tr.money(stake, opts.currency or tr.config.currency)


def payout_sheet(edition, tr: Translator, opts: SheetOptions, table=None) -> str:
    currency = opts.currency or tr.config.currency
    stake = opts.stake if opts.stake is not None else tr.config.stake
    game, values = edition.model.game, edition.values
    rows = []
    for situation in edition.model.payouts:
        if not edition.applies(situation.when):
            continue
        cells = []
        for n in sorted(situation.totals):
            totals = situation_totals(situation, n, values)
            moves = [{"payer": payer, "payee": payee, "amount": units * stake,
                      "text": tr.money(units * stake, currency)}
                     for (payer, payee), units in payments(situation, totals, edition.rules).items()]
            totals_text = " · ".join(f"{p} {tr.number(t)}" for p, t in totals.items())
            cells.append({"players": n, "totals": totals, "totals_text": totals_text, "transfers": moves})
        rows.append({"id": situation.id, "title": model_text(tr, game, situation.title, values),
                     "rule": model_text(tr, game, situation.rule, values), "cells": cells})
    return _render("payout-sheet.html.j2", edition, tr, "Tonk payouts", "payout-sheet",
                   rows=rows, stake_text=stake_text(tr, opts))


def hand_ranking(edition, tr: Translator, opts: SheetOptions, table=None) -> str:
    rows = ranking_rows(edition.rules)
    return _render("hand-ranking.html.j2", edition, tr, "Stop the Bus: hand ranking", "hand-ranking",
                   rows=rows, total=sum(r["count"] for r in rows), tokens=edition.rules.tokens)


def quick_reference(edition, tr: Translator, opts: SheetOptions, table=None) -> str:
    """The whole game on one page: the model's quick-reference points under the edition's rules."""
    model, values = edition.model, edition.values
    groups = []
    for group in model.quick_reference:
        points = [model_text(tr, model.game, p if isinstance(p, str) else p.text.strip(), values)
                  for p in group.points if isinstance(p, str) or edition.applies(p.when)]
        groups.append({"heading": model_text(tr, model.game, group.heading, values), "points": points})
    ranking = ranking_rows(edition.rules) if model.game == "stop-the-bus" else []
    name = model_text(tr, model.game, model.name, values)
    return _render("quick-reference.html.j2", edition, tr, "{game}: quick reference", "quick-reference",
                   title_values={"game": name}, game=model.game, game_name=name, groups=groups,
                   ranking=ranking, stake_text=stake_text(tr, opts), house_rules=house_rules_box(edition, tr))
