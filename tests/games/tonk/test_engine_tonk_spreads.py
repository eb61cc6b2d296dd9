"""Tonk card values, books, runs and deadwood (checked against a slow search over subsets)."""

import itertools
from functools import lru_cache

import pytest
from hypothesis import given, settings, strategies as st

from generator.engine.cards import full_deck
from generator.games.tonk.engine import best_spreads, card_value, deadwood, hand_total, is_book, is_run, is_tonk


def test_card_values():
    values = {card: card_value(card) for card in full_deck()}
    for card, value in values.items():
        expected = {11: 10, 12: 10, 13: 10, 14: 1}.get(card.rank, card.rank)
        assert value == expected
    assert sum(values.values()) == 4 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 * 4)
    assert (card_value("KH"), card_value("AH"), card_value("7S"), card_value("10D")) == (10, 1, 7, 10)


def test_hand_total():
    assert hand_total("KH QS 9D AC 10H") == 40
    assert hand_total([]) == 0
    assert hand_total("10H JH QH KH 10S") == 50


def test_tonk_totals():
    assert [t for t in range(0, 60) if is_tonk(t)] == [49, 50]


@pytest.mark.parametrize(
    "cards, book, run",
    [
        ("7H 7S 7D", True, False),
        ("7H 7S 7D 7C", True, False),
        ("7H 7S", False, False),
        ("AH 2H 3H", False, True),
        ("3H AH 2H", False, True),
        ("QH KH AH", False, False),   # ace low only
        ("KH AH 2H", False, False),   # no wrapping
        ("2H 3H 4S", False, False),
        ("2H 3H 5H", False, False),
        ("10C JC QC KC", False, True),
        ("9D 10D", False, False),
    ],
)
def test_books_and_runs(cards, book, run):
    assert is_book(cards) is book
    assert is_run(cards) is run


@pytest.mark.parametrize(
    "cards, expected",
    [
        ("", 0),
        ("KH", 10),
        ("7H 7S 7D 2C", 2),
        ("AH 2H 3H 4H 4S 4D 9C", 9),        # A-2-3 run and the 4s book beat A-2-3-4 alone
        ("5H 6H 7H 7S 7D", 11),             # 7H serves one spread only: the 7s book beats the run
        ("5H 6H 7H 7S 7D 7C", 0),           # the run 5-6-7 of hearts and the book of the other 7s
        ("QH KH AH", 21),                    # not a run: ace low only
        ("10S JS QS KS 10H 10D", 0),
    ],
)
def test_deadwood(cards, expected):
    assert deadwood(cards) == expected


def slow_deadwood(hand):
    """Try every subset that is a book or a run, recursively; memoised on what is left."""

    @lru_cache(maxsize=None)
    def best(left):
        answer = sum(card_value(c) for c in left)
        for size in range(3, len(left) + 1):
            for group in itertools.combinations(left, size):
                if is_book(list(group)) or is_run(list(group)):
                    answer = min(answer, best(tuple(c for c in left if c not in group)))
        return answer

    return best(tuple(hand))


# Dense hands (few suits, nearby ranks) so spreads actually occur.
dense_cards = [c for c in full_deck() if c.suit in "HS" and (c.rank <= 8 or c.rank == 14)]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(dense_cards), min_size=0, max_size=8, unique=True))
def test_deadwood_matches_a_slow_search(hand):
    total, spreads = best_spreads(hand)
    assert total == deadwood(hand) == slow_deadwood(hand)
    laid = [c for spread in spreads for c in spread]
    assert len(laid) == len(set(laid)) and set(laid) <= set(hand)
    assert all(is_book(list(s)) or is_run(list(s)) for s in spreads)
    assert total == hand_total([c for c in hand if c not in laid])
