"""The end-of-build text report quotes each shrunk or overflowing text so that two texts tell apart."""

from __future__ import annotations

from pathlib import Path

from pnp.render.cards.faces import TextIssue
from pnp.write.runner import BuildSummary

FACE_DOWN = "Draw two cards, then discard one card of your choice face down."
FACE_UP = "Draw two cards, then discard one card of your choice face up."


def report(*issues: TextIssue) -> list[str]:
    summary = BuildSummary(issues=list(issues))
    return summary.describe(Path(".")).splitlines()


def test_texts_alike_in_their_first_40_characters_are_quoted_until_they_differ() -> None:
    """Both were quoted 'Draw two cards, then discard one card of' and read as one text reported twice."""
    lines = report(TextIssue("a", "deck", 4, FACE_DOWN, "shrunk", 7, 9),
                   TextIssue("b", "deck", 4, FACE_UP, "shrunk", 8, 9))
    assert lines[0] == "text report: 2 text(s) shrunk to fit, 0 overflowing or broken inside a word"
    assert f"  shrunk: deck line 4, {FACE_DOWN!r} at 7/9 pt — card(s) a" in lines
    assert f"  shrunk: deck line 4, {FACE_UP!r} at 8/9 pt — card(s) b" in lines


def test_a_long_text_alone_is_cut_at_40_characters_and_says_so() -> None:
    lines = report(TextIssue("a", "deck", 4, FACE_DOWN, "overflow", 6, 9))
    assert lines[1] == "  overflow: deck line 4, 'Draw two cards, then discard one card of'… at 6/9 pt — card(s) a"
