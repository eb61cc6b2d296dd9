"""The output folder: what --out may replace, one build at a time, the atomic swap."""
