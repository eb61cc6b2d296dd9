"""Every change to a dependency's internals, version-gated, in one place (see README.md)."""
