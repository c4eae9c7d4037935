"""pnp's dataclasses take their generated methods' code from a cache: the same code, never a failure."""

from __future__ import annotations

import dataclasses
import marshal
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pnp import records
from pnp.records import record

PNP = Path(records.__file__).parent


def _methods(cls: type) -> dict[str, object]:
    return {name: getattr(cls, name) for name in ("__init__", "__repr__", "__eq__", "__setattr__", "__delattr__",
                                                   "__hash__") if name in vars(cls)}


@pytest.fixture(autouse=True)
def nothing_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test compiles its classes afresh, and leaves them out of the user's cache."""
    monkeypatch.setattr(records, "_known", {})
    monkeypatch.setattr(records, "_unsaved", {})


def _make(decorator) -> type:
    @decorator(frozen=True)
    class Card:
        name: str
        count: int = 1
        tags: tuple[str, ...] = dataclasses.field(default_factory=tuple)
    return Card


def test_the_cached_methods_are_the_code_dataclasses_compiles() -> None:
    """Compiled in pnp.records, the code would take that module's `from __future__ import annotations`
    (the dataclasses module has none) unless told not to inherit it: annotations would turn to strings."""
    made, plain = _methods(_make(record)), _methods(_make(dataclasses.dataclass))
    assert made.keys() == plain.keys() and len(made) == 6
    for name, method in made.items():
        ours, theirs = method.__code__, plain[name].__code__
        assert (ours.co_code, ours.co_consts, ours.co_names, ours.co_varnames, ours.co_flags) == \
               (theirs.co_code, theirs.co_consts, theirs.co_names, theirs.co_varnames, theirs.co_flags), name
        assert method.__annotations__ == plain[name].__annotations__, name
    # this test module's own annotations are strings; the one dataclasses writes is a value
    assert made["__init__"].__annotations__ == {"name": "str", "count": "int", "tags": "tuple[str, ...]",
                                                "return": None}


def test_a_record_is_a_dataclass_that_behaves_as_one() -> None:
    card_type = _make(record)
    card = card_type("ace", 2)
    assert dataclasses.is_dataclass(card) and [f.name for f in dataclasses.fields(card)] == ["name", "count", "tags"]
    assert card == card_type("ace", 2) and hash(card) == hash(card_type("ace", 2)) and card != card_type("ace")
    assert repr(card).endswith("Card(name='ace', count=2, tags=())")
    assert dataclasses.replace(card, count=3).count == 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.count = 4


def test_a_record_without_a_docstring_is_documented_by_its_fields() -> None:
    """What dataclasses writes with inspect.signature, less the types and defaults: 1.5 ms a start."""
    assert _make(record).__doc__ == "Card(name, count, tags)"

    @record
    class Documented:
        """Why it exists."""

        value: int
    assert Documented.__doc__ == "Why it exists."


def test_making_a_record_leaves_the_dataclasses_module_as_it_was() -> None:
    _make(record)
    assert "exec" not in vars(dataclasses)


def _fresh_import(cache: Path | str) -> int:
    """How many methods a new Python compiled to import pnp's command line and build (not cached)."""
    script = ("import pnp.cli, pnp.commands.build, pnp.records as records\n"
              "print(len(records._unsaved))")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                            env={**os.environ, "PNP_CACHE_DIR": str(cache)})
    assert result.stderr == ""
    return int(result.stdout)


def test_a_second_start_compiles_nothing(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert _fresh_import(cache) > 200
    assert _fresh_import(cache) == 0
    assert any(cache.glob("dataclass-code-*.marshal"))


@pytest.mark.parametrize("content", [b"", b"\x00garbage", marshal.dumps([1, 2]), marshal.dumps({"text": 3})])
def test_a_damaged_cache_is_compiled_again_and_replaced(tmp_path: Path, content: bytes) -> None:
    cache = tmp_path / "cache"
    _fresh_import(cache)
    (written,) = cache.glob("dataclass-code-*.marshal")
    written.write_bytes(content)
    assert _fresh_import(cache) > 200
    assert _fresh_import(cache) == 0


def test_a_cache_that_cannot_be_written_only_costs_compiling(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("", encoding="utf-8")
    assert _fresh_import(not_a_folder) > 200
    assert not_a_folder.read_text(encoding="utf-8") == ""


def test_every_pnp_dataclass_is_a_record() -> None:
    """A class made with @dataclass would compile its methods at every start again."""
    plain = [f"{path.relative_to(PNP.parent)}:{number}" for path in sorted(PNP.rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if re.match(r"\s*@(dataclasses\.)?dataclass\b", line)]
    assert plain == []
