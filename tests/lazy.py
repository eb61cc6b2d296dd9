"""Module-level test data made on first use, not when pytest collects the module (in every xdist worker)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_UNSET = object()


class Lazy:
    """Stands for `make()`: the first attribute read makes it, once; every read after goes to that value."""

    def __init__(self, make: Callable[[], Any]):
        self._make, self._value = make, _UNSET

    def __getattr__(self, name: str) -> Any:  # only for names Lazy itself lacks
        if self._value is _UNSET:
            self._value = self._make()
        return getattr(self._value, name)
