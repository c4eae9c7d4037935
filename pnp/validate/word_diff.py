"""What changed in a source section, word by word: the part of a stale section a translator redoes.

A line diff of prose marks a whole paragraph as changed for one added sentence, and Japanese has
no spaces for a reader to scan by. So each change is also shown in place, in git's word-diff style,
``[-removed-]{+added+}``, with a few words around it: Latin text by words, CJK text by characters.
"""

from __future__ import annotations

import difflib
import re

from pnp.model.runs import is_cjk

_TOKEN = re.compile(r"\s+|[^\W_]+(?:['’][^\W_]+)*|.", re.DOTALL)
CONTEXT_WORDS = 4  # words (or CJK characters, or punctuation marks) shown on each side of a change
SHOWN_CHANGES = 8  # changes listed per section; a rewritten section says how many more there are
#: past this many tokens on a side, difflib's popularity heuristic (autojunk) is on: exact matching of a
#: text repeating one word tens of thousands of times took tens of seconds (its longest-match search is
#: quadratic in a repeated token's occurrences); a real section has a few hundred words
EXACT_MOST = 5_000


def tokens(text: str) -> list[str]:
    """Words, runs of spaces and single other characters; each CJK character on its own."""
    found: list[str] = []
    for token in _TOKEN.findall(text):
        if any(is_cjk(char) for char in token):
            found.extend(token)
        else:
            found.append(token)
    return found


def word_changes(old: str, new: str) -> list[str]:
    """One line per change: ``…context[-old-]{+new+}context…``, newlines shown as ⏎."""
    before, after = tokens(old), tokens(new)
    exact = max(len(before), len(after)) <= EXACT_MOST
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=not exact)
    changes = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    lines = []
    for tag, i1, i2, j1, j2 in changes[:SHOWN_CHANGES]:
        lead = "".join(before[_reach(before, i1, -1):i1])
        tail = "".join(before[i2:_reach(before, i2, 1)])
        removed = f"[-{_shortened(''.join(before[i1:i2]))}-]" if tag in ("replace", "delete") else ""
        added = f"{{+{_shortened(''.join(after[j1:j2]))}+}}" if tag in ("replace", "insert") else ""
        text = f"…{lead}{removed}{added}{tail}…"
        lines.append(text.replace("\n", "⏎"))
    if len(changes) > SHOWN_CHANGES:
        lines.append(f"… and {len(changes) - SHOWN_CHANGES} more change(s)")
    return lines


SHOWN_CHARACTERS = 200  # of one removed or added run: a rewritten section is not printed whole


def _shortened(text: str) -> str:
    if len(text) <= SHOWN_CHARACTERS:
        return text
    return f"{text[:SHOWN_CHARACTERS]}… ({len(text):,} characters in all)"


def _reach(items: list[str], start: int, step: int) -> int:
    """The index CONTEXT_WORDS words away from ``start`` (spaces do not count), within the list."""
    index, words = start, 0
    while index > 0 if step < 0 else index < len(items):
        next_index = index - 1 if step < 0 else index
        if not items[next_index].isspace():
            if words == CONTEXT_WORDS:
                break
            words += 1
        index += step
    return index
