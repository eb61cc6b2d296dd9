"""Bottom layer: errors, paths, files, caches, the game registry: no knowledge of any game."""
