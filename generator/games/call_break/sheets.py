"""Call Break's score sheet (one per table of four: players x deals, with running totals) and its card's header."""

from __future__ import annotations

from generator.edition.sheets import SheetOptions
from generator.i18n.translate import N_, Translator
from generator.render.html import card_table_label
from generator.render.sheets import render_sheet

from . import engine

#: The calls and tricks the card's scoring strip shows: a made call, an extra trick or two, a failed call.
CARD_SAMPLES = ((4, 4), (4, 6), (4, 3))
#: The score sheet's reminder of how tenths are written: a call of 4 with 6 tricks.
TENTHS_SAMPLE = (4, 6)


def score_sheet(edition, tr: Translator, opts: SheetOptions, table: int = 0,
                names: tuple[str, ...] = (), label=None) -> str:
    """One table's score sheet: a column group per player (call, tricks, score, running total), a row per deal.

    `names` prints the four players in seat order (a kit); without them the name boxes are blank.
    """
    players = list(names) + [""] * (engine.PLAYERS - len(names))
    return render_sheet("call-break/score-sheet.html.j2", edition, tr, N_("Call Break score sheet"), "score-sheet",
                        label=label if label is not None else card_table_label(tr, table, opts.tables),
                        players=players, deals=edition.rules.deals, group=opts.group,
                        overtrick=tr.decimal(edition.rules.overtrick_points),
                        sample_call=TENTHS_SAMPLE[0], sample_tricks=TENTHS_SAMPLE[1],
                        sample=tr.decimal(engine.score(*TENTHS_SAMPLE, rules=edition.rules)))


def card(edition, tr: Translator, opts: SheetOptions) -> dict:
    """The card starts with the trump suit and the cards' order, and a strip of scores the engine computes."""
    samples = []
    for call, tricks in CARD_SAMPLES:
        if edition.rules.min_call <= call <= edition.rules.max_call:
            samples.append({"call": call, "tricks": tricks,
                            "score": tr.decimal(engine.score(call, tricks, rules=edition.rules))})
    return {"card_header": "call-break/card-header.html.j2", "score_samples": samples}
