"""Static rules site under output/site/ (being written; see issue 6)."""

from __future__ import annotations


def render_site(prep, docs, entries, opts, files=None) -> dict[str, bytes]:
    """Files of the static site by path relative to output/ (site/...)."""
    return {}
