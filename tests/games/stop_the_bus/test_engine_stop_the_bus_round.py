"""Stop the Bus rounds and token games: turns, stopping, showdown, the last player holding a token."""

import random

import pytest
from hypothesis import given, settings, strategies as st

from generator.engine.cards import parse_cards
from generator.games.stop_the_bus.engine import (STARTING_TOKENS, Game, Move, RoundState, deal_round, first_dealer, losers, showdown, simulate_game, stop_the_bus, swap)

PLAYERS = ("Asha", "Ben", "Cy")


def fixed_round() -> RoundState:
    hands = {
        "Asha": tuple(parse_cards("2H 7S 9D")),
        "Ben": tuple(parse_cards("KH KS 4C")),
        "Cy": tuple(parse_cards("5C 6C 8D")),
    }
    return RoundState(PLAYERS, "Cy", hands, tuple(parse_cards("7C 10H 3S")))


def test_the_deal():
    state = deal_round(PLAYERS, "Ben", random.Random(1))
    cards = [c for hand in state.hands.values() for c in hand] + list(state.centre)
    assert len(cards) == 12 == len(set(cards))
    assert all(len(hand) == 3 for hand in state.hands.values()) and len(state.centre) == 3
    assert state.current == "Cy"  # play starts on the dealer's left
    assert state == deal_round(PLAYERS, "Ben", random.Random(1))


def test_turns_go_round_from_the_dealers_left():
    state = fixed_round()
    assert state.current == "Asha"
    state = swap(state, "Asha", "2H", "7C")
    assert state.hands["Asha"] == tuple(parse_cards("7C 7S 9D"))
    assert state.centre == tuple(parse_cards("2H 10H 3S"))
    assert state.current == "Ben"
    state = swap(state, "Ben", "4C", "10H")
    assert state.current == "Cy"
    state = swap(state, "Cy", "8D", "3S")
    assert state.current == "Asha" and not state.over


def test_after_a_stop_everyone_else_gets_exactly_one_more_turn():
    state = swap(fixed_round(), "Asha", "2H", "7C", stop=True)
    assert state.stopped_by == "Asha" and state.final_turns_left == 2
    state = swap(state, "Ben", "4C", "10H")
    assert not state.over
    state = swap(state, "Cy", "8D", "2H")
    assert state.over
    with pytest.raises(ValueError):
        swap(state, "Asha", "7C", "4C")
    assert showdown(state) == {"Cy"}  # Asha 7-7-9 pair, Ben K-K-10 pair, Cy 5-6-2 high card


def test_stop_right_after_a_swap():
    state = swap(fixed_round(), "Asha", "2H", "7C")
    state = stop_the_bus(state, "Asha")
    assert state.stopped_by == "Asha" and state.current == "Ben" and state.final_turns_left == 2


def test_stop_without_swapping_on_the_first_turn_only():
    state = stop_the_bus(fixed_round(), "Asha")
    assert state.stopped_by == "Asha" and state.hands == fixed_round().hands
    state = swap(state, "Ben", "4C", "10H")
    state = swap(state, "Cy", "8D", "7C")
    assert state.over and showdown(state) == {"Asha"}

    later = fixed_round()
    for player, give, take in [("Asha", "2H", "7C"), ("Ben", "4C", "10H"), ("Cy", "8D", "3S")]:
        later = swap(later, player, give, take)
    with pytest.raises(ValueError) as error:
        stop_the_bus(later, "Asha")
    assert str(error.value) == "Asha may stop without swapping only on their first turn"


def test_moves_out_of_turn_or_with_missing_cards_are_refused():
    state = fixed_round()
    with pytest.raises(ValueError) as error:
        swap(state, "Ben", "4C", "7C")
    assert str(error.value) == "it is Asha's turn, not Ben's"
    with pytest.raises(ValueError) as error:
        swap(state, "Asha", "4C", "7C")
    assert str(error.value) == "Asha has no 4C in hand"
    with pytest.raises(ValueError) as error:
        swap(state, "Asha", "2H", "AS")
    assert str(error.value) == "AS is not in the centre"
    with pytest.raises(ValueError) as error:
        showdown(state)
    assert str(error.value) == "the round is not over: the bus has not been stopped or turns remain"
    stopped = stop_the_bus(state, "Asha")
    with pytest.raises(ValueError) as error:
        stop_the_bus(stopped, "Ben")
    assert str(error.value) == "the bus was already stopped by Asha"


class Cuts:
    """Stands in for random.Random: each sample() returns the next written cut."""

    def __init__(self, *cuts):
        self.cuts = [parse_cards(cut) for cut in cuts]

    def sample(self, deck, count):
        return self.cuts.pop(0)[:count]


def test_lowest_card_deals():
    assert first_dealer(PLAYERS, Cuts("4S KD 9H")) == "Asha"
    # Ben and Cy tie on twos (suits never count) and cut again.
    assert first_dealer(PLAYERS, Cuts("9S 2D 2H", "JC 5D")) == "Cy"


def check_game(result, players):
    tokens = {p: STARTING_TOKENS for p in players}
    pot = 0
    for record in result.history:
        active = [p for p in players if tokens[p]]
        assert set(record.hands) == set(active)
        assert record.losers <= set(active)
        assert record.stopped_by in active
        for p in record.losers:
            tokens[p] -= 1
        pot += len(record.losers)
        assert dict(record.tokens) == tokens and record.pot == pot
        if record.losers:
            assert record.losers == losers(record.hands)
    assert [p for p in players if tokens[p]] == [result.winner]
    assert result.pot == pot == STARTING_TOKENS * len(players) - tokens[result.winner]


@settings(max_examples=25, deadline=None)
@given(count=st.integers(2, 6), seed=st.integers(0, 10**9))
def test_games_are_reproducible_and_end_with_one_token_holder(count, seed):
    players = [f"P{i}" for i in range(count)]
    result = simulate_game(players, seed)
    check_game(result, players)
    assert result == simulate_game(players, seed)


def test_a_custom_strategy_drives_the_game():
    def stop_at_once(state, player, rng):
        if state.stopped_by is None:
            return Move(stop=True)
        return Move(state.hands[player][0], state.centre[0])

    result = simulate_game(PLAYERS, 4, strategy=stop_at_once)
    check_game(result, list(PLAYERS))


def test_tokens_pot_and_the_deal_passing_left():
    game = Game.start(["Asha", "Ben", "Cy"], "Ben")
    assert dict(game.tokens) == {"Asha": 3, "Ben": 3, "Cy": 3} and game.pot == 0
    game = game.settle({"Asha", "Cy"})
    assert dict(game.tokens) == {"Asha": 2, "Ben": 3, "Cy": 2} and game.pot == 2 and game.dealer == "Cy"
    game = game.settle({"Asha"}).settle({"Asha"})
    assert game.active == ("Ben", "Cy") and game.pot == 4
    assert game.dealer == "Ben"  # the deal went Ben, Cy, Asha, then on to Ben
    game = game.settle({"Cy"}).settle({"Cy"})
    assert game.over and game.winner == "Ben" and game.pot == 6


def test_a_showdown_cannot_put_everybody_out():
    game = Game("Asha Ben Cy".split(), "Asha", {"Asha": 1, "Ben": 1, "Cy": 0}, 7)
    assert game.settle({"Asha", "Ben"}).tokens == {"Asha": 1, "Ben": 1, "Cy": 0}
    with pytest.raises(ValueError) as error:
        game.settle({"Cy"})
    assert str(error.value) == "Cy is not in the game"
    done = game.settle({"Asha"})
    assert done.winner == "Ben"
    with pytest.raises(ValueError) as error:
        done.settle({"Ben"})
    assert str(error.value) == "the game is over: Ben won"
