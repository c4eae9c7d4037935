"""Card lists as CSV, with the line of every row.

Designers edit card lists in Excel or LibreOffice, so we accept a BOM and
report problems by spreadsheet line, which is what they see on screen.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from pnp.diagnostics import DataError, line_spans, listed
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
    text = read_text(path, "cards")
    if not text.strip():
        raise DataError("the file is empty", path, 1, "add a header row such as 'id,count,...' and one row per card")
    reader = csv.reader(io.StringIO(text), strict=True)
    rows: list[CsvRow] = []
    header: tuple[str, ...] | None = None
    header_line = 1
    ragged: dict[int, list[int]] = {}  # field count -> lines of rows with that many fields
    repeated: list[int] = []  # lines that repeat the header row
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
            if tuple(value.strip() for value in values) == header:
                repeated.append(start)  # a header pasted twice: one error, not one per column's "value"
                continue
            if len(values) != len(header):
                ragged.setdefault(len(values), []).append(start)
                continue
            rows.append(CsvRow(start, {name: value.strip() for name, value in zip(header, values, strict=True)}))
    except csv.Error as exc:
        # at the first line of the row being read: a quote never closed ran on to the end of the file,
        # which is where the reader noticed, far from the mistake
        record = previous_end + 1
        if "unexpected end of data" in str(exc):
            raise DataError("a quote opened in this row is never closed: the rest of the file reads as one text",
                            path, record, 'close the quote, or double a quote inside a text ("")') from None
        raise DataError(f"malformed CSV: {exc}", path, record,
                        'quote texts that contain commas or quotes, and double inner quotes ("")') from None
    if header is None:
        raise DataError("the file has no header row", path, 1)
    problems = tuple(_ragged_rows(path, len(header), fields, lines, whole=not rows and len(ragged) == 1)
                     for fields, lines in sorted(ragged.items(), key=lambda item: item[1][0]))
    problems += tuple(DataError("the header row is repeated here", path, line, "delete this line")
                      for line in repeated)
    return CsvTable(path, header, tuple(rows), problems, header_line)


def _ragged_rows(path: Path, columns: int, fields: int, lines: list[int], whole: bool) -> DataError:
    """One error for all the rows with the same wrong number of fields: a column added to the header
    and not to the rows would otherwise be an error per card."""
    fix = "check for a missing or extra comma, or an unquoted comma inside a text"
    if len(lines) == 1:
        return DataError(f"row has {fields} fields but the header has {columns}", path, lines[0], fix)
    if whole and fields < columns:
        short = "a field" if columns - fields == 1 else f"{columns - fields} fields"
        fix = (f"every row is {short} short: if you added a column to the header, add a field to each row "
               "too (an empty field is just a comma)")
    return DataError(f"{len(lines)} rows have {fields} fields but the header has {columns} (lines "
                     f"{listed(line_spans(lines))})", path, lines[0], fix)
