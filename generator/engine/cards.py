"""Playing cards: the Card value, parsing of written cards and the standard deck."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

SUITS = ("S", "H", "D", "C")
RANKS = tuple(range(2, 15))
RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}

# Both the filled and the outlined suit symbols are accepted: people type either.
_SUIT_ALIASES = {
    "S": "S", "♠": "S", "♤": "S",
    "H": "H", "♥": "H", "♡": "H",
    "D": "D", "♦": "D", "♢": "D",
    "C": "C", "♣": "C", "♧": "C",
}
_RANK_ALIASES = {str(rank): rank for rank in range(2, 11)} | {
    "T": 10, "J": 11, "Q": 12, "K": 13, "A": 14,
}
_BAD_CARD = "rank must be 2-10, J, Q, K or A and suit S, H, D or C"
_SEPARATORS = re.compile(r"[\s,]+")


@dataclass(frozen=True, order=True)
class Card:
    """One card of a 52-card deck; orders by rank, then suit letter."""

    rank: int
    """2 to 10 as printed; 11 jack, 12 queen, 13 king, 14 ace."""
    suit: str
    """One of S, H, D, C."""

    def __post_init__(self) -> None:
        if type(self.rank) is not int or self.rank not in RANKS or self.suit not in SUITS:
            raise ValueError(f"'{self.rank}{self.suit}' is not a card: {_BAD_CARD}")

    @property
    def rank_name(self) -> str:
        """The rank as written on the card: "2" to "10", "J", "Q", "K" or "A"."""
        return RANK_NAMES.get(self.rank, str(self.rank))

    def __str__(self) -> str:
        return f"{self.rank_name}{self.suit}"


def parse_card(token: str | Card) -> Card:
    """Read one card such as "QH", "10S", "TS", "q♥"; a Card passes through unchanged."""
    if isinstance(token, Card):
        return token
    if not isinstance(token, str):
        raise ValueError(f"{token!r} is not a card: {_BAD_CARD}")
    # U+FE0F turns "♥" into an emoji on phones; it carries no meaning here.
    text = token.strip().replace("\ufe0f", "")
    rank = _RANK_ALIASES.get(text[:-1].upper())
    suit = _SUIT_ALIASES.get(text[-1:].upper())
    if rank is None or suit is None:
        raise ValueError(f"'{token.strip()}' is not a card: {_BAD_CARD}")
    return Card(rank, suit)


def parse_cards(cards: str | Card | Iterable[str | Card]) -> list[Card]:
    """Read cards written as "QH KH AH" (spaces or commas) or given as a list of cards or tokens."""
    if isinstance(cards, Card):
        return [cards]
    if isinstance(cards, str):
        return [parse_card(token) for token in _SEPARATORS.split(cards) if token]
    try:
        items = list(cards)
    except TypeError:
        raise ValueError(f"{cards!r} is not a list of cards") from None
    return [parse_card(item) for item in items]


def as_cards(cards: str | Card | Iterable[str | Card], *, unique: bool = True) -> list[Card]:
    """The cards every engine function accepts, as a list; with `unique`, a repeated card is an error."""
    parsed = parse_cards(cards)
    if unique:
        seen: set[Card] = set()
        for card in parsed:
            if card in seen:
                raise ValueError(f"card {card} appears twice")
            seen.add(card)
    return parsed


def format_cards(cards: Iterable[Card]) -> str:
    """Cards written back the way people write them: "QH KH AH"."""
    return " ".join(str(card) for card in cards)


def full_deck() -> list[Card]:
    """All 52 cards, spades then hearts, diamonds, clubs, each from 2 up to the ace."""
    return [Card(rank, suit) for suit in SUITS for rank in RANKS]
