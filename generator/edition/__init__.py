"""Editions: a game's model under the rules a group plays by, and what its sheets show."""
