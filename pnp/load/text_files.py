"""Reading users' text files with errors a designer can act on."""

from __future__ import annotations

from pathlib import Path

from pnp.diagnostics import DataError


def read_text(path: Path) -> str:
    """UTF-8 text, BOM tolerated (Excel and LibreOffice write one).

    A file in another encoding is reported with the line of the first bad
    byte, since a Shift-JIS CSV from an old spreadsheet is a common mistake.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise DataError("file not found", path, None, "create it, or fix the path that names it") from None
    except IsADirectoryError:
        raise DataError("expected a file but found a folder", path) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DataError(
            f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})",
            path,
            line,
            "save the file as UTF-8 (in Excel: 'CSV UTF-8'; in LibreOffice: character set Unicode (UTF-8))",
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")
