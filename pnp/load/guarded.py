"""The one way pnp reads a game folder's files: they are untrusted data (SECURITY.md).

A game folder comes from a zip off a forum or a shared drive. Every file pnp reads from it passes
:func:`check_input` first, which refuses

- a symbolic link that leads out of the game folder (``art/x.png -> /etc/passwd``): pnp would copy
  the file it names into a PDF anyone may be sent. ``--follow-links`` (:func:`set_follow_links`)
  allows it for one command. A link inside the folder, or to pnp's own templates, is fine, and so is
  a game folder that is itself a link (``data/x -> ~/games/x``): that is the user's own choice;
- anything but a regular file: a named pipe (FIFO) would block a read for ever, ``/dev/zero`` never
  ends, a socket cannot be read at all;
- a file larger than its cap (:data:`CAPS`), read at most cap + 1 bytes, so that no input can make
  pnp hold more than that in memory.

Errors are :class:`~pnp.diagnostics.DataError`s naming the file, with a fix.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat as stat_module
from collections.abc import Iterator
from pathlib import Path

from pnp.diagnostics import DataError, clipped

MIB = 1 << 20

#: Largest file pnp reads, by kind of input; the one place these limits live (SECURITY.md lists them)
CAPS: dict[str, int] = {
    "text": 4 * MIB,  # game.toml, rules.toml, examples.toml, glossaries, layouts, rule texts
    "cards": 16 * MIB,  # a card list (CSV): 16 MiB is about 100,000 rows of long texts
    "art": 256 * MIB,  # SVG and raster art, icons, pictures for `pnp new --images`
    "font": 64 * MIB,  # a CJK OpenType font is about 16 MiB; 64 leaves room for the largest
}

#: How much of each thing an input may hold, checked before the work it would cost is done
LIMITS: dict[str, int] = {
    "svg elements": 100_000,  # an Inkscape card face has hundreds; svglib takes seconds per 100,000
    "svg depth": 100,  # groups within groups; svglib recurses per level
    "toml key parts": 32,  # a.b.c = 1 has 3; tomllib takes time by the square of a key's parts
    "copies": 10_000,  # of one card (a count, a grid's copies): 99999999 took 15 s and 4.7 GB to check
    "ranks": 1_000,  # in one grid (a tarot has 22): "1-99999999999999999999" was a range no list can hold
    "grid cells": 100_000,  # suits × ranks of one grid, each checked against the card list
    "setup count": 100_000,  # pieces in play, dealt or revealed in a [[setup]] row
    "expression depth": 40,  # brackets and operators in one placeholder or layout value; Jinja2 recurses per level
    "block depth": 20,  # {% if %}/{% for %} inside one another in one text
    "template tags": 2_000,  # {{ }} and {% %} in one rule text; the longest shipped one has 208
    "markdown depth": 40,  # lists, quotes, emphasis and links inside one another in a rule text
    "label length": 500,  # characters of a title or name, set in a box it must fit: a 1 MB title never fitted
}

#: What each kind is called in messages
_NAMES = {"text": "a text file", "cards": "a card list", "art": "a picture", "font": "a font"}

MANIFEST = "game.toml"

_follow_links = False


def set_follow_links(allowed: bool) -> None:
    """``--follow-links``: links that leave the game folder are read, for this command."""
    global _follow_links
    _follow_links = allowed


def follow_links() -> bool:
    return _follow_links


@contextlib.contextmanager
def links_followed(allowed: bool) -> Iterator[None]:
    """For one command: ``--follow-links`` given, or not (the setting before is restored after)."""
    before = _follow_links
    set_follow_links(allowed or before)
    try:
        yield
    finally:
        set_follow_links(before)


def kind_of(path: str | os.PathLike[str]) -> str:
    """The cap a file falls under, by its name."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix == ".csv":
        return "cards"
    if suffix in (".ttf", ".otf", ".ttc", ".otc", ".woff", ".woff2"):
        return "font"
    if suffix in (".toml", ".md", ".txt", ".j2", ".py"):
        return "text"
    return "art"


def human_size(size: int) -> str:
    if size >= MIB:
        return f"{size / MIB:.1f} MiB".replace(".0 ", " ")
    if size >= 1024:
        return f"{size / 1024:.1f} KiB".replace(".0 ", " ")
    return f"{size} bytes"


_roots: dict[str, str | None] = {}  # a folder -> the game folder it is in (None: in no game)


def _game_folder_of(folder: str) -> str | None:
    """The nearest folder at or above ``folder`` (as written, links not followed) that holds a
    manifest: the game a file is in. Remembered by folder, so a deck of 900 pictures asks once."""
    known = _roots.get(folder, "")
    if known != "":
        return known
    found = None
    for candidate in (folder, *map(str, Path(folder).parents)):
        if os.path.isfile(os.path.join(candidate, MANIFEST)):
            found = candidate
            break
    _roots[folder] = found
    return found


def _templates_folder() -> str | None:
    try:
        from pnp.resources import templates_root

        return os.path.realpath(str(templates_root()))
    except (ImportError, TypeError, OSError):  # pragma: no cover - a wheel always has its templates
        return None


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _leaving_link(path: str, game: str) -> tuple[str, str] | None:
    """The link (as written, relative to the game folder) that takes ``path`` out of ``game``, and
    where it points; None when the file resolves inside the game folder or pnp's templates."""
    real_game = os.path.realpath(game)
    real = os.path.realpath(path)
    if _inside(real, real_game):
        return None
    templates = _templates_folder()
    if templates is not None and _inside(real, templates):
        return None
    relative = os.path.relpath(path, game)
    walked = game
    for part in relative.split(os.sep):
        walked = os.path.join(walked, part)
        if os.path.islink(walked):
            target = os.path.realpath(walked)
            if not _inside(target, real_game):
                return os.path.relpath(walked, game), os.readlink(walked)
    return relative, real  # a '..' in the path: the caller reports it as outside the folder


_NOT_REGULAR = (
    (stat_module.S_ISFIFO, "a named pipe (FIFO)"),
    (stat_module.S_ISCHR, "a character device"),
    (stat_module.S_ISBLK, "a block device"),
    (stat_module.S_ISSOCK, "a socket"),
    (stat_module.S_ISDIR, "a folder"),
)


def _not_regular(mode: int) -> str | None:
    for test, name in _NOT_REGULAR:
        if test(mode):
            return name
    return None if stat_module.S_ISREG(mode) else "not a regular file"


def not_a_file(path: str | os.PathLike[str]) -> str | None:
    """What stands at ``path`` if it is there but no regular file ("a named pipe (FIFO)", "a folder"),
    or None: a check that found no file says what it found instead of "missing"."""
    try:
        return _not_regular(os.stat(path).st_mode)
    except OSError:  # not there, a broken link, a name too long: nothing stands there
        return None


def check_input(path: str | os.PathLike[str], kind: str | None = None,
                within: str | os.PathLike[str] | None = None) -> os.stat_result:
    """The file's stat, once it is known to be a regular file inside its game folder (or the folder
    ``within``) within its cap; raises :class:`DataError` (or ``FileNotFoundError`` for a file that is
    not there, which callers word in their own way)."""
    kind = kind or kind_of(path)
    name = os.path.abspath(os.fspath(path))
    game = os.path.abspath(within) if within is not None else _game_folder_of(os.path.dirname(name))
    shown = os.path.relpath(name, game) if game is not None else os.path.basename(name)
    if game is not None and not _follow_links:
        leaving = _leaving_link(name, game)
        if leaving is not None:
            link, target = leaving
            through = "" if link == shown else f" (through {link})"
            raise DataError(f"{shown} is a symbolic link{through} to {target}, outside the game folder: pnp does "
                            "not read it", Path(path), None,
                            "copy the file into the game folder, or pass --follow-links if you trust where it "
                            "points")
    try:
        info = os.stat(name)
    except FileNotFoundError:
        if os.path.islink(name):
            raise DataError(f"{shown} is a link that leads to no file (a broken link, or one to itself)", Path(path),
                            None,
                            "point the link at the file, or replace it with the file") from None
        raise
    except OSError as exc:
        raise _unreadable(path, exc) from None
    what = _not_regular(info.st_mode)
    if what is not None:
        if stat_module.S_ISDIR(info.st_mode):
            raise DataError("expected a file but found a folder", Path(path), None,
                            "name the file, not its folder")
        raise _special(path, shown, what)
    _within_cap(path, shown, info.st_size, kind)
    return info


def _special(path: str | os.PathLike[str], shown: str, what: str) -> DataError:
    return DataError(f"{shown} is {what}, not a regular file: pnp reads only files", Path(path), None,
                     "replace it with the file itself")


def _within_cap(path: str | os.PathLike[str], shown: str, size: int, kind: str) -> None:
    cap = CAPS[kind]
    if size > cap:
        raise DataError(f"{shown} is {human_size(size)}: {_NAMES[kind]} may be at most {human_size(cap)}",
                        Path(path), None,
                        "check that this is the file you meant (a game's inputs are far smaller), or make it smaller")


def _unreadable(path: str | os.PathLike[str], exc: OSError) -> DataError:
    name = os.path.basename(os.fspath(path))
    if exc.errno == errno.ENAMETOOLONG:
        return DataError(f"{clipped(name, 40)} is a name too long for the file system "
                         f"({len(os.fsencode(name))} bytes; at most 255)", None, None, "use a shorter file name")
    return DataError(f"{name} cannot be read: {exc.strerror or exc}", Path(path), None,
                     "check the file's permissions (and where a link points)")


def read_input(path: str | os.PathLike[str], kind: str | None = None) -> bytes:
    """A game folder's file, whole: :func:`check_input`, then at most cap + 1 bytes of it, opened so
    that a pipe slipped in after the check cannot block (O_NONBLOCK) and checked again once open."""
    kind = kind or kind_of(path)
    check_input(path, kind)
    shown = os.path.basename(os.fspath(path))
    cap = CAPS[kind]
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise _unreadable(path, exc) from None
    try:
        info = os.fstat(fd)
        what = _not_regular(info.st_mode)
        if what is not None:
            raise _special(path, shown, what)
        _within_cap(path, shown, info.st_size, kind)
        chunks, total = [], 0
        while total <= cap:
            chunk = os.read(fd, min(cap + 1 - total, 1 << 24) or 1)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise _unreadable(path, exc) from None
    finally:
        os.close(fd)
    if total > cap:  # grew while read
        _within_cap(path, shown, total, kind)
    return b"".join(chunks)
