"""Bad input: every engine error, word for word, as the person who made the mistake reads it."""

import pytest

from generator.games.bunco import engine as bunco
from generator.engine import cards
from generator.games.stop_the_bus import engine as stop_the_bus
from generator.games.tonk import engine as tonk

BAD_CARD = "rank must be 2-10, J, Q, K or A and suit S, H, D or C"
TOTALS = {"Asha": 3, "Ben": 5}
SEATING = [(("A", "B"), ("C", "D")), (("E", "F"), ("G", "H"))]

CASES = [
    # dice
    (lambda: bunco.score_throw([1, 2, 7], 1), "a die shows 7; dice show 1 to 6"),
    (lambda: bunco.score_throw([0, 2, 3], 1), "a die shows 0; dice show 1 to 6"),
    (lambda: bunco.score_throw([1, 2, "x"], 1), "a die shows 'x'; dice show 1 to 6"),
    (lambda: bunco.score_throw("1 2 x", 1), "a die shows 'x'; dice show 1 to 6"),
    (lambda: bunco.score_throw([1, True, 3], 1), "a die shows True; dice show 1 to 6"),
    (lambda: bunco.score_throw([1, 2], 1), "a throw is 3 dice, got 2"),
    (lambda: bunco.score_throw([1, 2, 3, 4], 1), "a throw is 3 dice, got 4"),
    (lambda: bunco.score_throw([1, 2, 3], 7), "the round must be 1 to 6, got 7"),
    (lambda: bunco.score_throw([1, 2, 3], 0), "the round must be 1 to 6, got 0"),
    # seating and evenings
    (lambda: bunco.next_seating(SEATING, [0]), "there are 2 tables but 1 winners"),
    (lambda: bunco.next_seating(SEATING, [0, 2]),
     "the winner at table 2 must be 0 or 1 (the first or second team), got 2"),
    (lambda: bunco.next_seating([(("A", "B"), ("C", "A"))], [0]), "player A appears twice in the seating"),
    (lambda: bunco.next_seating([(("A", "B"), ("C",))], [0]),
     "table 1 must be two teams of two players, got (('A', 'B'), ('C',))"),
    (lambda: bunco.next_seating([], []), "the seating has no tables"),
    (lambda: bunco.play_evening(list("ABCDEF"), seed=1),
     "Bunco needs a multiple of four players (4, 8, 12, ...) or one short of it, got 6"),
    (lambda: bunco.play_evening(list("ABCA"), seed=1), "player A is listed twice"),
    (lambda: bunco.play_evening(list("ABCD"), sets=0, seed=1),
     "an evening needs a whole number of sets, 1 or more, got 0"),
    # cards
    (lambda: cards.parse_cards("QH 1X"), f"'1X' is not a card: {BAD_CARD}"),
    (lambda: cards.parse_cards(["QH", 12]), f"12 is not a card: {BAD_CARD}"),
    (lambda: tonk.hand_total("QH KH QH"), "card QH appears twice"),
    # Stop the Bus
    (lambda: stop_the_bus.hand_rank("QH KH AH 2C"), "a Stop the Bus hand has exactly 3 cards, got 4"),
    (lambda: stop_the_bus.hand_rank("QH KH"), "a Stop the Bus hand has exactly 3 cards, got 2"),
    (lambda: stop_the_bus.compare("QH KH AH", "2C 2D 2D"), "card 2D appears twice"),
    (lambda: stop_the_bus.losers({"Asha": "QH KH AH", "Ben": "QH 2C 3C"}), "card QH appears twice"),
    (lambda: stop_the_bus.losers({"Asha": "QH KH AH"}), "a showdown needs at least 2 hands, got 1"),
    (lambda: stop_the_bus.simulate_game(["Asha"], 1), "Stop the Bus needs at least 2 players, got 1"),
    (lambda: stop_the_bus.simulate_game(["Asha", "Asha"], 1), "player Asha is listed twice"),
    (lambda: stop_the_bus.deal_round(["Asha", "Ben"], "Zed", None),
     "unknown player 'Zed': players are Asha, Ben"),
    # Tonk
    (lambda: tonk.payouts_knock(TOTALS, "Zed"), "unknown player 'Zed': players are Asha, Ben"),
    (lambda: tonk.payouts_went_out(["Asha", "Ben"], "Zed", discarded=True),
     "unknown player 'Zed': players are Asha, Ben"),
    (lambda: tonk.payouts_stock_out(TOTALS, stake=-1), "stake must be a positive whole number, got -1"),
    (lambda: tonk.payouts_knock(TOTALS, "Asha", stake=0), "stake must be a positive whole number, got 0"),
    (lambda: tonk.payouts_dealt_tonk(TOTALS, stake=1.5), "stake must be a positive whole number, got 1.5"),
    (lambda: tonk.payouts_stock_out({"Asha": 3}), "a Tonk hand needs at least 2 players, got 1"),
    (lambda: tonk.payouts_went_out(["Asha"], "Asha", discarded=True), "a Tonk hand needs at least 2 players, got 1"),
    (lambda: tonk.payouts_went_out(["Asha", "Asha"], "Asha", discarded=True), "player Asha is listed twice"),
    (lambda: tonk.payouts_knock({"Asha": 3, "Ben": -2}, "Asha"),
     "Ben's total must be a whole number, 0 or more, got -2"),
    (lambda: tonk.payouts_went_out(["Asha", "Ben"], "Asha", discarded="no"),
     "discarded must be True or False, got 'no'"),
]


@pytest.mark.parametrize("call, message", CASES, ids=[message for _, message in CASES])
def test_bad_input_message(call, message):
    with pytest.raises(ValueError) as error:
        call()
    assert str(error.value) == message
