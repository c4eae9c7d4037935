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


def localised_list(value: Any, lang: str) -> list[str]:
    """A list of texts (a table's header, its notes) in ``lang``; one text alone is a list of one.
    Anything else is no list at all: the rules module's check reports it (see :func:`list_problem`)."""
    chosen = localised(value, lang)
    if isinstance(chosen, str):
        return [chosen]
    return [str(item) for item in chosen] if isinstance(chosen, list) else []


def list_problem(value: Any) -> str | None:
    """What is wrong with a per-language list of texts, or None: ``{ en = ["a", "b"], ja = [...] }``."""
    for text in value.values() if isinstance(value, dict) else [value]:
        if not isinstance(text, str | list) or (isinstance(text, list) and not all(isinstance(t, str) for t in text)):
            return f"expected a list of texts per language, found {text!r}"
    return None
