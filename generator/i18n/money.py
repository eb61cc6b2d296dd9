"""Limits on money amounts, kept apart from Babel so that checking options loads nothing heavy."""

from decimal import Decimal

#: The largest stake a payout sheet accepts (locale.toml or --stake): anything above is a typo.
MAX_STAKE = Decimal(1_000_000)
