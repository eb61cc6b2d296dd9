"""Command-line options that only some kinds take: given for a build without such a kind, they are errors, not silence."""

from __future__ import annotations

from generator.core.errors import InputError, Problem
from generator.core.registry import GAMES


def _takers(games) -> list[tuple[str, str]]:
    """(game, kind) of every sheet of these games that takes --per-page."""
    return [(g, s.kind) for g in games for s in GAMES[g].sheets if s.per_page]


def _named(takers: list[tuple[str, str]]) -> str:
    kinds: dict[str, list[str]] = {}
    for game, kind in takers:
        kinds.setdefault(kind, []).append(game)
    return ", ".join(f"{kind} ({', '.join(games)})" for kind, games in kinds.items()) or "no kind"


def check_per_page(games: tuple[str, ...], kinds: tuple[str, ...], per_page: int) -> None:
    """`--per-page` given: at least one chosen kind of a chosen game must take it."""
    known = [g for g in games if g in GAMES]
    if not known:
        return  # an unknown game is reported by the build's own checks
    if any(kind in kinds for _, kind in _takers(known)):
        return
    chosen = [f"--{what} {' '.join(values)}" for what, values, every in (("games", games, tuple(GAMES)),
                                                                          ("kinds", kinds, None))
              if every is None or set(values) != set(every)]
    raise InputError(Problem("command line", None,
                             f"--per-page {per_page} applies only to {_named(_takers(GAMES))}, which this build does "
                             f"not make ({' '.join(chosen)}); leave --per-page out"))


def check_kit_per_page(game: str, per_page: int) -> None:
    """`rulesheets kit GAME --per-page N`: only a game whose kit has sheets several to a page takes it."""
    if game in GAMES and not _takers((game,)):
        raise InputError(Problem("command line", None,
                                 f"--per-page {per_page} applies only to kits with {_named(_takers(GAMES))}; "
                                 f"a {game} kit has none; leave --per-page out"))
    if per_page not in KIT_PER_PAGE:  # before the build's own 1, 2 or 4: a kit never prints one a page
        raise InputError(Problem("command line", None, f"--per-page must be 2 or 4 in a kit, got {per_page}"))


#: Tally sheets a page in a kit (a build also prints one a page).
KIT_PER_PAGE = (2, 4)
