"""What a rule text is once parsed: the blocks the rulebook typesetter draws.

Kept apart from rendering and parsing so that the typesetter, the translation check and the tests
can name a block without importing Jinja2 or markdown-it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.model.runs import Text

Runs = tuple[Text, ...]


@dataclass(frozen=True)
class Heading:
    level: int
    runs: Runs
    section: str
    line: int


@dataclass(frozen=True)
class Paragraph:
    runs: Runs
    line: int


@dataclass(frozen=True)
class ListBlock:
    ordered: bool
    start: int
    items: tuple[tuple[Block, ...], ...]
    line: int


@dataclass(frozen=True)
class TableBlock:
    header: tuple[Runs, ...]
    rows: tuple[tuple[Runs, ...], ...]
    aligns: tuple[str, ...]  # "left" | "center" | "right" per column
    line: int


@dataclass(frozen=True)
class AidTableRef:
    """``{{ table("operators") }}``: a table the rules module computes."""

    table: str
    line: int


@dataclass(frozen=True)
class ExampleRef:
    """A worked example placed by id, with this language's wording."""

    example: str
    body: tuple[Block, ...]
    line: int


@dataclass(frozen=True)
class Quote:
    """A block quote, set as a boxed note (variants, tips)."""

    body: tuple[Block, ...]
    line: int


@dataclass(frozen=True)
class Preformatted:
    text: str
    line: int


@dataclass(frozen=True)
class Rule:
    line: int


Block = Heading | Paragraph | ListBlock | TableBlock | AidTableRef | ExampleRef | Quote | Preformatted | Rule


@dataclass
class RuleText:
    """One language's rule text, rendered and parsed."""

    game: str
    lang: str
    path: Path
    blocks: tuple[Block, ...]
    results: Mapping[str, Mapping[str, Any] | None] = field(default_factory=dict)

    def walk(self) -> Iterator[Block]:
        yield from walk_blocks(self.blocks)

    def texts(self) -> Iterator[str]:
        """Every string the rule text itself prints, for :func:`pnp.render.text.fonts.prepare_fonts`."""
        for block in self.walk():
            yield from block_texts(block)

    @property
    def sections(self) -> list[Heading]:
        return [block for block in self.blocks if isinstance(block, Heading)]

    @property
    def examples(self) -> list[ExampleRef]:
        return [block for block in self.walk() if isinstance(block, ExampleRef)]


def walk_blocks(blocks: Sequence[Block]) -> Iterator[Block]:
    for block in blocks:
        yield block
        if isinstance(block, ListBlock):
            for item in block.items:
                yield from walk_blocks(item)
        elif isinstance(block, ExampleRef | Quote):
            yield from walk_blocks(block.body)


def block_texts(block: Block) -> Iterator[str]:
    if isinstance(block, Heading | Paragraph):
        yield from (run.text for run in block.runs)
    elif isinstance(block, TableBlock):
        for row in (block.header, *block.rows):
            for cell in row:
                yield from (run.text for run in cell)
    elif isinstance(block, Preformatted):
        yield block.text
    elif isinstance(block, ListBlock):
        yield "0123456789.•–"


def plain(runs: Sequence[Text]) -> str:
    return "".join(run.text for run in runs)
