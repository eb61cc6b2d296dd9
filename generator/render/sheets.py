"""HTML for the printable sheets, from the rule model, the engine and the host's options."""

from __future__ import annotations

from babel.dates import format_date

from ..i18n import Translator
from ..model import GameModel
from ..sheets import SITUATION_TEXT, SITUATIONS, SheetOptions, payments, ranking_rows
from .html import environment, locale_globals, table_label

ROUNDS = 6


def _render(template: str, model: GameModel, tr: Translator, title_msgid: str, kind: str, **context) -> str:
    g = locale_globals(tr)
    title = g["_"](title_msgid)
    html = environment().get_template(template).render(
        **g, title=title.striptags(), description=title.striptags(), author=model.author,
        published=model.published.isoformat(), body_class=f"sheet {kind} game-{model.game}",
        facts=model.facts, rounds=ROUNDS, **context)
    return html


def tally_sheet(model: GameModel, tr: Translator, opts: SheetOptions) -> str:
    date = tr.digits(format_date(opts.date, "long", locale=tr.code)) if opts.date else ""
    return _render("tally-sheet.html.j2", model, tr, "Bunco tally sheet", "tally-sheet",
                   opts=opts, date=date, wipeout=model.house_rule("wipeout"))


def scorepad(model: GameModel, tr: Translator, opts: SheetOptions, table: int) -> str:
    return _render("scorepad.html.j2", model, tr, "Bunco scorepad", "scorepad", opts=opts,
                   label=table_label(tr, table, opts.tables))


def payout_sheet(model: GameModel, tr: Translator, opts: SheetOptions) -> str:
    currency = opts.currency or tr.config.currency
    stake = opts.stake if opts.stake is not None else tr.config.stake
    rows = []
    for i, situation in enumerate(SITUATIONS[2]):
        cells = []
        for n in (2, 3):
            s = SITUATIONS[n][i]
            moves = [{"payer": payer, "payee": payee, "amount": units * stake,
                      "text": tr.money(units * stake, currency)} for (payer, payee), units in payments(s).items()]
            totals_text = " · ".join(f"{p} {tr.number(t)}" for p, t in s.totals.items())
            cells.append({"players": n, "totals": s.totals, "totals_text": totals_text, "transfers": moves})
        title, rule = SITUATION_TEXT[situation.id]
        rows.append({"id": situation.id, "title": title, "rule": rule, "cells": cells})
    return _render("payout-sheet.html.j2", model, tr, "Tonk payouts", "payout-sheet",
                   rows=rows, stake_text=tr.money(stake, currency))


def hand_ranking(model: GameModel, tr: Translator, opts: SheetOptions) -> str:
    rows = ranking_rows()
    return _render("hand-ranking.html.j2", model, tr, "Stop the Bus: hand ranking", "hand-ranking",
                   rows=rows, total=sum(r["count"] for r in rows), tokens=model.facts.get("tokens_each", 3))
