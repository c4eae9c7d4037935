"""TOML with line numbers for every key.

``tomllib`` reports positions only for syntax errors, yet a designer needs
"game.toml:42" for a wrong *value* too. We parse with tomllib (so the data is
exactly what TOML says) and, separately, scan the text for table headers and
``key =`` lines to map each key path to the line it was written on.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.diagnostics import DataError
from pnp.load.guarded import LIMITS
from pnp.load.text_files import read_text

KeyPath = tuple[str | int, ...]

_BARE = r"[A-Za-z0-9_-]+"
_QUOTED = r'"(?:[^"\\]|\\.)*"|\'[^\']*\''
_KEY = rf"(?:{_BARE}|{_QUOTED})"
_DOTTED = rf"{_KEY}(?:\s*\.\s*{_KEY})*"
_HEADER = re.compile(rf"^\s*(\[\[?)\s*({_DOTTED})\s*\]\]?")
_ASSIGN = re.compile(rf"^\s*({_DOTTED})\s*=")
_INLINE_KEY = re.compile(rf"(?:^|[{{,])\s*({_DOTTED})\s*=")
_KEY_PART = re.compile(rf"({_KEY})")
#: a dotted key of more parts than LIMITS allows (a.a.a... 50,000 times took a minute to read)
_KEY_PARTS = LIMITS["toml key parts"]
_DEEP_KEY = re.compile(rf"""(?:^|[\[{{,])[ \t]*(?:(?:{_BARE}|"[^"\n]*"|'[^'\n]*')[ \t]*\.[ \t]*){{{_KEY_PARTS},}}""",
                       re.MULTILINE)


def _split_dotted(dotted: str) -> list[str]:
    parts = []
    for match in _KEY_PART.finditer(dotted):
        token = match.group(1)
        if token[0] in "\"'":
            token = token[1:-1]
        parts.append(token)
    return parts


@dataclass
class TomlDoc:
    """Parsed TOML plus a key-path → line index."""

    path: Path
    data: dict[str, Any]
    lines: dict[KeyPath, int] = field(default_factory=dict)

    def line_of(self, *key_path: str | int) -> int | None:
        """Line of the deepest recorded prefix of ``key_path`` (1-based)."""
        path = tuple(key_path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return None


def _index_lines(text: str) -> dict[KeyPath, int]:
    lines: dict[KeyPath, int] = {}
    table: KeyPath = ()
    array_counts: dict[KeyPath, int] = {}
    below: dict[KeyPath, set[KeyPath]] = {}  # an array's header -> the arrays nested in it seen since it began
    in_multiline: str | None = None
    depth = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw
        if in_multiline:
            if in_multiline in line:
                in_multiline = None
            continue
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if depth == 0:
            header = _HEADER.match(line)
            if header and not _ASSIGN.match(line):
                parts = tuple(_split_dotted(header.group(2)))
                if header.group(1) == "[[":
                    index = array_counts.get(parts, 0)
                    array_counts[parts] = index + 1
                    for end in range(1, len(parts)):
                        below.setdefault(parts[:end], set()).add(parts)
                    # nested arrays reset when their parent restarts; found through `below`, since a loop over
                    # every array was quadratic (20,000 [[a1]], [[a2]]... headers took 10 s)
                    for key in below.pop(parts, ()):
                        array_counts.pop(key, None)
                    table = parts + (index,)
                else:
                    table = _resolve_table(parts, array_counts)
                lines.setdefault(table, number)
                lines.setdefault(table[:-1] if isinstance(table[-1], int) else table, number)
                continue
            assign = _ASSIGN.match(line)
            if assign:
                key = table + tuple(_split_dotted(assign.group(1)))
                lines.setdefault(key, number)
                rest = line[assign.end():]
                for inner in _INLINE_KEY.finditer(rest):
                    if rest.lstrip().startswith("{"):
                        lines.setdefault(key + tuple(_split_dotted(inner.group(1))), number)
                for quote in ('"""', "'''"):
                    if rest.count(quote) == 1:
                        in_multiline = quote
                depth += _bracket_balance(rest)
        else:
            depth += _bracket_balance(line)
        depth = max(depth, 0)
    return lines


def _resolve_table(parts: tuple[str, ...], array_counts: dict[KeyPath, int]) -> KeyPath:
    """``[a.b]`` after ``[[a]]`` means the latest element of array ``a``."""
    resolved: list[str | int] = []
    for i, part in enumerate(parts):
        resolved.append(part)
        prefix = parts[: i + 1]
        if prefix in array_counts and i < len(parts) - 1:
            resolved.append(array_counts[prefix] - 1)
    return tuple(resolved)


def _bracket_balance(fragment: str) -> int:
    balance = 0
    quote = None
    for char in fragment:
        if quote:
            if char == quote:
                quote = None
            continue
        if char in "\"'":
            quote = char
        elif char == "#":
            break
        elif char in "[{":
            balance += 1
        elif char in "]}":
            balance -= 1
    return balance


def load_toml(path: Path) -> TomlDoc:
    """Read a TOML file or raise :class:`DataError` naming file and line."""
    return parse_toml(read_text(path), path)


_CLOSING = {"[": "]", "{": "}"}


def _unclosed_bracket_line(text: str, stop_line: int) -> int | None:
    """The line of the last ``[`` or ``{`` still open before ``stop_line``, strings and comments skipped.

    tomllib reports an unclosed array where it stopped reading, which after a missing ``]`` is the
    start of the next key; the person wants the line they left open.
    """
    open_at: list[tuple[str, int]] = []
    line, index, end = 1, 0, len(text)
    while index < end and line < stop_line:
        char = text[index]
        if char == "\n":
            line += 1
        elif char == "#":
            index = text.find("\n", index)
            if index == -1:
                break
            continue
        elif char in "\"'":
            quote = char * 3 if text.startswith(char * 3, index) else char
            close = index + len(quote)
            while True:
                close = text.find(quote, close)
                if close == -1 or quote[0] == "'" or text[close - 1] != "\\":
                    break
                close += 1
            if close == -1:
                return None
            line += text.count("\n", index, close)
            index = close + len(quote)
            continue
        elif char in _CLOSING:
            open_at.append((char, line))
        elif open_at and char == _CLOSING[open_at[-1][0]]:
            open_at.pop()
        index += 1
    return open_at[-1][1] if open_at else None


def parse_toml(text: str, path: Path) -> TomlDoc:
    """Parse TOML text; ``path`` is only used to name it in messages."""
    if not text.strip():
        raise DataError("the file is empty", path, 1, "write the TOML content, or delete the file")
    deep = _DEEP_KEY.search(text)
    if deep is not None:  # tomllib (and the line index) take time by the square of a key's parts
        raise DataError(f"malformed TOML: a key of more than {LIMITS['toml key parts']} dotted parts", path,
                        text.count("\n", 0, deep.start()) + 1,
                        "no game key has more than a few parts (components.deck.grid): check the dots")
    try:
        data = tomllib.loads(text)
    except RecursionError:  # arrays or inline tables nested thousands deep: tomllib recurses per level
        raise DataError("malformed TOML: nested too deep to read", path, None,
                        "no game file nests arrays or tables more than a few levels: check the brackets") from None
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = re.search(r"\(at line (\d+), column (\d+)\)", message)
        line = int(match.group(1)) if match else None
        reason = re.sub(r"\s*\(at line \d+, column \d+\)", "", message)
        opened = _unclosed_bracket_line(text, line) if line and reason.startswith("Unclosed") else None
        if opened is not None and opened != line:  # tomllib stops where it gave up, often the next key
            raise DataError(f"malformed TOML: {reason[0].lower()}{reason[1:]} opened on this line", path, opened,
                            f"close it before line {line}, or check quoting in it") from None
        if match:
            reason += f" (column {match.group(2)})"
        elif "end of document" in reason:  # tomllib names no line: the file's last line with text is it
            written = text.rstrip().split("\n")
            line = len(written)
            reason = reason.replace(" (at end of document)", "") + " at the end of the file"
        raise DataError(f"malformed TOML: {reason}", path, line,
                        "check quoting, brackets and '=' on that line") from None
    return TomlDoc(path=path, data=data, lines=_index_lines(text))
