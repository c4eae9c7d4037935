"""Cards from a CSV card list.

Columns: ``id, count, kind, suit, colour, rank, provisional``, texts per
language as ``name.en``/``name.ja`` and ``text.en``/``text.ja``, and the extra
columns a component declares in ``fields`` (plain, or per language as
``animal.en``). Anything else is a warning that names the column, because a
typo in a header would otherwise silently drop a whole column.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pnp.diagnostics import CardErrors, Report
from pnp.load.csv_table import CsvTable
from pnp.load.guarded import LIMITS
from pnp.model.fields import closest
from pnp.model.game import Card, Source

if TYPE_CHECKING:
    from pnp.model.game import Game

#: a card id: letters (of any script), digits, '.', '+', '-' and '_', starting with a letter or digit
CARD_ID = re.compile(r"[^\W_][\w.+-]{0,99}")
BASE_COLUMNS = ("id", "count", "kind", "suit", "colour", "rank", "provisional")
TEXT_FIELDS = ("name", "text")
TRUE_WORDS = {"yes", "y", "true", "1", "x", "provisional"}


def read_cards(table: CsvTable, component: str, fields: tuple[str, ...], game: Game, report: Report,
               provisional: bool = False) -> tuple[tuple[Card, ...], bool] | None:
    """The cards of a card list, and whether every count could be read; None when its header makes it
    no card list at all (reported), so the component's counts and grids are not checked against an
    empty deck as well. A count that cannot be read leaves the totals unknown: checking them would
    only repeat that error."""
    languages = game.languages
    header_line = table.header_line
    if "id" not in table.header:
        separator = next((mark for mark in (";", "\t") if len(table.header) == 1 and mark in table.header[0]), None)
        if separator is not None:
            shown = "tabs" if separator == "\t" else "semicolons"
            report.error(f"the card list's columns are separated by {shown}, not commas", table.path, header_line,
                         "save it as CSV with commas (in Excel: 'CSV UTF-8 (Comma delimited)')")
        else:
            report.error("the card list has no 'id' column", table.path, header_line,
                         "add an id column with a unique id per card")
        return None
    localised, plain = _classify_columns(table, component, fields, languages, report, header_line)
    _require_language_columns(table, localised, languages, report, header_line)
    absent = [name for name in fields if name not in plain and name not in localised]
    for name in absent:  # once here, not once per card in the rules and the layouts that read it
        report.error(f"the card list has no {name!r} column, which game.toml declares in the component's "
                     f"fields", table.path, header_line, f"add a {name} column (or {name}.<lang> columns), or "
                     "remove it from fields")
    if absent:
        return None
    if not table.rows:
        report.error("the card list has no cards, only its header", table.path, header_line,
                     "add one row per distinct card (its id, how many copies, and its columns)")
        return None  # an empty deck would fail every count, setup row and rule that reads it
    cards = []
    errors = CardErrors()
    counted = True
    seen: set[str] = set()
    for row in table.rows:
        values = row.values
        card_id = values.get("id", "")
        if not card_id:
            errors.add("card has no id", table.path, row.line, "give every row a unique id")
            counted = False  # the row is left out, so the list's totals are short by its count
            continue
        if not CARD_ID.fullmatch(card_id):  # it names files (png/<component>/<id>.png): no '/', no '..'
            errors.add(f"card id {card_id[:40]!r} must be letters, digits, '.', '+', '-' and '_'", table.path,
                       row.line, "write the id without spaces, slashes or other signs (e.g. red-1, 7H)")
            counted = False
            continue
        count = _count(values.get("count", "1"), table, row.line, errors, card_id)
        # a row given twice (reported as a duplicate id): the list's totals and grid cells would count it twice
        counted = counted and count is not None and card_id not in seen
        seen.add(card_id)
        rank = _rank(values.get("rank", ""), table, row.line, errors, card_id)
        # an unreadable rank (reported) leaves the card without its place in a grid, as a count does its total
        counted = counted and (rank is not None or not values.get("rank", "").strip())
        texts: dict[str, dict[str, str]] = {}
        for base in localised:
            texts[base] = {lang: values[f"{base}.{lang}"] for lang in languages if f"{base}.{lang}" in values}
            present = {lang for lang, text in texts[base].items() if text}
            if present:
                for lang in languages:
                    if lang not in present and f"{base}.{lang}" in values:
                        errors.add(f"missing translation {base}.{lang}", table.path, row.line,
                                   f"fill in the {base}.{lang} column", card_id, language=lang)
        cards.append(Card(
            id=card_id,
            component=component,
            count=count or 0,
            kind=values.get("kind") or None,
            suit=values.get("suit") or None,
            colour=values.get("colour") or None,
            rank=rank,
            texts=texts,
            fields={name: values[name] for name in plain if name in values},
            provisional=provisional or values.get("provisional", "").strip().lower() in TRUE_WORDS,
            source=Source(table.path, row.line),
        ))
    errors.report_to(report)
    return tuple(cards), counted


def _classify_columns(table: CsvTable, component: str, fields: tuple[str, ...], languages: tuple[str, ...],
                      report: Report, header_line: int) -> tuple[list[str], list[str]]:
    localised: list[str] = []
    plain: list[str] = []
    known_bases = set(TEXT_FIELDS) | set(fields)
    for column in table.header:
        base, dot, lang = column.partition(".")
        if not dot and column in BASE_COLUMNS:
            continue
        if not dot and column in fields:
            plain.append(column)
            continue
        if dot and base in known_bases:
            if lang not in languages:
                report.warning(f"column {column!r}: language {lang!r} is not declared in game.toml", table.path,
                               header_line, "add the language to 'languages', or remove the column")
            elif base not in localised:
                localised.append(base)
            continue
        candidates = list(BASE_COLUMNS) + list(fields) + [f"{b}.{lang}" for b in known_bases for lang in languages]
        hint = closest(column, candidates)
        report.warning(f"unknown column {column!r} (ignored)", table.path, header_line,
                       (f"did you mean {hint!r}? If it is a column of your own, " if hint else "")
                       + _declare_field(component, fields, column))
    return localised, plain


def _declare_field(component: str, fields: tuple[str, ...], column: str) -> str:
    """The line that makes a column of the designer's own readable, and how a layout reads it: without it
    a layout's {{ card.flavour }} only said the card has no such field."""
    base = column.partition(".")[0]
    listed = ", ".join(f'"{name}"' for name in (*fields, base))
    return (f"declare it under [components.{component}] in game.toml: fields = [{listed}], and read it in a "
            f"layout as card.fields.{base}; or remove the column")


def _require_language_columns(table: CsvTable, localised: list[str], languages: tuple[str, ...], report: Report,
                              header_line: int) -> None:
    for base in localised:
        for lang in languages:
            if f"{base}.{lang}" not in table.header:
                report.error(f"column {base}.{lang} is missing: every language needs its own {base}",
                             table.path, header_line, f"add a {base}.{lang} column with the translations",
                             language=lang)


#: copies of one card a list may ask for: more is a typo (99999999 took 15 s and 4.7 GB to check,
#: and would print a million sheets)
MOST_COPIES = LIMITS["copies"]


def _count(raw: str, table: CsvTable, line: int, errors: CardErrors, card_id: str) -> int | None:
    """The count; None (an error noted) when it is no count."""
    text = raw.strip() or "1"
    try:
        value = int(text)
    except ValueError:
        errors.add(f"count {raw!r} is not a whole number", table.path, line, "write a number such as 1 or 3", card_id)
        return None
    if value < 0:
        errors.add(f"count {value} is negative", table.path, line, "write 0 or more", card_id)
        return None
    if value > MOST_COPIES:
        errors.add(f"count {value:,} is more copies of one card than pnp prints (at most {MOST_COPIES:,})",
                   table.path, line, "check the count: a typo of a few digits, or a tally of another column?",
                   card_id)
        return None
    return value


def _rank(raw: str, table: CsvTable, line: int, errors: CardErrors, card_id: str) -> int | None:
    text = raw.strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        errors.add(f"rank {raw!r} is not a whole number", table.path, line,
                   "write the rank as a number (A = 1, J = 11, Q = 12, K = 13), or leave it empty", card_id)
        return None
