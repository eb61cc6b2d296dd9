"""Tonk's payout sheet: every way a hand ends, for 2 and 3 players, paid out by the engine at the table's stake."""

from __future__ import annotations

from generator.edition.sheets import SheetOptions
from generator.games.tonk import engine as tonk
from generator.i18n.translate import N_, Translator
from generator.model.examples import resolve_fact_refs
from generator.render.html import model_text
from generator.render.sheets import render_sheet, stake_text


def situation_totals(situation, players: int, values: dict) -> dict[str, int]:
    """A situation's sample totals for `players` players, `=expressions` worked out under the edition's rules."""
    totals, missing = resolve_fact_refs(dict(situation.totals[players]), values)
    if missing:  # the model loader has vetted every name; this is a programming error
        raise ValueError(f"payout situation '{situation.id}': cannot compute {missing}")
    return totals


def transfers(situation, totals: dict[str, int], rules: tonk.Rules, stake: int = 1) -> list[tonk.Transfer]:
    """Who pays whom in a situation, computed by the engine under the edition's rules."""
    if situation.how == "dealt":
        return tonk.dealt_tonk_transfers(totals, stake, rules=rules)
    if situation.how in ("went_out", "went_out_discard"):
        return tonk.went_out_transfers(list(totals), situation.winner, discarded=situation.how == "went_out_discard",
                                       stake=stake, by_new_spreads=situation.by_new_spreads, rules=rules)
    if situation.how == "knock":
        return tonk.knock_transfers(totals, situation.knocker, stake, rules=rules)
    return tonk.stock_out_transfers(totals, stake, rules=rules)


def payments(situation, totals: dict[str, int], rules: tonk.Rules) -> dict[tuple[str, str], int]:
    """Stake units each payer owes each payee: a multiplied and a single stake to the same player add up."""
    owed: dict[tuple[str, str], int] = {}
    for t in transfers(situation, totals, rules):
        owed[(t.payer, t.payee)] = owed.get((t.payer, t.payee), 0) + t.amount
    return owed


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
    return render_sheet("tonk/payout-sheet.html.j2", edition, tr, N_("Tonk payouts"), "payout-sheet",
                        rows=rows, stake_text=stake_text(tr, opts))


def card(edition, tr: Translator, opts: SheetOptions) -> dict:
    """The card starts with what each card counts and the stake in play."""
    return {"card_header": "tonk/card-header.html.j2"}
