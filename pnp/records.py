"""pnp's dataclasses, whose generated methods are compiled once per machine, not at every start.

``dataclasses`` writes each class's ``__init__``, ``__repr__`` and ``__eq__`` (and, for a frozen one,
``__setattr__``, ``__delattr__`` and ``__hash__``) as source text and compiles it with an ``exec`` of
its own: on Python 3.11 some 360 compiles, 20 ms of every pnp command's start, more than a 90-card
image build spends beyond copying its art (docs/benchmarks.md). The texts are the same on every run,
so, as Python keeps a module's compiled code in ``__pycache__``, :func:`record` keeps the compiled
methods in the user cache, keyed by their text, and a later run loads them instead of compiling.

The classes are ordinary dataclasses (``dataclasses.fields``, ``replace`` and ``asdict`` work on
them): only the compiling is skipped, and for the same text the same code object comes back. A
missing, damaged or foreign cache file means compiling as before; nothing here can fail a command.
The cache is the user's own, like ``__pycache__``: whoever can write it can already run code as them.
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import importlib.util
import marshal
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import CodeType
from typing import Any, TypeVar, dataclass_transform, overload

from pnp.load.user_cache import user_cache_dir

T = TypeVar("T")

MOST_KEPT = 4096  # pnp's own classes need about 800; past this, a save keeps only what this run used

_PATCHING = threading.RLock()
_ABSENT = object()
_known: dict[str, CodeType] | None = None  # read from the cache file at the first class made
_used: set[str] = set()
_unsaved: dict[str, CodeType] = {}  # compiled by this process, not on disk yet


@overload
def record(cls: type[T], /) -> type[T]: ...
@overload
def record(*, frozen: bool = ..., eq: bool = ..., slots: bool = ...) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: type[T] | None = None, /, **options: Any) -> Any:
    """``@dataclasses.dataclass`` with the same options, its methods' code taken from the cache."""
    def make(cls: type[T]) -> type[T]:
        if not cls.__dict__.get("__doc__"):
            # dataclasses would write "Name(field: type = default, ...)" through inspect.signature: 1.5 ms
            # of every start for pnp's records without a docstring of their own; their field names say as much
            cls.__doc__ = f"{cls.__name__}({', '.join(cls.__dict__.get('__annotations__', ()))})"
        with _PATCHING:
            # dataclasses calls exec by name, so a global of that name in its module is what it calls
            previous = vars(dataclasses).get("exec", _ABSENT)
            dataclasses.exec = _exec_cached  # type: ignore[attr-defined]
            try:
                return dataclasses.dataclass(cls, **options)
            finally:
                if previous is _ABSENT:
                    del dataclasses.exec  # type: ignore[attr-defined]
                else:
                    dataclasses.exec = previous  # type: ignore[attr-defined]
    return make if cls is None else make(cls)


def _exec_cached(source: object, globals: dict | None = None, locals: dict | None = None, /) -> None:
    if isinstance(source, str):
        source = code_for(source)
    exec(source, globals, locals)  # noqa: S102 - dataclasses' own generated code, as it would have run it


def code_for(source: str) -> CodeType:
    """The code ``exec(source)`` would compile in the dataclasses module, from the cache if known."""
    global _known
    if _known is None:
        _known = _read(cache_file())
    _used.add(source)
    code = _known.get(source)
    if code is None:
        # dont_inherit: this module's `from __future__ import annotations` is not the dataclasses module's
        code = _known[source] = _unsaved[source] = compile(source, "<string>", "exec", dont_inherit=True)
        if len(_unsaved) == 1:
            atexit.register(save)
    return code


def cache_file() -> Path:
    """One file per interpreter, bytecode version and optimisation level: code is only valid there."""
    tag = f"{sys.implementation.cache_tag}-{importlib.util.MAGIC_NUMBER.hex()}-O{sys.flags.optimize}"
    return user_cache_dir() / f"dataclass-code-{tag}.marshal"


def _read(path: Path) -> dict[str, CodeType]:
    try:
        loaded = marshal.loads(path.read_bytes())  # marshal.load(file) reads in small pieces: 4x as long
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not isinstance(loaded, dict):
        return {}
    return {text: code for text, code in loaded.items() if isinstance(text, str) and isinstance(code, CodeType)}


def save() -> None:
    """Add this process's compiled methods to the cache file, merged with what another run wrote
    meanwhile; written whole and renamed into place, so a reader never sees half a file."""
    if not _unsaved:
        return
    path = cache_file()
    merged = {**_read(path), **_unsaved}
    if len(merged) > MOST_KEPT:
        merged = {text: code for text, code in merged.items() if text in _used}
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(temporary, "wb") as handle:
            marshal.dump(merged, handle)
        os.replace(temporary, path)
    except OSError:  # a read-only or full cache costs compiling next time, nothing more
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
        return
    _unsaved.clear()
