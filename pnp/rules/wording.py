"""Per-language wording in rules data: ``{ en = "...", ja = "..." }``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pnp.diagnostics import Report
    from pnp.load.toml_lines import TomlDoc


#: languages set without spaces between words: their marks and line heights differ from Latin text's
CJK_LANGUAGES = frozenset({"ja", "zh", "ko"})


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


def text_problem(value: Any) -> str | None:
    """What is wrong with a per-language text (``{ en = "...", ja = "..." }``, or one text), or None."""
    for text in value.values() if isinstance(value, dict) else [value]:
        if not isinstance(text, str):
            return f"expected a text per language, found {text!r}"
    return None


def report_aid_problems(doc: TomlDoc, report: Report) -> None:
    """Each :func:`aid_problems` of a rules.toml as an error at its line."""
    for path, problem in aid_problems(doc.data.get("aid", {})):
        report.error(f"{'.'.join(map(str, path))}: {problem}", doc.path, doc.line_of(*path))


def aid_problems(aids: Any) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """(key path, problem) for the ``[aid.*]`` tables of a rules.toml whose title, header, notes, rows or
    notes' wording are not texts (or lists of texts) per language, so the check names them at their
    line instead of a table failing to build."""
    if not isinstance(aids, dict):
        return
    for name, spec in aids.items():
        if not isinstance(spec, dict):
            yield ("aid", name), f"expected a table, found {spec!r}"
            continue
        for key in ("header", "notes"):
            problem = list_problem(spec[key]) if key in spec else None
            if problem is not None:
                yield ("aid", name, key), problem
        for key in ("title", "shift_note", "no", "join", "last_join"):
            problem = text_problem(spec[key]) if key in spec else None
            if problem is not None:
                yield ("aid", name, key), problem
        rows = spec.get("row", [])
        for index, row in enumerate(rows if isinstance(rows, list) else [rows]):
            problem = list_problem(row) if isinstance(row, dict) else f"expected a table, found {row!r}"
            if problem is not None:
                yield ("aid", name, "row", index), problem
