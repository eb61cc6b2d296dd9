"""Tonk: knock rummy for money, paid out however a hand ends."""
