"""legal_plays and trick_winner: every trick position and rule switch, against an oracle written apart."""

from __future__ import annotations

import itertools
from dataclasses import fields

import pytest
from hypothesis import given, settings, strategies as st

from generator.engine.cards import Card, full_deck, parse_cards
from generator.games.call_break.engine import Rules, legal_plays, trick_winner

from . import oracle

RULE_VALUES = {
    "must_overtake": [True, False],
    "overtrick_points": [0, "1/10"],
    "min_call": [1, 2],
    "max_call": [8, 13],
    "deals": [3, 5, 10],
    "redeal_without_spades": [False, True],
}
ALL_RULES = [Rules(**dict(zip(RULE_VALUES, combo))) for combo in itertools.product(*RULE_VALUES.values())]
#: A deck small enough to try every trick and every hand of up to three cards, big enough
#: for every situation: three ranks per suit (a low, a middle and a high card), spades included.
MINI_DECK = [Card(rank, suit) for suit in "SHDC" for rank in (3, 9, 13)]


def test_every_rule_field_is_switched_here():
    assert set(RULE_VALUES) == {f.name for f in fields(Rules)}


def expected(hand, trick, rules):
    return [c for c in hand if oracle.may_play(c, hand, trick, must_overtake=rules.must_overtake)]


@pytest.mark.parametrize("position", [0, 1, 2, 3])
@pytest.mark.parametrize("must_overtake", [True, False])
def test_every_small_trick_and_hand_against_the_oracle(position, must_overtake):
    rules = Rules(must_overtake=must_overtake)
    checked = 0
    for trick in itertools.permutations(MINI_DECK, position):
        rest = [c for c in MINI_DECK if c not in trick]
        for size in (1, 2, 3):
            for hand in itertools.combinations(rest, size):
                got = legal_plays(list(hand), list(trick), rules=rules)
                assert got == expected(hand, trick, rules), (hand, trick)
                checked += 1
        if trick:
            assert trick_winner(list(trick), rules=rules) == oracle.winner(trick)
        if position == 3:  # and every complete trick
            for last in rest:
                assert trick_winner([*trick, last], rules=rules) == oracle.winner((*trick, last))
    assert checked == {0: 298, 1: 12 * 231, 2: 132 * 175, 3: 1320 * 129}[position]


@st.composite
def situations(draw):
    deck = draw(st.permutations(full_deck()))
    played = draw(st.integers(0, 3))
    size = draw(st.integers(1, 13))
    rules = draw(st.sampled_from(ALL_RULES))
    return deck[played:played + size], deck[:played], rules


@settings(max_examples=800, deadline=None)
@given(situations())
def test_any_hand_and_trick_against_the_oracle(situation):
    hand, trick, rules = situation
    got = legal_plays(hand, trick, rules=rules)
    assert got == expected(hand, trick, rules)
    assert got and all(c in hand for c in got)
    assert got == sorted(got, key=hand.index)  # hand order kept
    # The switches other than must_overtake never change what may be played.
    assert got == legal_plays(hand, trick, rules=Rules(must_overtake=rules.must_overtake))


@settings(max_examples=400, deadline=None)
@given(st.permutations(full_deck()), st.integers(1, 4), st.sampled_from(ALL_RULES))
def test_any_trick_winner_against_the_oracle(deck, size, rules):
    trick = deck[:size]
    assert trick_winner(trick, rules=rules) == oracle.winner(trick)


def plays(hand, trick, **rules):
    return " ".join(map(str, legal_plays(hand, trick, rules=Rules(**rules))))


def test_a_lead_may_be_any_card_spades_included():
    assert plays("AS 2H 7D", "") == "AS 2H 7D"


def test_following_and_heading():
    # Hearts led, the queen is highest so far: only a heart above it, though lower hearts are held.
    assert plays("3H KH AH 5S 9C", "10H QH 2H") == "KH AH"
    # No heart above the queen: any heart, and still no spade.
    assert plays("3H 8H 5S", "10H QH") == "3H 8H"
    # Spades led: head with a higher spade.
    assert plays("4S JS 2D", "9S") == "JS"
    # The Pagat reading (must_overtake off): any heart.
    assert plays("3H KH AH 5S", "10H QH", must_overtake=False) == "3H KH AH"


def test_once_trumped_any_card_of_the_led_suit_will_do():
    assert plays("3H KH 5S", "10H 2S") == "3H KH"


def test_a_void_player_must_trump():
    assert plays("2S QS 4D 9C", "KH") == "2S QS"
    assert plays("2S QS 4D 9C", "KH", must_overtake=False) == "2S QS"


def test_over_trumping():
    # A spade is in the trick: beat it if you can, whatever must_overtake says.
    assert plays("2S QS 4D", "KH 10S") == "QS"
    assert plays("2S QS 4D", "KH 10S", must_overtake=False) == "QS"


def test_a_free_discard():
    # No heart, and no spade that beats the jack: any card, a low spade included.
    assert plays("2S 9S 4D 9C", "KH JS") == "2S 9S 4D 9C"
    # No heart and no spade at all.
    assert plays("4D 9C", "KH 3D") == "4D 9C"
    # Spades led and none held.
    assert plays("4D 9C KH", "5S") == "4D 9C KH"


@pytest.mark.parametrize("trick, winner", [
    ("KH", 0),
    ("10H QH 2H", 1),
    ("10H QH 2H AH", 3),
    ("10H 2S QH", 1),           # a low spade beats the led suit
    ("KH 10S QS 4D", 2),        # the higher spade over-trumps
    ("4D AC KC 3H", 0),         # off-suit cards never win, however high
    ("9S AH AS KS", 2),         # spades led
])
def test_who_wins_each_trick(trick, winner):
    assert trick_winner(trick) == winner
    assert trick_winner(parse_cards(trick)) == winner


@pytest.mark.parametrize("call, message", [
    (lambda: legal_plays("KH 2S", "KH"), "KH is in the trick and in the hand"),
    (lambda: legal_plays("2S", "KH 3H 4H 5H"), "a trick holds at most 4 cards, one from each player; "
                                                "nobody can play to one that has 4"),
    (lambda: legal_plays("", "KH"), "the hand is empty: there is no card to play"),
    (lambda: legal_plays("2S 2S", ""), "card 2S appears twice"),
    (lambda: legal_plays("2S", "KH KH"), "card KH appears twice"),
    (lambda: legal_plays("2S 1H", ""), "'1H' is not a card: rank must be 2-10, J, Q, K or A and suit S, H, D or C"),
    (lambda: legal_plays(" ".join(map(str, full_deck()[:14])), ""), "a hand holds at most 13 cards, got 14"),
    (lambda: trick_winner(""), "the trick is empty: nobody has played to it yet"),
    (lambda: trick_winner("2H 3H 4H 5H 6H"), "a trick holds at most 4 cards, one from each player; this one has 5"),
])
def test_bad_hands_and_tricks_are_refused(call, message):
    with pytest.raises(ValueError) as err:
        call()
    assert str(err.value) == message
