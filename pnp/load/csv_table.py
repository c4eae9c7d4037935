"""Card lists as CSV, with the line of every row.

Designers edit card lists in Excel or LibreOffice, so we accept a BOM and
report problems by spreadsheet line, which is what they see on screen.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from pnp.diagnostics import DataError
from pnp.load.text_files import read_text


@dataclass(frozen=True)
class CsvRow:
    line: int
    values: dict[str, str]


@dataclass(frozen=True)
class CsvTable:
    path: Path
    header: tuple[str, ...]
    rows: tuple[CsvRow, ...]
    problems: tuple[DataError, ...] = ()  # rows that could not be read; the rest are usable
    header_line: int = 1  # where the header row is, for reports about columns


def read_csv(path: Path) -> CsvTable:
    """Parse strictly: a ragged row or a stray quote is an error, not a guess."""
    text = read_text(path)
    if not text.strip():
        raise DataError("the file is empty", path, 1, "add a header row such as 'id,count,...' and one row per card")
    reader = csv.reader(io.StringIO(text), strict=True)
    rows: list[CsvRow] = []
    header: tuple[str, ...] | None = None
    header_line = 1
    problems: list[DataError] = []
    previous_end = 0
    try:
        for values in reader:
            start = previous_end + 1
            previous_end = reader.line_num
            if not any(value.strip() for value in values):
                continue  # blank line
            if header is None:
                header, header_line = tuple(value.strip() for value in values), start
                duplicates = sorted({name for name in header if header.count(name) > 1})
                if duplicates:
                    raise DataError(f"duplicate column(s) {', '.join(duplicates)}", path, start,
                                    "give every column a distinct name")
                continue
            if len(values) != len(header):
                problems.append(DataError(
                    f"row has {len(values)} fields but the header has {len(header)}",
                    path, start,
                    "check for a missing or extra comma, or an unquoted comma inside a text",
                ))
                continue
            rows.append(CsvRow(start, {name: value.strip() for name, value in zip(header, values, strict=True)}))
    except csv.Error as exc:
        raise DataError(f"malformed CSV: {exc}", path, reader.line_num or 1,
                        'quote texts that contain commas or quotes, and double inner quotes ("")') from None
    if header is None:
        raise DataError("the file has no header row", path, 1)
    return CsvTable(path, header, tuple(rows), tuple(problems), header_line)
