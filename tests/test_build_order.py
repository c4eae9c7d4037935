"""A parallel build starts its longest units first: the documents before the card sheets."""

from __future__ import annotations

from pathlib import Path

from pnp.write.jobs import BuildOptions, Unit
from pnp.write.runner import longest_first


def unit(game: str, component: str | None) -> Unit:
    return Unit(Path(game), game, "en", component, (), BuildOptions(), Path("cache"), Path("stamps"))


def test_documents_start_first_and_the_rest_keep_their_order() -> None:
    pending = list(enumerate([unit("a", "deck"), unit("a", None), unit("b", "deck"), unit("b", "coins"),
                              unit("b", None)]))
    ordered = longest_first(pending)
    assert [index for index, _ in ordered] == [1, 4, 0, 2, 3]
    assert sorted(ordered, key=lambda item: item[0]) == pending  # every unit once
