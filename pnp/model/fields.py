"""Typed reads from a TOML document that report, rather than raise, bad values.

MkDocs-style config validation: every key is read through one of these
helpers, so a string where a number belongs, a negative count or an unknown
key each become one report entry with the file and line, and reading goes on.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pnp.diagnostics import Report, clipped
from pnp.load.toml_lines import TomlDoc

Path_ = tuple[str | int, ...]

_MISSING = object()


@dataclass
class TomlReader:
    doc: TomlDoc
    report: Report
    #: a key this table lacks -> the unknown key written instead ("sise" for "size") and its warning
    _likely_typos: dict[tuple, tuple[str, Any]] = field(default_factory=dict, init=False, repr=False)

    def line(self, *path: str | int) -> int | None:
        return self.doc.line_of(*path)

    def error(self, path: Path_, message: str, fix: str | None = None, language: str | None = None) -> None:
        typo = self._likely_typos.get(tuple(path)) if message in MISSING_MESSAGES else None
        if typo is not None:  # one mistake: the key is missing because it was misspelt, said once, there
            written, warning = typo
            if warning in self.report.diagnostics:
                self.report.diagnostics.remove(warning)
            where = tuple(path[:-1]) + (written,)
            self.report.error(f"{_dotted(path)}: missing; {written!r} on this line looks like it", self.doc.path,
                              self.line(*where), f"rename {written!r} to {path[-1]!r}")
            return
        self.report.error(f"{_dotted(path)}: {message}", self.doc.path, self.line(*path), fix, language=language)

    def warning(self, path: Path_, message: str, fix: str | None = None) -> None:
        self.report.warning(f"{_dotted(path)}: {message}", self.doc.path, self.line(*path), fix)

    def value(self, table: dict[str, Any], path: Path_, key: str, default: Any = _MISSING) -> Any:
        if key in table:
            return table[key]
        if default is _MISSING:
            self.error(path + (key,), "missing required key", f"add '{key} = ...' to this table")
            return None
        return default

    def integer(self, table: dict[str, Any], path: Path_, key: str, default: Any = _MISSING,
                minimum: int | None = 0, maximum: int | None = None) -> int | None:
        """A whole number within ``minimum``..``maximum``: a bound checked here, before any count is
        enumerated or allocated (guarded.LIMITS holds the bounds)."""
        value = self.value(table, path, key, default)
        if value is None or value is default and default is not _MISSING:
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(path + (key,), f"expected a whole number, found {value!r}", f"write {key} = 3, without quotes")
            return None
        if minimum is not None and value < minimum:
            self.error(path + (key,), f"must be at least {minimum}, found {value}")
            return None
        if maximum is not None and value > maximum:
            self.error(path + (key,), f"must be at most {maximum:,}, found {clipped(str(value), 40)}",
                       "check the number: a typo of a few digits?")
            return None
        return value

    def string(self, table: dict[str, Any], path: Path_, key: str, default: Any = _MISSING) -> str | None:
        value = self.value(table, path, key, default)
        if value is None or (value is default and default is not _MISSING):
            return value
        if not isinstance(value, str):
            self.error(path + (key,), f"expected text, found {value!r}", f'write {key} = "..."')
            return None
        return value

    def names(self, table: dict[str, Any], path: Path_, key: str, what: str) -> tuple[str, ...]:
        """A list of names (kinds, suits, colours); one name written alone is a list of one. Anything
        else is an error, not a list of its characters."""
        value = table.get(key, [])
        if isinstance(value, str):
            return (value,)
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return tuple(value)
        self.error(path + (key,), f"expected a list of {what}, found {value!r}", f'write {key} = ["...", "..."]')
        return ()

    def table(self, table: dict[str, Any], path: Path_, key: str, required: bool = False) -> dict[str, Any]:
        value = table.get(key)
        if value is None:
            if required:
                self.error(path + (key,), "missing required table", f"add a [{_toml_header(path + (key,))}] table"
                           + (f" under that [[{path[-2]}]]" if len(path) >= 2 and isinstance(path[-1], int) else ""))
            return {}
        if not isinstance(value, dict):
            self.error(path + (key,), f"expected a table, found {value!r}")
            return {}
        return value

    def tables(self, table: dict[str, Any], path: Path_, key: str) -> list[tuple[int, dict[str, Any]]] | None:
        """An array of tables (``[[key]]``) as (index, table) pairs, none if absent; an entry that is no
        table is an error at its line, and the rest is still read. None (reported) when the value is no
        array at all, as ``bonus = 3``: then the caller has nothing it could count."""
        value = table.get(key, [])
        if not isinstance(value, list):
            self.error(path + (key,), f"expected [[{_toml_header(path + (key,))}]] tables, found {value!r}",
                       f"write each as a table of its own, headed [[{_toml_header(path + (key,))}]]")
            return None
        found = []
        for index, entry in enumerate(value):
            if isinstance(entry, dict):
                found.append((index, entry))
            else:
                self.error(path + (key, index), f"expected a [[{_toml_header(path + (key,))}]] table, found {entry!r}")
        return found

    def languages_map(self, table: dict[str, Any], path: Path_, key: str, languages: Iterable[str],
                      required: bool = True, most: int | None = None) -> dict[str, str]:
        """A per-language text such as ``title = { en = "...", ja = "..." }``.

        Every declared language must be present: a missing translation of a
        title or a card name is an error, not a blank on the printed page.
        ``most``: the longest text taken, in characters, for a label that is fitted to a box (a 1 MB
        title was shrunk and broken again at every size, for minutes).
        """
        value = table.get(key)
        if value is None:
            if required:
                example = ", ".join(f"{lang} = ..." for lang in languages)
                self.error(path + (key,), "missing", f"add {key} = {{ {example} }}")
            return {}
        if isinstance(value, str):
            self.error(path + (key,), "expected one text per language",
                       f'write {key} = {{ {", ".join(f"{lang} = ..." for lang in languages)} }}')
            return {}
        if not isinstance(value, dict):
            self.error(path + (key,), f"expected a table of texts per language, found {value!r}")
            return {}
        result: dict[str, str] = {}
        for lang, text in value.items():
            if not isinstance(text, str):
                self.error(path + (key, lang), f"expected text, found {text!r}")
            elif most is not None and len(text) > most:
                self.error(path + (key, lang), f"{key} of {len(text):,} characters is longer than {most:,}",
                           f"shorten it: a {key} is set in a box on the page or the card", language=lang)
            elif lang not in languages:
                self.warning(path + (key, lang), f"language {lang!r} is not declared in 'languages'",
                             "add it to languages, or remove this text")
            else:
                result[lang] = text
        for lang in languages:
            if not result.get(lang, "").strip() and lang not in value:
                self.error(path + (key,), f"missing translation for {lang!r}", f"add {lang} = \"...\"",
                           language=lang)
        return result

    def unknown_keys(self, table: dict[str, Any], path: Path_, known: Iterable[str]) -> None:
        known_set = set(known)
        for key in table:
            if key not in known_set:
                hint = _closest(key, known_set)
                self.warning(path + (key,), "unknown key (ignored)",
                             f"did you mean {hint!r}?" if hint else f"known keys: {', '.join(sorted(known_set))}")
                if hint is not None and hint not in table:
                    self._likely_typos[tuple(path) + (hint,)] = (key, self.report.diagnostics[-1])


#: what a required key's absence is reported as
MISSING_MESSAGES = {"missing", "missing required key"}


def _toml_header(path: Path_) -> str:
    """How TOML writes the table at ``path``: ``example.expect`` for the ``expect`` of an [[example]]."""
    return ".".join(str(part) for part in path if not isinstance(part, int))


def _dotted(path: Path_) -> str:
    parts = []
    for part in path:
        if isinstance(part, int):
            parts[-1] = f"{parts[-1]}[{part + 1}]" if parts else f"[{part + 1}]"
        else:
            parts.append(part)
    return ".".join(parts) if parts else "(top level)"


def _closest(word: str, candidates: set[str], cutoff: float = 0.6) -> str | None:
    import difflib

    matches = difflib.get_close_matches(word, sorted(candidates), n=1, cutoff=cutoff)
    return matches[0] if matches else None


def closest(word: str, candidates: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The known name a typo most likely meant, for 'did you mean' hints; a higher ``cutoff`` asks for
    a closer likeness, where a far-fetched hint would mislead more than none."""
    return _closest(word, set(candidates), cutoff)
