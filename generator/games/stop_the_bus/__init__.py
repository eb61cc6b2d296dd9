"""Stop the Bus: three-card hands ranked as in Brag, tokens to the last player."""
