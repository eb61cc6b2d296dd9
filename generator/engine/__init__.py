"""Pure rules engines for every game: no I/O, only the rules and their exact arithmetic."""

from . import bunco, cards, dice, odds, stop_the_bus, tonk, tonk_play

__all__ = ["bunco", "cards", "dice", "odds", "stop_the_bus", "tonk", "tonk_play"]
