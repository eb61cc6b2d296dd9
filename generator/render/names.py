"""Accessible names of drawn cards and dice ("King of spades", "Die showing 3, the round number: it scores").

Cards and dice are pictures; a screen reader (HTML aria-label, PDF /Alt) reads these names instead.
One pattern per face card, and "{rank} of {suit}" for number cards: in Hindi and Nepali the
genitive agrees with the rank (हुकुम का बादशाह, पान की बेगम), so each language words each face card itself.
"""

from __future__ import annotations

from generator.engine.cards import Card
from generator.i18n.translate import COMMON_DOMAIN, Translator

#: A suit's name as it goes into the patterns below.
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
#: The pattern for each rank; {suit} is a name from SUITS, {rank} the number of a number card.
PATTERNS = {14: "Ace of {suit}", 13: "King of {suit}", 12: "Queen of {suit}", 11: "Jack of {suit}"}
NUMBER_CARD = "{rank} of {suit}"
DIE = "Die showing {number}"
SCORING_DIE = "Die showing {number}, the round number: it scores"
#: Translator comments, for `rulesheets i18n update`.
COMMENTS = {
    **{name: "A suit's name inside a card's name, such as 'King of {suit}'." for name in SUITS.values()},
    **{p: "A card's name, read aloud in place of its picture." for p in (*PATTERNS.values(), NUMBER_CARD)},
    DIE: "A die's picture, read aloud.",
    SCORING_DIE: "A die's picture in a Bunco throw, read aloud: it shows the round number, so it scores.",
}


def _text(tr: Translator, msgid: str, **values) -> str:
    text, _fallback = tr.lookup(COMMON_DOMAIN, msgid)
    return tr.fill(text, values)


def card_name(tr: Translator, card: Card) -> str:
    """The card's spoken name in the reader's language: "King of spades", "हुकुम का बादशाह"."""
    suit = _text(tr, SUITS[card.suit])
    if card.rank in PATTERNS:
        return _text(tr, PATTERNS[card.rank], suit=suit)
    return _text(tr, NUMBER_CARD, rank=card.rank, suit=suit)


def die_name(tr: Translator, number: int, scores: bool = False) -> str:
    """The die's face, and whether it scores in the throw shown."""
    return _text(tr, SCORING_DIE if scores else DIE, number=number)
