"""Bunco: dice, four to a table, teams that move after every round."""
