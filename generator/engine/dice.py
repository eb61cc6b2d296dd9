"""Dice: checking a throw someone wrote down, every possible throw, and rolling."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterable, Iterator

FACES = tuple(range(1, 7))
#: Bunco is played with three dice a throw.
DICE_PER_THROW = 3
_SEPARATORS = re.compile(r"[\s,]+")


def check_dice(dice: str | Iterable[int | str], count: int = DICE_PER_THROW) -> tuple[int, ...]:
    """The dice as a tuple of ints 1-6; accepts [3, 3, 5] or "3 3 5". Anything else is a ValueError."""
    if isinstance(dice, str):
        items = [token for token in _SEPARATORS.split(dice) if token]
    else:
        try:
            items = list(dice)
        except TypeError:
            raise ValueError(f"a throw is {count} dice, got {dice!r}") from None
    faces = []
    for item in items:
        # YAML and hand-typed input may give "5" for 5; bools are ints to Python, not to people.
        face = int(item) if isinstance(item, str) and item.strip().isdecimal() else item
        if type(face) is not int or face not in FACES:
            shown = repr(item) if isinstance(item, str) else item
            raise ValueError(f"a die shows {shown}; dice show 1 to 6")
        faces.append(face)
    if len(faces) != count:
        raise ValueError(f"a throw is {count} dice, got {len(faces)}")
    return tuple(faces)


def all_throws(count: int = DICE_PER_THROW) -> Iterator[tuple[int, ...]]:
    """Every ordered throw of `count` dice (216 for three), each equally likely."""
    return itertools.product(FACES, repeat=count)


def roll(rng: random.Random, count: int = DICE_PER_THROW) -> tuple[int, ...]:
    """One throw drawn from `rng`, so a seed replays the same evening."""
    return tuple(rng.randint(1, 6) for _ in range(count))
