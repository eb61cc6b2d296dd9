"""Printable sheets: what each one shows, computed from the rule model and the engine."""

from __future__ import annotations

import datetime as dt
import unicodedata
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from generator.games.stop_the_bus import odds as stop_the_bus_odds
from generator.games.stop_the_bus import engine as stop_the_bus
from generator.games.tonk import engine as tonk
from generator.core.errors import InputError, Problem

#: The largest stake a payout sheet accepts (locale.toml or --stake): anything above is a typo.
MAX_STAKE = Decimal(1_000_000)

#: kind -> game; every sheet exists in every locale, as HTML and one-page PDFs.
SHEETS = {"tally-sheet": "bunco", "scorepad": "bunco", "payout-sheet": "tonk", "hand-ranking": "stop-the-bus"}
CURRENCIES = ("INR", "NPR", "BDT", "KRW", "EUR", "USD")


@dataclass(frozen=True)
class SheetOptions:
    """What a host can choose for the evening's sheets (command-line options)."""

    #: None: the rules' sets per evening (standard 4).
    sets: int | None = None
    group: str = ""
    date: dt.date | None = None
    per_page: int = 1
    copies: int = 1
    tables: int = 3
    #: None: each locale's usual small stake (locale.toml `stake`: ₩1,000, ₹10, $1...).
    stake: Decimal | None = None
    currency: str | None = None  # None: the locale's own currency

    def validate(self) -> None:
        def bad(message: str) -> InputError:
            return InputError(Problem("command line", None, message))

        if self.sets is not None and not 1 <= self.sets <= 6:
            raise bad(f"--sets must be between 1 and 6, got {self.sets}")
        if self.per_page not in (1, 2, 4):
            raise bad(f"--per-page must be 1, 2 or 4, got {self.per_page}")
        if self.per_page == 4 and (self.sets or 0) > 4:
            raise bad(f"--per-page 4 fits at most 4 sets on a tally sheet, got --sets {self.sets}")
        if not 1 <= self.copies <= 100:
            raise bad(f"--copies must be between 1 and 100, got {self.copies}")
        if not 1 <= self.tables <= 12:
            raise bad(f"--tables must be between 1 and 12, got {self.tables}")
        if self.stake is not None and not (self.stake.is_finite() and self.stake <= MAX_STAKE):
            raise bad(f"--stake must be at most {MAX_STAKE:,}, got {self.stake}")
        if self.stake is not None and (self.stake <= 0 or self.stake != self.stake.quantize(Decimal("0.01"))):
            raise bad(f"--stake must be a positive amount with at most 2 decimals, got {self.stake}")
        if self.currency is not None and self.currency not in CURRENCIES:
            raise bad(f"unknown currency '{self.currency}' (known: {', '.join(CURRENCIES)})")
        bad_char = next((c for c in self.group if unicodedata.category(c) in ("Cc", "Cs")), None)
        if bad_char is not None and unicodedata.category(bad_char) == "Cs":  # undecodable bytes in argv
            raise bad("--group is not valid UTF-8 text")
        if bad_char is not None:
            raise bad(f"--group may not hold control characters (found U+{ord(bad_char):04X})")
        if len(self.group) > 60:
            raise bad("--group is longer than 60 characters and would not fit on the sheet")


def parse_stake(text: str) -> Decimal:
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise InputError(Problem("command line", None, f"--stake must be an amount like 10 or 2.50, got '{text}'")) from None
    if not value.is_finite():
        raise InputError(Problem("command line", None, f"--stake must be an amount like 10 or 2.50, got '{text}'"))
    return value


# --- Tonk payouts: every way a hand ends, for 2 and 3 players, from the model's situations ------

def situation_totals(situation, players: int, values: dict) -> dict[str, int]:
    """A situation's sample totals for `players` players, `=expressions` worked out under the edition's rules."""
    from generator.model.examples import resolve_fact_refs

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


# --- Stop the Bus: one example hand per category, best first --------------------------------

RANKING_EXAMPLES = {
    "three_of_a_kind": "7S 7H 7D",
    "running_flush": "9H 10H JH",
    "run": "4C 5D 6S",
    "flush": "2S 8S KS",
    "pair": "QD QC 5H",
    "high_card": "AH 9C 4D",
}


def ranking_rows(rules: stop_the_bus.Rules) -> list[dict]:
    counts = stop_the_bus_odds.stop_the_bus_counts(rules=rules)
    chances = stop_the_bus_odds.stop_the_bus_odds(rules=rules)
    return [{"category": c, "cards": RANKING_EXAMPLES[c], "count": counts[c], "odds": chances[c]}
            for c in reversed(list(counts))]
