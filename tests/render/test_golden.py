"""The HTML that goes into WeasyPrint, compared with committed snapshots (regenerate: `make golden`)."""

from __future__ import annotations

import pytest

from tests.golden import GOLDEN_DIR, render_all

RENDERED = render_all()


@pytest.mark.parametrize("rel", sorted(RENDERED))
def test_matches_golden(rel):
    path = GOLDEN_DIR / rel
    assert path.exists(), f"no snapshot for {rel}; run `make golden` and review it"
    assert RENDERED[rel] == path.read_text(encoding="utf-8"), f"{rel} changed; if intended, run `make golden`"


def test_no_stale_snapshots():
    stale = sorted(str(p.relative_to(GOLDEN_DIR)) for p in GOLDEN_DIR.rglob("*.html")) 
    assert stale == sorted(RENDERED)
