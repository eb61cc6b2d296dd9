"""Shared pure helpers of the games' engines: playing cards and dice (no I/O, no game rules)."""
