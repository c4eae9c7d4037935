"""CJK-friendly emphasis: ``**大切：**全員`` is bold, as a Japanese writer expects.

Why: CommonMark decides whether ``*``/``**`` may open or close emphasis from the characters on
either side (the "flanking" rules), and those rules assume words are separated by spaces. A run
preceded by punctuation and followed by a letter cannot close, so ``**大切：**全員`` stays literal
asterisks, and one preceded by a letter and followed by punctuation cannot open, so
``全員**「注意」**を`` fails too. Japanese has no spaces and puts ``：「」。`` right against
letters, so this bites in almost every rule text.

This follows the CommonMark CJK-friendly amendments (https://github.com/tats-u/markdown-cjk-friendly,
the ``markdown-it-cjk-friendly`` plugin): a delimiter run also counts as left-/right-flanking when
the character on the "wrong" side is a CJK character (Han, kana, Hangul, CJK symbols and
punctuation such as ``、。「」``, fullwidth forms such as ``：（）！``, ...). Where no CJK character touches a run the
result is exactly CommonMark's, so English text parses as before. ``_`` keeps CommonMark's
rules, as the amendments leave it: it never opens or closes inside a word.

The hook is the state's ``scanDelims``, which markdown-it's emphasis (and strikethrough) rules
call: :func:`use_cjk_friendly_emphasis` wraps those rules so the state they get scans CJK-friendly.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import partial

from markdown_it import MarkdownIt
from markdown_it.common.utils import isMdAsciiPunct, isPunctChar, isWhiteSpace
from markdown_it.rules_inline import StateInline, emphasis, strikethrough
from markdown_it.rules_inline.state_inline import Scanned

#: CJK whatever Python's Unicode database says: ideographs newer than it, and symbols that became
#: East Asian Wide in Unicode 16 (trigrams ☰–☷, digrams ⚊–⚏, hexagrams ䷀–䷿, Tai Xuan Jing 𝌀–𝍶)
_ALWAYS_CJK = ((0x2630, 0x2637), (0x268A, 0x268F), (0x3400, 0x4DFF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF),
               (0x1D300, 0x1D376), (0x20000, 0x3FFFD))
#: East Asian Wide characters in U+2000–U+2BFF and U+1F000–U+1FBFF are emoji (not CJK) except
#: these: the angle brackets 〈〉 and the enclosed ideographs 🈀–🉥 that are not emoji themselves
_WIDE_CJK_SYMBOLS = frozenset([0x2329, 0x232A])
_ENCLOSED_IDEOGRAPH_EMOJI = frozenset([0x1F201, 0x1F21A, 0x1F22F, *range(0x1F232, 0x1F237),
                                       *range(0x1F238, 0x1F23B), 0x1F250, 0x1F251])
_LEFT_RIGHT_QUOTES = frozenset("\u2018\u2019\u201c\u201d")  # fullwidth when followed by U+FE01


def _cjk(char: str) -> bool | None:
    """Whether ``char`` is a CJK character; ``None`` when its width is ambiguous (decided by context)."""
    code = ord(char)
    if code < 0x1100:
        return False
    if any(first <= code <= last for first, last in _ALWAYS_CJK):
        return True
    if unicodedata.category(char) == "Cn":
        return False
    width = unicodedata.east_asian_width(char)
    if width in ("F", "H"):
        return True
    if width == "W":
        if 0x2000 <= code <= 0x2BFF:
            return code in _WIDE_CJK_SYMBOLS
        if 0x1F000 <= code <= 0x1FBFF:
            return 0x1F200 <= code <= 0x1F2FF and code not in _ENCLOSED_IDEOGRAPH_EMOJI
        return True
    if width == "A":
        return None
    # narrow or neutral: only Hangul jamo among them are CJK
    return 0x1160 <= code <= 0x11FF or 0xD7B0 <= code <= 0xD7FF


def _general_variation_selector(char: str) -> bool:
    return "\ufe00" <= char <= "\ufe0e"


def _previous_is_cjk(char: str, selector: str | None) -> bool:
    """The character before a delimiter run; ``selector`` is a variation selector that followed it."""
    cjk = _cjk(char)
    if cjk is not None:
        return cjk
    if selector is None:
        return "\U000e0100" <= char <= "\U000e01ef"  # an ideographic variation selector ends a CJK sequence
    return selector == "\ufe01" and char in _LEFT_RIGHT_QUOTES


def _punctuation(char: str) -> bool:
    return isMdAsciiPunct(ord(char)) or isPunctChar(char)


def scan_delims(state: StateInline, start: int, can_split_word: bool) -> Scanned:
    """``StateInline.scanDelims`` with the CJK-friendly flanking rules."""
    src = state.src
    marker = src[start]
    last = src[start - 1] if start > 0 else " "  # the start of the line counts as whitespace
    before_selector: str | None = None
    if _general_variation_selector(last):
        # a variation selector belongs to the character it follows: look through it
        before_selector = src[start - 2] if start > 1 else " "
        if unicodedata.category(before_selector) != "Zs":
            last = before_selector
    pos = start
    while pos < state.posMax and src[pos] == marker:
        pos += 1
    count = pos - start
    following = src[pos] if pos < state.posMax else " "  # the end of the line counts as whitespace

    last_space = isWhiteSpace(ord(last))
    next_space = isWhiteSpace(ord(following))
    if last_space or next_space:
        return Scanned(not next_space, not last_space, count)

    last_punctuation = _punctuation(last)
    next_punctuation = _punctuation(following)
    # With no whitespace on either side, CommonMark's rules reduce to these for `_` ...
    can_open = last_punctuation
    can_close = next_punctuation
    if can_split_word:
        # ... and to these for `*`, plus the amendment: a CJK neighbour on either side makes the
        # run both left- and right-flanking
        if before_selector is None:
            cjk = _previous_is_cjk(last, None)
        else:
            cjk = _previous_is_cjk(before_selector, src[start - 1])
        cjk = cjk or _cjk(following) is True
        can_open = can_open or cjk or not next_punctuation
        can_close = can_close or cjk or not last_punctuation
    return Scanned(can_open, can_close, count)


def _cjk_friendly(rule: Callable[[StateInline, bool], bool]) -> Callable[[StateInline, bool], bool]:
    def tokenize(state: StateInline, silent: bool) -> bool:
        state.scanDelims = partial(scan_delims, state)  # type: ignore[method-assign]
        return rule(state, silent)

    return tokenize


def use_cjk_friendly_emphasis(md: MarkdownIt) -> None:
    """A markdown-it plugin (``md.use(use_cjk_friendly_emphasis)``): CJK-friendly ``*``, ``**`` and ``~~``.

    Replaces the emphasis and strikethrough rules by the same rules fed a CJK-friendly
    ``scanDelims``; whether each is enabled is left as the preset set it.
    """
    md.inline.ruler.at("emphasis", _cjk_friendly(emphasis.tokenize))
    md.inline.ruler.at("strikethrough", _cjk_friendly(strikethrough.tokenize))
