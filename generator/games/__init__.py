"""The games: one package per game (engine, model, derived numbers, sheets, card, kit parts)."""
