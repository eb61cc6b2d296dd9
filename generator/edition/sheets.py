"""What a host chooses for the evening's sheets (sets, group, date, copies, tables, stake), checked once."""

from __future__ import annotations

import datetime as dt
import unicodedata
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from generator.core.errors import InputError, Problem
from generator.i18n.money import MAX_STAKE

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

    def __post_init__(self):
        from generator.core.inputfile import from_argv

        object.__setattr__(self, "group", from_argv(self.group))  # typed under LC_ALL=C: the UTF-8 it is

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
