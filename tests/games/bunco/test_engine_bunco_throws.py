"""Every Bunco throw in every round, against the rule restated independently."""

import itertools

import pytest

from generator.games.bunco.engine import Throw, score_throw

ROUNDS = range(1, 7)
ALL_THROWS = list(itertools.product(range(1, 7), repeat=3))


def rule(dice, target, wipeout):
    """The rule as DESIGN.md words it: (points, kind) with kind in bunco/baby/wipeout/plain."""
    matches = sum(1 for die in dice if die == target)
    three_alike = dice[0] == dice[1] == dice[2]
    if matches == 3:
        return 21, "bunco"
    if wipeout and target != 1 and dice == (1, 1, 1):
        return 0, "wipeout"
    if three_alike:
        return 5, "baby"
    return matches, "plain"


@pytest.mark.parametrize("wipeout", [False, True])
@pytest.mark.parametrize("target", ROUNDS)
def test_all_216_throws(target, wipeout):
    kinds = {"bunco": 0, "baby": 0, "wipeout": 0, "plain": 0}
    scoring = 0
    for dice in ALL_THROWS:
        throw = score_throw(dice, target, wipeout=wipeout)
        points, kind = rule(dice, target, wipeout)
        assert throw.dice == dice and throw.round_number == target
        assert throw.points == points, dice
        assert (throw.bunco, throw.baby_bunco, throw.wipeout) == (
            kind == "bunco", kind == "baby", kind == "wipeout"
        ), dice
        assert throw.rolls_again == (points > 0)
        kinds[kind] += 1
        scoring += points > 0
    wipeouts = 1 if wipeout and target != 1 else 0
    assert kinds == {"bunco": 1, "baby": 5 - wipeouts, "wipeout": wipeouts, "plain": 210}
    assert scoring == 96 - wipeouts


@pytest.mark.parametrize(
    "dice, target, wipeout, expected",
    [
        ((3, 3, 3), 3, False, Throw((3, 3, 3), 3, 21, True, False, False)),
        ((3, 3, 3), 2, False, Throw((3, 3, 3), 2, 5, False, True, False)),
        ((2, 5, 2), 2, False, Throw((2, 5, 2), 2, 2, False, False, False)),
        ((4, 5, 6), 1, False, Throw((4, 5, 6), 1, 0, False, False, False)),
        ((1, 1, 1), 1, True, Throw((1, 1, 1), 1, 21, True, False, False)),
        ((1, 1, 1), 4, True, Throw((1, 1, 1), 4, 0, False, False, True)),
        ((1, 1, 1), 4, False, Throw((1, 1, 1), 4, 5, False, True, False)),
    ],
)
def test_worked_throws(dice, target, wipeout, expected):
    assert score_throw(dice, target, wipeout=wipeout) == expected


def test_a_wipeout_passes_the_dice_and_a_score_keeps_them():
    assert not score_throw((1, 1, 1), 5, wipeout=True).rolls_again
    assert score_throw((5, 1, 2), 5).rolls_again
    assert not score_throw((4, 1, 2), 5).rolls_again


def test_written_dice_are_read():
    assert score_throw("3 3 5", 3).points == 2
    assert score_throw(["6", "6", "6"], 6).bunco


def test_native_digits_are_read():
    # Bengali and Nepali sheets write their own digits.
    assert score_throw("৩ ৩ ৩", 3).bunco
    assert score_throw(["४", "४", "२"], 4).points == 2
