"""Bunco: scoring a throw, moving players between tables, and simulating whole evenings."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace

from generator.engine.dice import DICE_PER_THROW, check_dice, roll

#: Two teams of two: the shape of every table (structure of the game, not a house rule).
PLAYERS_PER_TABLE = 4
#: The round whose target is 1, where three 1s are a Bunco and never a wipeout.
FIRST_ROUND = 1
#: Three of this face are a wipeout when the rule is on (outside the first round).
WIPEOUT_FACE = 1


@dataclass(frozen=True)
class Rules:
    """The rules one table plays by; the defaults are the standard rules, every field a house-rule switch."""

    rounds_per_set: int = 6
    """Rounds in a game (a set); round r has target number r, so at most 6."""
    point_per_die: int = 1
    """Points for each die showing the round number."""
    baby_bunco_points: int = 5
    """Points for three alike that are not the round number."""
    bunco_points: int = 21
    """Points for three of the round number."""
    target_points: int = 21
    """Points at which a team at the head table rings the bell and ends the round."""
    wipeout: bool = False
    """Three 1s outside round 1 reset the team's points for the round to 0."""
    sets_per_evening: int = 4
    """Sets in an evening (sheets have a column for each)."""

    def __post_init__(self) -> None:
        for name in ("rounds_per_set", "point_per_die", "baby_bunco_points", "bunco_points", "target_points",
                     "sets_per_evening"):
            value = getattr(self, name)
            if type(value) is not int or value < 1:
                raise ValueError(f"{name} must be a whole number, 1 or more, got {value!r}")
        if self.rounds_per_set > 6:
            raise ValueError(f"rounds_per_set must be 1 to 6 (a die has six faces), got {self.rounds_per_set}")
        if type(self.wipeout) is not bool:
            raise ValueError(f"wipeout must be true or false, got {self.wipeout!r}")


STANDARD = Rules()

Player = Hashable
Team = tuple[Player, Player]
Table = tuple[Team, Team]


@dataclass(frozen=True)
class Throw:
    """One throw of three dice in one round, scored."""

    dice: tuple[int, int, int]
    """The three faces, in the order given."""
    round_number: int
    """The round, 1 to rules.rounds_per_set, which is also the target number."""
    points: int
    """Points the throw adds to the team's round score (0 for a wipeout)."""
    bunco: bool
    """All three dice show the round number: a Bunco (rules.bunco_points)."""
    baby_bunco: bool
    """All three dice alike but not the round number (rules.baby_bunco_points; never set on a wipeout)."""
    wipeout: bool
    """Three 1s outside round 1 with the wipeout rule on: the team's round points go back to 0."""

    @property
    def rolls_again(self) -> bool:
        """A throw that scores keeps the dice; anything else passes them left."""
        return self.points > 0


def _check_round(round_number: int, rules: Rules) -> int:
    if type(round_number) is not int or not FIRST_ROUND <= round_number <= rules.rounds_per_set:
        raise ValueError(f"the round must be {FIRST_ROUND} to {rules.rounds_per_set}, got {round_number!r}")
    return round_number


def score_throw(dice, round_number: int, *, wipeout: bool | None = None, rules: Rules = STANDARD) -> Throw:
    """Score three dice in round `round_number`: a Bunco, a baby bunco, else points per die showing the round.

    Every value comes from `rules` (a group that plays Buncos for 25 says so there);
    `wipeout`, when given, overrides `rules.wipeout` for this throw.
    """
    faces = check_dice(dice)
    target = _check_round(round_number, rules)
    wipeout = rules.wipeout if wipeout is None else wipeout
    alike = len(set(faces)) == 1
    if alike and faces[0] == target:
        return Throw(faces, target, rules.bunco_points, True, False, False)
    if alike and wipeout and faces[0] == WIPEOUT_FACE:
        # Round 1 was handled above: there three 1s are a Bunco, never a wipeout.
        return Throw(faces, target, 0, False, False, True)
    if alike:
        return Throw(faces, target, rules.baby_bunco_points, False, True, False)
    return Throw(faces, target, rules.point_per_die * faces.count(target), False, False, False)


# --- moving between tables -------------------------------------------------------------


def _check_seating(seating) -> list[Table]:
    tables = list(seating)
    if not tables:
        raise ValueError("the seating has no tables")
    seen: set = set()
    checked = []
    for number, table in enumerate(tables, start=1):
        try:
            (a, b), (c, d) = table
        except (TypeError, ValueError):
            raise ValueError(f"table {number} must be two teams of two players, got {table!r}") from None
        for player in (a, b, c, d):
            if player in seen:
                raise ValueError(f"player {player} appears twice in the seating")
            seen.add(player)
        checked.append(((a, b), (c, d)))
    return checked


def _check_winners(winners, table_count: int) -> list[int]:
    winners = list(winners)
    if len(winners) != table_count:
        raise ValueError(f"there are {table_count} tables but {len(winners)} winners")
    for number, winner in enumerate(winners, start=1):
        if type(winner) is not int or winner not in (0, 1):
            raise ValueError(
                f"the winner at table {number} must be 0 or 1 (the first or second team), got {winner!r}"
            )
    return winners


def next_seating(seating: Sequence[Table], winners: Sequence[int], *, rules: Rules = STANDARD) -> list[Table]:
    """The seating for the next round, after the team `winners[i]` won at table i (table 0 the head table).

    Who stays and who arrives at table i:

    - head table: its winners stay; the winners of table 1 arrive;
    - any other table: its losers stay; the winners of the table below arrive,
      except at the lowest table, where the head table's losers arrive.

    With one table the winners stay and the losers count as the arrivals. The two who
    stayed then split up: table i becomes ((stayer 1, arrival 1), (stayer 2, arrival 2)),
    each pair in the order they sat in their old team. Messages count tables from 1.
    """
    tables = _check_seating(seating)
    won = _check_winners(winners, len(tables))
    winning = [table[w] for table, w in zip(tables, won)]
    losing = [table[1 - w] for table, w in zip(tables, won)]
    last = len(tables) - 1
    result = []
    for i in range(len(tables)):
        stayers = winning[0] if i == 0 else losing[i]
        arrivals = winning[i + 1] if i < last else losing[0]
        result.append(((stayers[0], arrivals[0]), (stayers[1], arrivals[1])))
    return result


# --- whole evenings --------------------------------------------------------------------


class _Ghost:
    """The placeholder in an empty seat: its partner rolls its turns; it gets no tally."""

    def __repr__(self) -> str:
        return "(ghost)"

    __str__ = __repr__

    def __reduce__(self) -> str:
        # Pickling (e.g. for worker processes) must hand back the one module-level ghost.
        return "GHOST"


GHOST = _Ghost()


@dataclass(frozen=True)
class RoundRecord:
    """What happened in one round of an evening."""

    set_number: int
    """The set, counted from 1."""
    round_number: int
    """The round within the set, 1 to rules.rounds_per_set (also the target number)."""
    seating: tuple[Table, ...]
    """Who sat where during the round, head table first (may include GHOST)."""
    points: tuple[tuple[int, int], ...]
    """Each table's final points, first team then second."""
    winners: tuple[int, ...]
    """The winning team (0 or 1) at each table."""
    buncos: tuple[Player, ...]
    """The players who rolled a Bunco during the round, in the order rolled."""


@dataclass(frozen=True)
class Evening:
    """A simulated evening: every round and every player's tally."""

    players: tuple[Player, ...]
    """The real players, in the order given (never the ghost)."""
    rounds: tuple[RoundRecord, ...]
    standings: dict
    """player -> (wins, losses, buncos), in the order of `players`."""

    @property
    def winner(self) -> tuple[Player, ...]:
        """Everyone with the most wins (usually one player; ties are kept)."""
        best = max(wins for wins, _, _ in self.standings.values())
        return tuple(p for p, (wins, _, _) in self.standings.items() if wins == best)

    @property
    def most_buncos(self) -> tuple[Player, ...]:
        """Everyone with the most Buncos, or () when nobody rolled one."""
        best = max(buncos for _, _, buncos in self.standings.values())
        return tuple(p for p, (_, _, buncos) in self.standings.items() if best and buncos == best)


def _seats_for(players) -> list[Player]:
    players = list(players)
    if len(set(players)) != len(players):
        twice = next(p for p in players if players.count(p) > 1)
        raise ValueError(f"player {twice} is listed twice")
    if len(players) < 3 or len(players) % 4 not in (0, 3):
        raise ValueError(
            f"Bunco needs a multiple of four players (4, 8, 12, ...) or one short of it, got {len(players)}"
        )
    return players + [GHOST] * (len(players) % PLAYERS_PER_TABLE == PLAYERS_PER_TABLE - 1)


class _TableState:
    """The round in progress at one table: turn order, who holds the dice, points."""

    def __init__(self, table: Table):
        (a, b), (c, d) = table
        # Partners sit opposite, so passing left alternates teams: a, c, b, d.
        self.order = (a, c, b, d)
        self.holder = 0
        self.points = [0, 0]

    def throw(self, rng: random.Random, round_number: int, rules: Rules, buncos: list) -> None:
        seat = self.order[self.holder]
        # The ghost's partner sits opposite and rolls for it.
        roller = self.order[(self.holder + 2) % 4] if seat is GHOST else seat
        team = self.holder % 2
        result = score_throw(roll(rng), round_number, rules=rules)
        self.points[team] = 0 if result.wipeout else self.points[team] + result.points
        if result.bunco:
            buncos.append(roller)
        if not result.rolls_again:
            self.pass_dice()

    def pass_dice(self) -> None:
        self.holder = (self.holder + 1) % 4


def _play_round(seating: list[Table], round_number: int, rng: random.Random, rules: Rules, buncos: list):
    tables = [_TableState(table) for table in seating]
    # Lockstep: each tick every table makes one throw; the bell rings after the tick in
    # which a head-table team reaches the target, and the throw in progress elsewhere is that tick's.
    while max(tables[0].points) < rules.target_points:
        for table in tables:
            table.throw(rng, round_number, rules, buncos)
    for table in tables[1:]:
        while table.points[0] == table.points[1]:
            # One more throw per team: the holder throws once, the dice pass, the other team throws once.
            for _ in range(2):
                holder = table.holder
                table.throw(rng, round_number, rules, buncos)
                if table.holder == holder:
                    table.pass_dice()
    return tuple((t.points[0], t.points[1]) for t in tables)


def play_evening(players: Sequence[Player], *, sets: int | None = None, seed, wipeout: bool | None = None,
                 rules: Rules = STANDARD) -> Evening:
    """Simulate `sets` sets (default rules.sets_per_evening) of rules.rounds_per_set rounds, dice from random.Random(seed).

    Players start in the order given, four per table (the first two partners, the next
    two partners), the first four at the head table. Each round every table starts with
    its first listed player. One player short of a multiple of four: GHOST fills the last
    seat and its partner rolls its turns and keeps any Bunco rolled on them.
    """
    if wipeout is not None:
        rules = replace(rules, wipeout=wipeout)
    sets = rules.sets_per_evening if sets is None else sets
    if type(sets) is not int or sets < 1:
        raise ValueError(f"an evening needs a whole number of sets, 1 or more, got {sets!r}")
    seats = _seats_for(players)
    real = tuple(p for p in seats if p is not GHOST)
    seating = [((seats[i], seats[i + 1]), (seats[i + 2], seats[i + 3])) for i in range(0, len(seats), PLAYERS_PER_TABLE)]
    rng = random.Random(seed)
    tally = {p: [0, 0, 0] for p in real}
    records = []
    for set_number in range(1, sets + 1):
        for round_number in range(FIRST_ROUND, rules.rounds_per_set + 1):
            buncos: list = []
            points = _play_round(seating, round_number, rng, rules, buncos)
            winners = tuple(0 if first > second else 1 for first, second in points)
            for table, won in zip(seating, winners):
                for team_index, team in enumerate(table):
                    for player in team:
                        if player is not GHOST:
                            tally[player][0 if team_index == won else 1] += 1
            for player in buncos:
                tally[player][2] += 1
            records.append(
                RoundRecord(set_number, round_number, tuple(seating), points, winners, tuple(buncos))
            )
            seating = next_seating(seating, winners)
    standings = {p: tuple(tally[p]) for p in real}
    return Evening(real, tuple(records), standings)


def seats_for(players) -> list[Player]:
    """The seats for an evening, head table first: the players, plus GHOST when one short of a table.

    Raises ValueError for a count the rules cannot seat (fewer than three, or two short of a table).
    """
    return _seats_for(players)
