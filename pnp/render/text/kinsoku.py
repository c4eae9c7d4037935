"""Which characters may meet a line break, and how Japanese punctuation is spaced (JLReq, JIS X 4051).

The line breaker (:mod:`pnp.render.text.linebreak`) asks these questions; the answers live here
so that the rules can be read, and tested, apart from the mechanics of filling lines.

Punctuation spacing follows JLReq 3.1: a full-width bracket or comma is half glyph, half blank.
Where two of them meet, the blank between them is cut to at most half an em:

* closing bracket or punctuation before closing bracket or punctuation (``）、``, ``。」``): none;
* closing bracket or punctuation before an opening bracket (``」「``, ``、（``): half an em;
* opening bracket after opening bracket (``「（``): none;
* a middle dot or colon (centred, a quarter em of blank each side) after a closing bracket, or
  before an opening one (``］：``, ``：［``): its own quarter em only.

In every case the first character's advance loses half an em, so its glyph stays where it was
and everything after it moves left. **Line-start brackets**: an opening bracket that starts a
line keeps its full width (its half-em blank before the glyph), the default of JIS X 4051 and
the rule most Japanese books follow; no indent is added or taken away. A closing bracket that
ends a line before an opening bracket on the next keeps its squeeze: the blank it loses would
only have shown as a ragged right edge.
"""

from __future__ import annotations

NO_START = frozenset(
    "、。，．・：；？！ー」』）］｝〕〉》】〙〗〟ゝゞヽヾ々〻‼⁇⁈⁉"
    "〜～…‥゛゜"  # wave dashes and ellipses (JIS X 4051's hyphens and inseparables), sound marks
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
    "),.;:!?]}%’”»｣､｡･％"
)
NO_END = frozenset("「『（［｛〔〈《【〘〖〝" "([{‘“«｢")

#: signs a sum is written with: "12 + 9 + 3" stays on one line ("12 + 9 +" then "3" read as a broken
#: sentence), and Japanese "＋1" keeps its sign; so does a range, "1〜10人" (not "1〜" then "10人")
MATH_SIGNS = frozenset("+-−=×÷＋－＝〜～")

#: a short bracketed group such as a card notation ［4緑○］ is kept on one line, like a word
GROUP_BRACKETS = {"［": "］", "[": "]"}
GROUP_MAX_ATOMS = 12

#: Japanese counters and units a number stays on the line with (2種類, 5枚, 1つ, 3人, 10点, 60分)
COUNTERS = frozenset("枚人点回種つ個本番手色山組文円分秒位名度倍周巡戦歳時日年杯段割")
#: Latin units after a number and a space ("5 mm"): the space glues
LATIN_UNITS = frozenset({"mm", "cm", "in", "pt", "px", "dpi", "min", "s", "h", "%"})

OPENING = frozenset("「『（［｛〔〈《【〘〖〝")
CLOSING = frozenset("」』）］｝〕〉》】〙〗〟")
COMMAS_AND_STOPS = frozenset("、。，．")
MIDDLE_DOTS = frozenset("・：；")  # centred in their em: a quarter em of blank on each side
_CLOSING_OR_STOP = CLOSING | COMMAS_AND_STOPS

#: a full-width glyph's advance is at least this share of an em; proportional brackets are left alone
FULL_WIDTH_SHARE = 0.9
SQUEEZE = 0.5  # of an em, taken from the first of a meeting pair


def squeezes(before: str, after: str) -> bool:
    """Whether full-width ``before`` loses half an em because ``after`` follows it (JLReq 3.1.2–3.1.4)."""
    if before in _CLOSING_OR_STOP:
        return after in _CLOSING_OR_STOP or after in OPENING or after in MIDDLE_DOTS
    return (before in OPENING or before in MIDDLE_DOTS) and after in OPENING


def is_digit(char: str) -> bool:
    """ASCII and full-width digits: what a counter may follow."""
    return "0" <= char <= "9" or "０" <= char <= "９"


def number_and_counter(before: str, after: str, spaced: bool) -> bool:
    """A number and the counter or unit after it, which no break may part: "2 / 種類" reads as two words."""
    if not before or not after or not is_digit(before[-1]):
        return False
    if spaced:
        return after in LATIN_UNITS
    return after[0] in COUNTERS
