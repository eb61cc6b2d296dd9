"""A Tonk hand played out: moves, endings and their payouts, and seeded whole hands."""

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings, strategies as st

from generator.engine.cards import parse_cards
from generator.games.tonk.engine import Rules
from generator.games.tonk.play import (TonkState, deal_hand, discard, draw, first_dealer, hit, knock, simulate_hand, spread)


def state_with(hands, stock="9C 8C", discards="2D", rules=Rules()):
    return TonkState(
        ("Asha", "Ben"),
        "Ben",
        {p: tuple(parse_cards(h)) for p, h in hands.items()},
        tuple(parse_cards(stock)),
        tuple(parse_cards(discards)),
        rules=rules,
    )


def all_cards(state):
    return [c for h in state.hands.values() for c in h] + list(state.stock) + list(state.discards) + [
        c for s in state.spreads for c in s
    ]


def test_the_deal():
    state = deal_hand(["Asha", "Ben", "Cy"], "Cy", random.Random(3))
    assert all(len(h) == 5 for h in state.hands.values())
    assert len(state.discards) == 1 and len(all_cards(state)) == 52 == len(set(all_cards(state)))
    assert state.current == "Asha"
    bare = deal_hand(["Asha", "Ben"], "Ben", random.Random(3), rules=Rules(no_starting_discard=True))
    assert bare.discards == () and len(bare.stock) == 42


class StackedDeck:
    """Stands in for random.Random: puts the named cards on top, two players dealt alternately."""

    def __init__(self, first_hand, second_hand):
        self.top = [c for pair in zip(parse_cards(first_hand), parse_cards(second_hand)) for c in pair]

    def shuffle(self, deck):
        rest = [c for c in deck if c not in self.top]
        deck[:] = self.top + rest


@pytest.mark.parametrize(
    "asha, ben, kind, payouts",
    [
        ("10S JS QS KS 10H", "2C 3C 4C 5C 6C", "dealt_tonk", {"Asha": 2, "Ben": -2}),
        ("10S JS QS KS 9H", "10D JD QD KD 10C", "redeal", {"Asha": 0, "Ben": 0}),
    ],
)
def test_a_dealt_tonk_settles_the_hand(asha, ben, kind, payouts):
    state = deal_hand(["Asha", "Ben"], "Ben", StackedDeck(asha, ben))
    assert state.hands["Asha"] == tuple(parse_cards(asha))
    assert state.ending.kind == kind and dict(state.ending.payouts) == payouts


def test_knock_only_before_drawing():
    state = state_with({"Asha": "AH 2S 3D 4C 5H", "Ben": "KH QS JD 10C 9H"})
    ended = knock(state, "Asha")
    assert ended.ending.kind == "knock" and dict(ended.ending.payouts) == {"Asha": 1, "Ben": -1}
    with pytest.raises(ValueError) as error:
        knock(draw(state, "Asha"), "Asha")
    assert str(error.value) == "Asha has already drawn this turn"


def test_tonk_out_by_spreads_pays_double():
    state = draw(state_with({"Asha": "7H 7S 7D 8C 10C", "Ben": "KH QS JD 10H 9H"}, stock="9C 2C"), "Asha")
    state = spread(state, "Asha", "7H 7S 7D")
    assert state.ending is None
    state = spread(state, "Asha", "8C 9C 10C")
    assert state.ending.kind == "tonk_out" and dict(state.ending.payouts) == {"Asha": 2, "Ben": -2}


@pytest.mark.parametrize("rules, paid", [(Rules(), 2), (Rules(new_spreads_double=True), 1)])
def test_tonk_out_by_hits_alone(rules, paid):
    state = state_with({"Asha": "7C", "Ben": "KH QS JD 10H 9H"}, stock="3S 2C", rules=rules)
    state = replace(state, spreads=(tuple(parse_cards("7H 7S 7D")), tuple(parse_cards("4S 5S 6S"))))
    state = hit(draw(state, "Asha"), "Asha", "7C", 0)
    assert state.ending is None
    state = hit(state, "Asha", "3S", 1)
    assert state.spreads[1] == tuple(parse_cards("4S 5S 6S 3S"))
    assert state.ending.kind == "tonk_out" and dict(state.ending.payouts) == {"Asha": paid, "Ben": -paid}


def test_bad_moves():
    state = state_with({"Asha": "7H 7S 2D 8C 10C", "Ben": "KH QS JD 10H 9H"})
    with pytest.raises(ValueError) as error:
        spread(state, "Asha", "7H 7S 7D")
    assert str(error.value) == "Asha must draw first"
    drawn = draw(state, "Asha", "discard")
    assert drawn.hands["Asha"][-1] == parse_cards("2D")[0] and drawn.discards == ()
    with pytest.raises(ValueError) as error:
        spread(drawn, "Asha", "7H 7S 8C")
    assert str(error.value) == "7H 7S 8C is neither a book nor a run"
    with pytest.raises(ValueError) as error:
        spread(drawn, "Asha", "7H 7S 7D")
    assert str(error.value) == "Asha does not hold 7D"
    with pytest.raises(ValueError) as error:
        draw(state, "Ben")
    assert str(error.value) == "it is Asha's turn, not Ben's"
    with pytest.raises(ValueError) as error:
        draw(state_with({"Asha": "2C", "Ben": "3C"}, discards=""), "Asha", "discard")
    assert str(error.value) == "there is no card to draw from the discard"


def test_spreads_at_once_variant():
    hands = {"Asha": "7H 7S 7D 8C 10C", "Ben": "KH QS JD 10H 9H"}
    at_once = Rules(spreads_at_once=True)
    strict = draw(state_with(hands, rules=at_once), "Asha")
    with pytest.raises(ValueError) as error:
        discard(strict, "Asha", "10C")
    assert str(error.value) == "Asha must lay down every spread at once (three aces excepted)"
    aces = draw(state_with({"Asha": "AH AS AD 8C 10C", "Ben": hands["Ben"]}, rules=at_once), "Asha")
    assert discard(aces, "Asha", "10C").current == "Ben"
    assert discard(draw(state_with(hands), "Asha"), "Asha", "10C").current == "Ben"


def test_stock_out():
    state = draw(state_with({"Asha": "2C 3D", "Ben": "KH QS"}, stock="9S"), "Asha")
    state = discard(state, "Asha", "9S")
    assert state.ending.kind == "stock_out" and dict(state.ending.payouts) == {"Asha": 1, "Ben": -1}


@settings(max_examples=30, deadline=None)
@given(
    count=st.integers(2, 4),
    seed=st.integers(0, 10**9),
    no_discard=st.booleans(),
    at_once=st.booleans(),
    stake=st.integers(1, 5),
)
def test_whole_hands(count, seed, no_discard, at_once, stake):
    players = ["Asha", "Ben", "Cy", "Dee"][:count]
    rules = Rules(no_starting_discard=no_discard, spreads_at_once=at_once)
    state = simulate_hand(players, seed, stake=stake, rules=rules)
    assert state == simulate_hand(players, seed, stake=stake, rules=rules)
    assert state.ending is not None
    assert list(state.ending.payouts) == players and sum(state.ending.payouts.values()) == 0
    cards = all_cards(state)
    assert len(cards) == 52 == len(set(cards))
    assert all(v % stake == 0 for v in state.ending.payouts.values())


class Cuts:
    """Stands in for random.Random: each sample() returns the next written cut."""

    def __init__(self, *cuts):
        self.cuts = [parse_cards(cut) for cut in cuts]

    def sample(self, deck, count):
        return self.cuts.pop(0)[:count]


def test_the_highest_cut_deals():
    assert first_dealer(["Asha", "Ben", "Cy"], Cuts("4S KD 9H")) == "Ben"
    # Asha and Cy tie on kings (suits never count) and cut again.
    assert first_dealer(["Asha", "Ben", "Cy"], Cuts("KS 9D KH", "3C 7D")) == "Cy"
