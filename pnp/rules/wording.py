"""Per-language wording in rules data: ``{ en = "...", ja = "..." }``."""

from __future__ import annotations

from typing import Any


def localised(value: Any, lang: str) -> Any:
    """``value`` in ``lang``, falling back to English, then to any language.

    A plain (non-table) value is returned as it is, so data may give one
    wording for all languages where nothing needs translating.
    """
    if not isinstance(value, dict):
        return value
    return value.get(lang) or value.get("en") or next(iter(value.values()), "")
