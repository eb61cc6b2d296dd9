"""Stop the Bus: ranking three-card hands, playing a round, and token games to the last player."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import total_ordering

from generator.engine.cards import Card, as_cards, full_deck

CATEGORIES = ("high_card", "pair", "flush", "run", "running_flush", "three_of_a_kind")
#: Three cards in each hand and three in the centre: the shape of the game, not a house rule.
HAND_SIZE = 3
#: A turn swaps exactly one card; after a stop each other player has exactly one more turn.
CARDS_SWAPPED = 1
LAST_TURNS = 1
#: Every player tied for the lowest hand loses one token.
TOKENS_LOST = 1
MIN_PLAYERS = 2


@dataclass(frozen=True)
class Rules:
    """The rules one table plays by; the defaults are the standard rules, every field a house-rule switch."""

    ace_low_run: bool = False
    """A-2-3 is the lowest run (and, suited, the lowest running flush); K-A-2 is never a run."""
    tokens: int = 3
    """Tokens each player starts with."""

    def __post_init__(self) -> None:
        if type(self.ace_low_run) is not bool:
            raise ValueError(f"ace_low_run must be true or false, got {self.ace_low_run!r}")
        if type(self.tokens) is not int or self.tokens < 1:
            raise ValueError(f"tokens must be a whole number, 1 or more, got {self.tokens!r}")


STANDARD = Rules()
#: Kept for callers of the first engine API: the standard number of tokens.
STARTING_TOKENS = STANDARD.tokens


@total_ordering
@dataclass(frozen=True, eq=False)
class HandRank:
    """How good a three-card hand is; compares by category, then tiebreak ranks. Suits never count."""

    category: str
    """One of CATEGORIES."""
    tiebreak: tuple[int, ...]
    """Ranks deciding between hands of one category, most important first."""
    cards: tuple[Card, ...] = ()
    """The hand it was computed from (not part of the comparison)."""

    @property
    def key(self) -> tuple[int, tuple[int, ...]]:
        """(category index, tiebreak): the whole of the comparison."""
        return (CATEGORIES.index(self.category), self.tiebreak)

    def __eq__(self, other: object) -> bool:
        return self.key == other.key if isinstance(other, HandRank) else NotImplemented

    def __lt__(self, other: HandRank) -> bool:
        return self.key < other.key if isinstance(other, HandRank) else NotImplemented

    def __hash__(self) -> int:
        return hash(self.key)


def _check_hand(cards) -> list[Card]:
    hand = as_cards(cards)
    if len(hand) != HAND_SIZE:
        raise ValueError(f"a Stop the Bus hand has exactly 3 cards, got {len(hand)}")
    return hand


def hand_rank(cards, *, rules: Rules = STANDARD) -> HandRank:
    """Rank three distinct cards (a list of Card or text like "QH KH AH")."""
    hand = _check_hand(cards)
    ranks = sorted((card.rank for card in hand), reverse=True)
    suited = len({card.suit for card in hand}) == 1
    # Standard: the ace is high only, so the lowest run is 2-3-4 and A-2-3 is no run.
    consecutive = ranks[0] - ranks[1] == 1 and ranks[1] - ranks[2] == 1
    top = ranks[0]
    if rules.ace_low_run and ranks == [14, 3, 2]:
        # A-2-3 plays as 1-2-3: a run whose top card is the 3, below 2-3-4.
        consecutive, top = True, 3
    if ranks[0] == ranks[2]:
        category, tiebreak = "three_of_a_kind", (ranks[0],)
    elif consecutive:
        category, tiebreak = ("running_flush" if suited else "run"), (top,)
    elif suited:
        category, tiebreak = "flush", tuple(ranks)
    elif ranks[0] == ranks[1] or ranks[1] == ranks[2]:
        pair = ranks[1]  # the middle of three sorted ranks is always in the pair
        odd = ranks[2] if ranks[0] == ranks[1] else ranks[0]
        category, tiebreak = "pair", (pair, odd)
    else:
        category, tiebreak = "high_card", tuple(ranks)
    return HandRank(category, tiebreak, tuple(hand))


def _rank_of(hand, rules: Rules) -> HandRank:
    return hand if isinstance(hand, HandRank) else hand_rank(hand, rules=rules)


def compare(a, b, *, rules: Rules = STANDARD) -> int:
    """-1 if hand `a` is worse than `b`, 0 if they tie, 1 if better; each a HandRank or cards."""
    ra, rb = _rank_of(a, rules), _rank_of(b, rules)
    return (ra > rb) - (ra < rb)


def losers(hands: Mapping[str, object], *, rules: Rules = STANDARD) -> set[str]:
    """Every player whose hand is (or ties for) the lowest; cards must not repeat across hands."""
    if len(hands) < MIN_PLAYERS:
        raise ValueError(f"a showdown needs at least 2 hands, got {len(hands)}")
    ranks = {player: hand_rank(cards, rules=rules) for player, cards in hands.items()}
    as_cards([card for rank in ranks.values() for card in rank.cards])
    lowest = min(ranks.values())
    return {player for player, rank in ranks.items() if rank == lowest}


# --- one round -------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundState:
    """A round in progress; every move returns a new state."""

    players: tuple[str, ...]
    """Seating order going left (clockwise); the player after the dealer starts."""
    dealer: str
    hands: Mapping[str, tuple[Card, ...]]
    """Each player's three cards."""
    centre: tuple[Card, ...]
    """The three face-up cards anyone may swap with."""
    turn: int = 0
    """Turns taken so far; play goes round from the dealer's left."""
    stopped_by: str | None = None
    final_turns_left: int | None = None
    """After a stop, how many of the other players still have their one last turn."""
    may_stop_after_swap: str | None = None
    """The player who has just swapped and may still say "stop the bus"."""
    rules: Rules = STANDARD
    """The rules the showdown ranks hands by."""

    @property
    def current(self) -> str:
        """The player whose turn it is."""
        start = self.players.index(self.dealer) + 1
        return self.players[(start + self.turn) % len(self.players)]

    @property
    def over(self) -> bool:
        """The bus was stopped and everyone else has had their last turn: time for the showdown."""
        return self.final_turns_left == 0

    def first_turn(self, player: str) -> bool:
        """It is `player`'s turn and their first of the round."""
        return self.turn < len(self.players) and player == self.current


def deal_round(players: Sequence[str], dealer: str, rng: random.Random, *, rules: Rules = STANDARD) -> RoundState:
    """Shuffle with `rng` and deal 3 cards each, one at a time from the dealer's left, then 3 to the centre."""
    seats = _check_players(players)
    _check_player(seats, dealer)
    deck = full_deck()
    rng.shuffle(deck)
    start = seats.index(dealer) + 1
    order = [seats[(start + i) % len(seats)] for i in range(len(seats))]
    hands = {p: tuple(deck[i * len(order) + seat] for i in range(HAND_SIZE)) for seat, p in enumerate(order)}
    centre = tuple(deck[HAND_SIZE * len(order): HAND_SIZE * len(order) + HAND_SIZE])
    return RoundState(seats, dealer, {p: hands[p] for p in seats}, centre, rules=rules)


def _check_players(players: Sequence[str]) -> tuple[str, ...]:
    seats = tuple(players)
    if len(seats) < MIN_PLAYERS:
        raise ValueError(f"Stop the Bus needs at least 2 players, got {len(seats)}")
    if len(seats) * HAND_SIZE + HAND_SIZE > 52:
        raise ValueError(f"one deck deals at most 16 players, got {len(seats)}")
    for player in seats:
        if seats.count(player) > 1:
            raise ValueError(f"player {player} is listed twice")
    return seats


def _check_player(players: Sequence[str], player: str) -> None:
    if player not in players:
        raise ValueError(f"unknown player {player!r}: players are {', '.join(map(str, players))}")


def _check_turn(state: RoundState, player: str) -> None:
    _check_player(state.players, player)
    if state.over:
        raise ValueError("the round is over: go to the showdown")
    if player != state.current:
        raise ValueError(f"it is {state.current}'s turn, not {player}'s")


def _end_turn(state: RoundState, **changes) -> RoundState:
    left = state.final_turns_left
    if left is not None and "final_turns_left" not in changes:
        changes["final_turns_left"] = left - 1
    return replace(state, turn=state.turn + 1, **changes)


def swap(state: RoundState, player: str, hand_card, centre_card, *, stop: bool = False) -> RoundState:
    """`player` swaps one hand card for one centre card; with `stop`, then says "stop the bus"."""
    _check_turn(state, player)
    (give,) = as_cards([hand_card])
    (take,) = as_cards([centre_card])
    if give not in state.hands[player]:
        raise ValueError(f"{player} has no {give} in hand")
    if take not in state.centre:
        raise ValueError(f"{take} is not in the centre")
    hand = tuple(take if card == give else card for card in state.hands[player])
    centre = tuple(give if card == take else card for card in state.centre)
    hands = {**state.hands, player: hand}
    after = _end_turn(state, hands=hands, centre=centre, may_stop_after_swap=None)
    if stop:
        return _stop(after, player)
    if state.stopped_by is None:
        after = replace(after, may_stop_after_swap=player)
    return after


def stop_the_bus(state: RoundState, player: str) -> RoundState:
    """`player` says "stop the bus": right after their swap, or instead of swapping on their first turn."""
    _check_player(state.players, player)
    if state.stopped_by is not None:
        raise ValueError(f"the bus was already stopped by {state.stopped_by}")
    if player == state.may_stop_after_swap:
        return _stop(state, player)
    _check_turn(state, player)
    if not state.first_turn(player):
        raise ValueError(f"{player} may stop without swapping only on their first turn")
    return _stop(_end_turn(state), player)


def _stop(state: RoundState, player: str) -> RoundState:
    if state.stopped_by is not None:
        raise ValueError(f"the bus was already stopped by {state.stopped_by}")
    # Every other player gets exactly one more turn.
    return replace(state, stopped_by=player, final_turns_left=LAST_TURNS * (len(state.players) - 1),
                   may_stop_after_swap=None)


def showdown(state: RoundState) -> set[str]:
    """The players who lose a token: every hand tied for the lowest."""
    if not state.over:
        raise ValueError("the round is not over: the bus has not been stopped or turns remain")
    return losers(state.hands, rules=state.rules)


# --- a game for tokens -----------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """A strategy's choice: swap `hand_card` for `centre_card` (None for no swap), then maybe stop."""

    hand_card: Card | None = None
    centre_card: Card | None = None
    stop: bool = False


Strategy = Callable[[RoundState, str, random.Random], Move]


def default_strategy(state: RoundState, player: str, rng: random.Random) -> Move:
    """Keep a dealt flush or better; otherwise make the best swap, stopping once the hand is good enough."""
    hand = state.hands[player]
    if (state.stopped_by is None and state.first_turn(player)
            and hand_rank(hand, rules=state.rules).category in CATEGORIES[2:]):
        return Move(stop=True)
    options = [
        (hand_rank([take if card == give else card for card in hand], rules=state.rules), give, take)
        for give in hand for take in state.centre
    ]
    best, give, take = max(options, key=lambda option: option[0])
    # Settle for less the longer the round goes, so every round ends.
    rounds_played = state.turn // len(state.players)
    needed = max(0, 2 - rounds_played)  # flush, then pair, then anything
    stop = state.stopped_by is None and CATEGORIES.index(best.category) >= needed
    return Move(give, take, stop)


@dataclass(frozen=True)
class Game:
    """The tokens between rounds: who is still in, the pot, and who deals next."""

    players: tuple[str, ...]
    """Everyone who started, in seating order going left."""
    dealer: str
    """Who deals the next round."""
    tokens: Mapping[str, int]
    pot: int = 0
    rules: Rules = STANDARD

    @classmethod
    def start(cls, players: Sequence[str], dealer: str, *, rules: Rules = STANDARD) -> Game:
        """A new game: rules.tokens tokens each, an empty pot."""
        seats = _check_players(players)
        _check_player(seats, dealer)
        return cls(seats, dealer, {p: rules.tokens for p in seats}, rules=rules)

    @property
    def active(self) -> tuple[str, ...]:
        """The players still holding a token, in seating order."""
        return tuple(p for p in self.players if self.tokens[p])

    @property
    def over(self) -> bool:
        return len(self.active) == 1

    @property
    def winner(self) -> str | None:
        """The last player holding a token, who takes the pot; None while the game goes on."""
        return self.active[0] if self.over else None

    def settle(self, losers: set[str]) -> Game:
        """Each loser puts a token in the pot; the deal passes left to the next player still in.

        If that would take every remaining player's last token, nobody loses one (the
        round is dealt again): the rules leave the case open and a game needs a winner.
        """
        if self.over:
            raise ValueError(f"the game is over: {self.winner} won")
        for player in losers:
            if player not in self.active:
                raise ValueError(f"{player} is not in the game")
        if set(losers) == set(self.active) and all(self.tokens[p] == 1 for p in losers):
            losers = set()
        tokens = {p: count - TOKENS_LOST * (p in losers) for p, count in self.tokens.items()}
        index = self.players.index(self.dealer)
        seats = self.players[index + 1:] + self.players[:index + 1]
        dealer = next(p for p in seats if tokens[p])
        return Game(self.players, dealer, tokens, self.pot + TOKENS_LOST * len(losers), self.rules)


@dataclass(frozen=True)
class RoundResult:
    """One round of a token game."""

    dealer: str
    stopped_by: str
    hands: Mapping[str, tuple[Card, ...]]
    """Everyone's hand at the showdown."""
    losers: frozenset[str]
    """Who lost a token (empty when the round had to be dealt again)."""
    tokens: Mapping[str, int]
    """Tokens held after the round."""
    pot: int


@dataclass(frozen=True)
class GameResult:
    """A simulated game to the last player holding a token."""

    winner: str
    pot: int
    """Tokens lost into the pot over the game; the winner takes them."""
    history: tuple[RoundResult, ...]


def first_dealer(players: Sequence[str], rng: random.Random) -> str:
    """Everyone cuts a card; the lowest rank deals, cutting again among any tied for lowest."""
    contenders = list(players)
    while len(contenders) > 1:
        cut = dict(zip(contenders, rng.sample(full_deck(), len(contenders))))
        low = min(card.rank for card in cut.values())
        contenders = [p for p in contenders if cut[p].rank == low]
    return contenders[0]


def simulate_game(players: Sequence[str], seed, strategy: Strategy | None = None, *,
                  rules: Rules = STANDARD) -> GameResult:
    """Play rounds from random.Random(seed) with `strategy` (default_strategy) until one player holds tokens."""
    choose = strategy or default_strategy
    rng = random.Random(seed)
    game = Game.start(players, first_dealer(_check_players(players), rng), rules=rules)
    history = []
    while not game.over:
        state = _play_one_round(deal_round(game.active, game.dealer, rng, rules=rules), choose, rng)
        after = game.settle(showdown(state))
        lost = frozenset(p for p in game.active if after.tokens[p] < game.tokens[p])
        history.append(RoundResult(game.dealer, state.stopped_by, state.hands, lost, after.tokens, after.pot))
        game = after
    return GameResult(game.winner, game.pot, tuple(history))


def _play_one_round(state: RoundState, choose: Strategy, rng: random.Random) -> RoundState:
    # A strategy that never stops would loop for ever; this bound is far past any real round.
    for _ in range(1000 * len(state.players)):
        if state.over:
            return state
        player = state.current
        move = choose(state, player, rng)
        if move.hand_card is None:
            state = stop_the_bus(state, player)
        else:
            state = swap(state, player, move.hand_card, move.centre_card, stop=move.stop and state.stopped_by is None)
    raise RuntimeError("the strategy never stopped the bus")
