"""Printable sheets: what each one shows, computed from the rule model and the engine."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from .engine import odds, tonk
from .errors import CheckFailed, InputError, Problem

#: kind -> game; every sheet exists in every locale, as HTML and one-page PDFs.
SHEETS = {"tally-sheet": "bunco", "scorepad": "bunco", "payout-sheet": "tonk", "hand-ranking": "stop-the-bus"}
CURRENCIES = ("INR", "NPR", "BDT", "KRW", "EUR", "USD")


@dataclass(frozen=True)
class SheetOptions:
    """What a host can choose for the evening's sheets (command-line options)."""

    sets: int = 4
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

        if not 1 <= self.sets <= 6:
            raise bad(f"--sets must be between 1 and 6, got {self.sets}")
        if self.per_page not in (1, 2, 4):
            raise bad(f"--per-page must be 1, 2 or 4, got {self.per_page}")
        if self.per_page == 4 and self.sets > 4:
            raise bad(f"--per-page 4 fits at most 4 sets on a tally sheet, got --sets {self.sets}")
        if not 1 <= self.copies <= 100:
            raise bad(f"--copies must be between 1 and 100, got {self.copies}")
        if not 1 <= self.tables <= 12:
            raise bad(f"--tables must be between 1 and 12, got {self.tables}")
        if self.stake is not None and (self.stake <= 0 or self.stake != self.stake.quantize(Decimal("0.01"))):
            raise bad(f"--stake must be a positive amount with at most 2 decimals, got {self.stake}")
        if self.currency is not None and self.currency not in CURRENCIES:
            raise bad(f"unknown currency '{self.currency}' (known: {', '.join(CURRENCIES)})")
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


# --- Tonk payouts: every way a hand ends, for 2 and 3 players --------------------------------

#: The rows of the payout sheet: (title, rule in words), English msgids of the common domain.
SITUATION_TEXT = {
    "dealt": ("Dealt tonk", "A dealt hand of 49 or 50 wins double stake from each other player."),
    "two-dealt": ("Two dealt tonks", "Nobody pays; shuffle and deal again."),
    "tonk-out": ("Tonk out", "Every card played without a discard: double stake from each player."),
    "out": ("Out after discarding", "Hand emptied by the last discard: single stake from each player."),
    "knock-low": ("Knock, and lowest", "The knocker's total is strictly lowest: single stake from each player."),
    "caught": ("Knock, caught", "The knocker pays double stake to each player equal or lower; the lowest also "
                                "collects single stake from everyone above it and from the knocker."),
    "caught-tie": ("Caught with a tie for low", "A tie still catches the knocker, who pays the tied player "
                                                "double stake and single stake."),
    "stock-out": ("Stock runs out", "Each player with the lowest total collects single stake from each player above it."),
}


@dataclass(frozen=True)
class Situation:
    """One way a Tonk hand ends, with sample totals; `expect` is net stake units, checked against the engine."""

    id: str  # a key of SITUATION_TEXT
    totals: dict[str, int]
    how: str  # dealt | went_out | went_out_discard | knock | stock_out
    expect: dict[str, int]
    knocker: str | None = None
    winner: str | None = None


SITUATIONS = {
    2: (
        Situation("dealt", {"A": 49, "B": 31}, "dealt", {"A": 2, "B": -2}),
        Situation("two-dealt", {"A": 50, "B": 49}, "dealt", {"A": 0, "B": 0}),
        Situation("tonk-out", {"A": 0, "B": 23}, "went_out", {"A": 2, "B": -2}, winner="A"),
        Situation("out", {"A": 0, "B": 17}, "went_out_discard", {"A": 1, "B": -1}, winner="A"),
        Situation("knock-low", {"A": 6, "B": 14}, "knock", {"A": 1, "B": -1}, knocker="A"),
        Situation("caught", {"A": 11, "B": 5}, "knock", {"A": -3, "B": 3}, knocker="A"),
        Situation("caught-tie", {"A": 8, "B": 8}, "knock", {"A": -3, "B": 3}, knocker="A"),
        Situation("stock-out", {"A": 9, "B": 15}, "stock_out", {"A": 1, "B": -1}),
    ),
    3: (
        Situation("dealt", {"A": 49, "B": 31, "C": 26}, "dealt", {"A": 4, "B": -2, "C": -2}),
        Situation("two-dealt", {"A": 50, "B": 49, "C": 22}, "dealt", {"A": 0, "B": 0, "C": 0}),
        Situation("tonk-out", {"A": 0, "B": 23, "C": 12}, "went_out", {"A": 4, "B": -2, "C": -2}, winner="A"),
        Situation("out", {"A": 0, "B": 17, "C": 30}, "went_out_discard", {"A": 2, "B": -1, "C": -1}, winner="A"),
        Situation("knock-low", {"A": 6, "B": 14, "C": 21}, "knock", {"A": 2, "B": -1, "C": -1}, knocker="A"),
        Situation("caught", {"A": 11, "B": 5, "C": 19}, "knock", {"A": -3, "B": 4, "C": -1}, knocker="A"),
        Situation("caught-tie", {"A": 8, "B": 8, "C": 19}, "knock", {"A": -3, "B": 4, "C": -1}, knocker="A"),
        Situation("stock-out", {"A": 9, "B": 9, "C": 15}, "stock_out", {"A": 1, "B": 1, "C": -2}),
    ),
}


def transfers(s: Situation, stake: int = 1) -> list[tonk.Transfer]:
    if s.how == "dealt":
        return tonk.dealt_tonk_transfers(s.totals, stake)
    if s.how in ("went_out", "went_out_discard"):
        return tonk.went_out_transfers(list(s.totals), s.winner, discarded=s.how == "went_out_discard", stake=stake)
    if s.how == "knock":
        return tonk.knock_transfers(s.totals, s.knocker, stake)
    return tonk.stock_out_transfers(s.totals, stake)


def payments(s: Situation) -> dict[tuple[str, str], int]:
    """Stake units each payer owes each payee: a double and a single stake to the same player add up."""
    owed: dict[tuple[str, str], int] = {}
    for t in transfers(s):
        owed[(t.payer, t.payee)] = owed.get((t.payer, t.payee), 0) + t.amount
    return owed


def check_situations() -> None:
    """Each situation's written result must be the engine's, like a worked example."""
    problems = []
    for n, situations in SITUATIONS.items():
        for s in situations:
            got = tonk.net(transfers(s), s.totals)
            if got != s.expect:
                problems.append(Problem("generator/sheets.py", None,
                                        f"payout situation '{s.id}' ({n} players): written {s.expect} but the engine computes {got}"))
    if problems:
        raise CheckFailed(problems)


# --- Stop the Bus: one example hand per category, best first --------------------------------

RANKING_EXAMPLES = {
    "three_of_a_kind": "7S 7H 7D",
    "running_flush": "9H 10H JH",
    "run": "4C 5D 6S",
    "flush": "2S 8S KS",
    "pair": "QD QC 5H",
    "high_card": "AH 9C 4D",
}


def ranking_rows() -> list[dict]:
    counts = odds.stop_the_bus_counts()
    chances = odds.stop_the_bus_odds()
    return [{"category": c, "cards": RANKING_EXAMPLES[c], "count": counts[c], "odds": chances[c]}
            for c in reversed(list(counts))]
