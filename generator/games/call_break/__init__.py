"""Call Break, the fourth game: its engine, derived numbers, worked-example kinds and model."""
