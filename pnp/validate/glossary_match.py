"""Where a glossary term occurs in a text, as a word: the matcher behind the glossary checks.

A glossary pair says "where the source uses this term, the translation uses
that one". Both halves of the check ask the same question, "does this text
use the term?", so a match that is too loose hides a missing translation
(the target seems to have the term) and invents requirements (the source
seems to use it). The test is therefore for the term *as a word*, never for a
bare substring.

**Latin terms** (English) match whole words in any case, with a plural -s or
-es: "trick" matches "Trick" and "tricks", not "tricky", "trickster" or
"trick-taking" (a letter, digit or hyphen on either side makes a longer word).
The words of a phrase may be separated by any run of whitespace, so "trump
suit" matches across a line break in the Markdown source.

**Japanese terms.** Japanese is written without spaces, so a word ends where
the script changes. This is the heuristic dictionary-free segmenters use
(MeCab groups unknown words by character type), and it fits how compounds are
written:

* kanji next to kanji make one compound: 脱落 (removed) is not found in
  脱落条件 (removal condition), which is a term of its own, nor in 脱落者 or
  未脱落;
* katakana next to katakana (ー included) make one word: トリック is not
  found in トリックカード or トリックテイキング, just as "trick" is not
  found in "trick-taking";
* hiragana never extends a word: after a kanji term it is okurigana or a
  particle (脱落する, 脱落した, 脱落していない, 脱落の, 脱落を), so the term
  is used there; a term ending in hiragana (表向き) may be followed by more;
* a change between kanji and katakana is a word boundary: 目標カード uses
  目標 and カード, 各トリック uses トリック, the way "goal card" uses "goal";
* punctuation (、。・「」), spaces, digits next to kana or kanji, Latin letters
  next to kana or kanji, and the ends of the text are boundaries; Latin
  letters and digits next to each other extend a word (Aカード is not found in
  BAカード).

So an occurrence counts when the character before it does not continue the
script of the term's first character and the character after it does not
continue the script of its last character.

The glossary is the matcher's dictionary, as a segmenter's dictionary of
known words overrides its character-type guess for unknown ones:

* a compound written as a run of glossary terms uses each of them: Rudy's
  他色同番 ("other colours, same number") uses 他色 and 同番, and
  同番同印他色 uses all three; but a compound that is itself a glossary term
  (脱落条件) is that term only, whatever it is made of;
* a compound that should count as a use of a term although the rest of it is
  no glossary term (脱落者, "removed player", for 脱落) is listed as a further
  accepted spelling of the term: ``ja = ["脱落", "脱落者"]``. A compound that
  means something else needs nothing: it does not match.

A line break between two Japanese characters is no space (docs/rulebooks.md),
so it is removed before matching: a term wrapped across lines in a rule text
is still found.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable, Iterator
from enum import Enum
from functools import lru_cache

from pnp.model.runs import is_cjk


class Script(Enum):
    KANJI = "kanji"
    KATAKANA = "katakana"
    HIRAGANA = "hiragana"
    ALNUM = "alnum"  # Latin letters and digits, half- or full-width
    OTHER = "other"  # punctuation, spaces, symbols


#: scripts whose characters run together into one word
JOINING = frozenset({Script.KANJI, Script.KATAKANA, Script.ALNUM})

_KANJI_MARKS = frozenset("々〆〇ヶ")  # iteration mark, shime, zero, and ヶ as in 3ヶ月: written like kanji
_WRAPPED = re.compile(r"(\S)[ \t]*\n[ \t]*(?:>[ \t]*)*(?=(\S))")


def script(char: str) -> Script:
    """The script a character belongs to, for telling where a Japanese word ends."""
    if char in _KANJI_MARKS:
        return Script.KANJI
    code = ord(char)
    if 0x3041 <= code <= 0x309F:
        return Script.HIRAGANA
    if 0x30A1 <= code <= 0x30FA or 0x30FC <= code <= 0x30FF or 0x31F0 <= code <= 0x31FF or 0xFF66 <= code <= 0xFF9F:
        return Script.KATAKANA
    if unicodedata.name(char, "").startswith(("CJK UNIFIED IDEOGRAPH", "CJK COMPATIBILITY IDEOGRAPH")):
        return Script.KANJI
    normal = unicodedata.normalize("NFKC", char)
    if len(normal) == 1 and normal.isascii() and normal.isalnum():
        return Script.ALNUM
    return Script.OTHER


def is_japanese_term(spelling: str) -> bool:
    """A term with any CJK character is matched by script boundaries; others as Latin words."""
    return any(is_cjk(char) for char in spelling)


def join_wrapped_lines(text: str) -> str:
    """Drop line breaks (and the indentation after them) between two CJK characters: they are no space."""
    return _WRAPPED.sub(lambda m: m.group(1) if is_cjk(m.group(1)) and is_cjk(m.group(2)) else m.group(0), text)


def _run_start(text: str, index: int, kind: Script) -> int:
    """Where the run of ``kind`` characters ending just before ``index`` starts."""
    while index > 0 and script(text[index - 1]) is kind:
        index -= 1
    return index


def _run_end(text: str, index: int, kind: Script) -> int:
    """Where the run of ``kind`` characters starting at ``index`` ends."""
    while index < len(text) and script(text[index]) is kind:
        index += 1
    return index


def tiles(text: str, vocabulary: Collection[str]) -> bool:
    """Whether ``text`` is a run of one or more words of ``vocabulary``, written together."""
    if not text:
        return False
    ends = [True] + [False] * len(text)
    for stop in range(1, len(text) + 1):
        ends[stop] = any(ends[begin] and text[begin:stop] in vocabulary for begin in range(stop))
    return ends[-1]


def japanese_matches(text: str, term: str, vocabulary: Collection[str] = ()) -> Iterator[int]:
    """Start offsets (in ``text`` as given) where ``term`` occurs as a word by the rule above.

    ``vocabulary``: every glossary spelling of the text's language, for telling a
    run of glossary terms (a use of each) from a compound of its own.
    """
    start = text.find(term)
    while start != -1:
        end = start + len(term)
        first, last = script(term[0]), script(term[-1])
        left = _run_start(text, start, first) if first in JOINING else start
        right = _run_end(text, end, last) if last in JOINING else end
        before, after = text[left:start], text[end:right]
        if (not before and not after) or (text[left:right] not in vocabulary
                                           and (not before or tiles(before, vocabulary))
                                           and (not after or tiles(after, vocabulary))):
            yield start
        start = text.find(term, start + 1)


@lru_cache(maxsize=1024)
def latin_pattern(term: str) -> re.Pattern[str]:
    """Whole words in any case, a plural -s/-es allowed, the words of a phrase split by any whitespace."""
    words = r"\s+".join(re.escape(word) for word in term.split())
    return re.compile(rf"(?<![\w-]){words}(?:s|es)?(?![\w-])", re.IGNORECASE)


def uses_term(text: str, spellings: Iterable[str], vocabulary: Collection[str] = ()) -> bool:
    """Whether ``text`` uses any of the spellings as a word (see the module docstring for the rule).

    ``vocabulary`` holds every glossary spelling of the text's language: a
    Japanese compound made of glossary terms uses each of them.
    """
    joined: str | None = None
    for spelling in spellings:
        if is_japanese_term(spelling):
            if joined is None:
                joined = join_wrapped_lines(text)
            if next(japanese_matches(joined, spelling, vocabulary), None) is not None:
                return True
        elif latin_pattern(spelling).search(text):
            return True
    return False
