"""Card values, written cards and the deck."""

import pytest
from hypothesis import given, settings, strategies as st

from generator.engine.cards import Card, as_cards, format_cards, full_deck, parse_card, parse_cards

QH, KH, AH, TEN_S = Card(12, "H"), Card(13, "H"), Card(14, "H"), Card(10, "S")


@pytest.mark.parametrize(
    "text, expected",
    [
        ("QH KH AH", [QH, KH, AH]),
        ("qh kh ah", [QH, KH, AH]),
        ("QH, KH,AH", [QH, KH, AH]),
        ("  QH\tKH\nAH ", [QH, KH, AH]),
        ("Q♥ K♡ A♥️", [QH, KH, AH]),
        ("10S", [TEN_S]),
        ("TS", [TEN_S]),
        ("ts", [TEN_S]),
        ("10♠", [TEN_S]),
        ("T♤", [TEN_S]),
        ("2♦ 3♢ 4♣ 5♧", [Card(2, "D"), Card(3, "D"), Card(4, "C"), Card(5, "C")]),
        ("", []),
    ],
)
def test_parse_cards_reads_every_spelling(text, expected):
    assert parse_cards(text) == expected


def test_lists_of_cards_and_tokens_pass_through():
    assert parse_cards([QH, "KH", "a♥"]) == [QH, KH, AH]
    assert parse_cards(QH) == [QH]
    assert parse_card(QH) is QH


@pytest.mark.parametrize(
    "card, text", [(QH, "QH"), (TEN_S, "10S"), (AH, "AH"), (Card(2, "C"), "2C"), (Card(11, "D"), "JD")]
)
def test_cards_print_the_way_people_write_them(card, text):
    assert str(card) == text


@pytest.mark.parametrize("token", ["1X", "1H", "11H", "QX", "Q", "H", "0S", "KK", "10", "Q♥♥"])
def test_a_bad_token_names_itself(token):
    with pytest.raises(ValueError) as error:
        parse_cards(f"QH {token} AH")
    assert str(error.value) == f"'{token}' is not a card: rank must be 2-10, J, Q, K or A and suit S, H, D or C"


def test_a_card_cannot_be_built_out_of_range():
    with pytest.raises(ValueError):
        Card(1, "S")
    with pytest.raises(ValueError):
        Card(15, "S")
    with pytest.raises(ValueError):
        Card(10, "X")
    with pytest.raises(ValueError):
        Card(True, "S")


@pytest.mark.parametrize("text, twice", [("QH KH QH", "QH"), ("10S ts", "10S"), ("q♥ QH", "QH")])
def test_a_repeated_card_is_named(text, twice):
    with pytest.raises(ValueError) as error:
        as_cards(text)
    assert str(error.value) == f"card {twice} appears twice"
    assert len(as_cards(text, unique=False)) == len(text.split())


def test_the_deck_is_52_distinct_cards_in_a_stable_order():
    deck = full_deck()
    assert len(deck) == 52 == len(set(deck))
    assert deck == full_deck()
    assert (deck[0], deck[12], deck[13], deck[-1]) == (Card(2, "S"), Card(14, "S"), Card(2, "H"), Card(14, "C"))
    assert [parse_card(str(card)) for card in deck] == deck


@settings(max_examples=60, deadline=None)
@given(
    hand=st.lists(st.sampled_from(full_deck()), min_size=1, max_size=10, unique=True),
    separator=st.sampled_from([" ", ", ", ",", "  ", "\t"]),
    lower=st.booleans(),
)
def test_written_hands_read_back(hand, separator, lower):
    text = separator.join(str(card) for card in hand)
    assert parse_cards(text.lower() if lower else text) == hand
    assert format_cards(hand) == " ".join(map(str, hand))
