"""Reading users' text files with errors a designer can act on."""

from __future__ import annotations

import re
from pathlib import Path

from pnp.diagnostics import DataError
from pnp.load.guarded import read_input


def read_text(path: Path, kind: str = "text") -> str:
    """UTF-8 text, BOM tolerated (Excel and LibreOffice write one), read through the guarded reader
    (a regular file inside its game folder, within the cap for ``kind``: pnp.load.guarded).

    A file in another encoding is reported with the line of the first bad
    byte, since a Shift-JIS CSV from an old spreadsheet is a common mistake.
    """
    try:
        raw = read_input(path, kind)
    except FileNotFoundError:
        raise DataError("file not found", path, None, "create it, or fix the path that names it") from None
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
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    control = _CONTROL.search(text)
    if control is not None:
        raise _control_character_error(path, text, control.start())
    return text


#: C0 control characters but tab and the line ends, and DEL: no text means one, and no font prints one
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_CONTROL_NAMES = {0x00: "NUL", 0x08: "backspace", 0x0B: "vertical tab", 0x0C: "form feed", 0x1B: "escape",
                  0x7F: "DEL"}


def _control_character_error(path: Path, text: str, at: int) -> DataError:
    """Where the first one is, by line and column: Markdown shows a NUL as U+FFFD, a font error far away."""
    code = ord(text[at])
    line_start = text.rfind("\n", 0, at) + 1
    more = len(_CONTROL.findall(text)) - 1
    also = f" (and {more} more in this file)" if more else ""
    return DataError(f"control character U+{code:04X} ({_CONTROL_NAMES.get(code, 'a control code')}) at column "
                     f"{at - line_start + 1}{also}: no font prints it, and no text needs it",
                     path, text.count("\n", 0, at) + 1,
                     "delete it: a stray byte from a copy and paste, or a damaged file")
