"""The HTML that goes into WeasyPrint, compared with committed snapshots (regenerate: `make golden`)."""

from __future__ import annotations

from functools import cache

import pytest

from tests.golden import GOLDEN_DIR, render_all

#: The snapshots (test_every_document_has_a_snapshot holds them to what is rendered, both ways).
SNAPSHOTS = sorted(str(p.relative_to(GOLDEN_DIR)) for p in GOLDEN_DIR.rglob("*.html"))


@cache
def rendered() -> dict[str, str]:
    return render_all()


@pytest.mark.parametrize("rel", SNAPSHOTS)
def test_matches_golden(rel):
    assert rel in rendered(), f"{rel}: a snapshot of a document no longer rendered; delete it"
    assert rendered()[rel] == (GOLDEN_DIR / rel).read_text(encoding="utf-8"), \
        f"{rel} changed; if intended, run `make golden`"


def test_every_document_has_a_snapshot():
    missing = sorted(set(rendered()) - set(SNAPSHOTS))
    assert not missing, f"no snapshot for {missing}; run `make golden` and review them"
    assert SNAPSHOTS
