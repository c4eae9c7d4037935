"""The few facts a build needs from a font file's header, read without fontTools.

Whether a font has CFF outlines, whether a cached subset is whole, and its typographic ascent
and descent are all in the table directory and two fixed-layout tables. Reading them with
fontTools means importing it and parsing a 16 MB CJK font on every build, even when every
subset is already cached; here it is a few hundred bytes.
"""

from __future__ import annotations

import struct
from pathlib import Path

SFNT_VERSIONS = {b"\x00\x01\x00\x00", b"OTTO", b"true"}


class SfntError(ValueError):
    """Not a single-font TrueType/OpenType file, or a truncated one."""


def table_directory(path: Path) -> dict[str, tuple[int, int]]:
    """Each table's tag -> (offset, length); checks that every table lies inside the file."""
    with open(path, "rb") as handle:
        header = handle.read(12)
        if len(header) < 12 or header[:4] not in SFNT_VERSIONS:
            raise SfntError(f"{path.name} is not a TrueType or OpenType font")
        (count,) = struct.unpack(">H", header[4:6])
        records = handle.read(16 * count)
        size = handle.seek(0, 2)
    if len(records) < 16 * count:
        raise SfntError(f"{path.name} ends inside its table directory")
    tables = {}
    for index in range(count):
        tag, _checksum, offset, length = struct.unpack(">4sIII", records[16 * index : 16 * index + 16])
        if offset + length > size:
            raise SfntError(f"{path.name} ends inside its {tag.decode('latin-1')!r} table")
        tables[tag.decode("latin-1")] = (offset, length)
    return tables


def read_table(path: Path, tables: dict[str, tuple[int, int]], tag: str, length: int) -> bytes:
    offset, table_length = tables[tag]
    with open(path, "rb") as handle:
        handle.seek(offset)
        return handle.read(min(length, table_length))


def typographic_metrics(path: Path) -> tuple[float, float]:
    """OS/2 sTypoAscender and -sTypoDescender as fractions of the em (0.88, 0.12 without OS/2)."""
    tables = table_directory(path)
    head = read_table(path, tables, "head", 20)
    (units,) = struct.unpack(">H", head[18:20])
    if "OS/2" not in tables:
        return 0.88, 0.12
    os2 = read_table(path, tables, "OS/2", 72)
    ascender, descender = struct.unpack(">hh", os2[68:72])
    return ascender / units, -descender / units
