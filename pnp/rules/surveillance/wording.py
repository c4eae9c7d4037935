"""A parsed condition printed as one sentence per language, from one tree, so the languages can
never disagree with each other or with the model."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from string import Formatter
from typing import NamedTuple

from pnp.rules.surveillance.model import (
    Activation,
    AllOf,
    AnyOf,
    Compare,
    Condition,
    Selector,
    TrickContains,
    TrickTotal,
    WinnerPlayed,
    Won,
    WonSum,
)

# A removal condition is printed as one sentence about "a player who …", in
# every language from the same parsed tree. The rules below are what keep that
# sentence short enough for a card and readable aloud; PHRASES holds the words.
#
# * One subject. The player and the removal are named once per sentence.
# * Shared words are said once. Terms whose phrases open the same way in a
#   language ("has won …", 「…獲得している」) list their objects under it, and all
#   the terms about the trick just played make one clause about "this trick".
#   Which terms share is decided by the words, so the languages may group
#   differently (English lists a total under "has won"; Japanese cannot).
# * Connectives. English: "and" / "or", with a comma before them only when a
#   part holds one already. Japanese: clauses 「…し、かつ…」 and 「…か、…」,
#   numbers 「1と10」 / 「1か10」, descriptions of the trick with 「、」.
# * Nesting. An `or` inside an `and` (or the reverse) reads wrongly when run
#   together, so the sentence then repeats its subject, once per top-level part
#   ("A player who …, or who …, is removed." / 「…プレイヤーも、…プレイヤーも脱落する。」
#   / 「…プレイヤーのうち、…プレイヤーは脱落する。」). A third level is bracketed.
# * Japanese clauses change form by what follows them: plain before か,
#   attributive before a noun (プレイヤー, このトリック), continuative before 、かつ.
#   A phrase key may have ".attr" and ".cont" variants; English needs neither.

#: Wording per language. Comparisons are normalised to >=, <= and == first
#: (``> 3`` is ``>= 4`` on whole numbers), so each language needs three forms;
#: a count of at most 0 is worded as none ("no red cards").
PHRASES: dict[str, dict[str, str]] = {
    "en": {
        "count>=": "{n} or more", "count<=": "{n} or fewer", "count==": "exactly {n}",
        "sum>=": "{n} or more", "sum<=": "{n} or less", "sum==": "exactly {n}",
        # a noun for the cards a selector picks: words before and after it
        "noun.pre.colour": "{colour} ", "noun.post.trump": " of the trump suit", "noun.post.number": " numbered {n}",
        "noun.cards": "{pre}cards{post}", "noun.card": "{pre}card{post}", "noun.a-card": "a {pre}card{post}",
        # the won pile: one verb, its objects listed
        "pile": "has won {items}",
        "pile.count": "{cmp} {cards}", "pile.none": "no {cards}", "pile.sum": "cards whose numbers total {cmp}",
        # this trick: how it was won, then (apart) the numbers taken in it
        "trick.won": "won this trick with {items}",
        "trick.played": "{card}", "trick.total": "a total of {cmps}",
        "trick.took": "took {cards} in this trick", "trick.took.also": "took {cards} in it",
        "numbered.one": "a card numbered {numbers}", "numbered.both": "cards numbered {numbers}",
        "numbered.all": "cards numbered {numbers}",
        # connectives: before the last part, between the others, and both when a part holds one
        "join.and": " and ", "join.and.between": ", ", "join.and.serial": ", and ",
        "join.or": " or ", "join.or.between": ", ", "join.or.serial": ", or ",
        "group": "({inner})",
        "removal": "A player who {condition} is removed.",
        "removal.any": "A player {parts}, is removed.", "removal.any.part": "who {condition}",
        "removal.any.join": ", or ",
        "removal.all": "A player {parts}, is removed.", "removal.all.part": "who {condition}",
        "removal.all.join": ", and ",
        "every": "Every trick", "trick": "Trick {first} only", "range": "Tricks {first}–{last}",
        "from": "Trick {first} onwards", "shifted": "{text} ({players} players: {shifted})",
        "shifted.every": "every trick", "shifted.trick": "trick {first} only",
        "shifted.range": "tricks {first}–{last}", "shifted.from": "trick {first} onwards",
    },
    "ja": {
        "count>=": "{n}枚以上", "count<=": "{n}枚以下", "count==": "ちょうど{n}枚",
        "sum>=": "{n}以上", "sum<=": "{n}以下", "sum==": "ちょうど{n}",
        "noun.pre.trump": "切札のスートの", "noun.pre.colour": "{colour}の", "noun.pre.number": "{n}の",
        "noun.cards": "{pre}カード{post}", "noun.card": "{pre}カード{post}", "noun.a-card": "{pre}カード{post}",
        "pile": "{items}獲得している", "pile.cont": "{items}獲得しており",
        "pile.count": "{cards}を{cmp}",
        # none and the total cannot share 獲得している: each has a phrase of its own
        "pile.none.frame": "{cards}を1枚も獲得していない", "pile.none.frame.cont": "{cards}を1枚も獲得しておらず",
        "pile.sum.frame": "獲得したカードの数字の合計が{items}",
        "pile.sum.frame.attr": "獲得したカードの数字の合計が{items}の",
        "pile.sum.frame.cont": "獲得したカードの数字の合計が{items}で",
        "pile.sum": "{cmp}",
        # this trick: descriptions of it (how it was won included) before このトリックに勝った
        "trick.won": "{items}このトリックに勝った", "trick.won.cont": "{items}このトリックに勝ち",
        "trick.played": "{card}を出した", "trick.played.attr": "{card}を出して", "trick.played.cont": "{card}を出して",
        "trick.total": "数字の合計が{cmps}", "trick.total.attr": "数字の合計が{cmps}の",
        "trick.total.cont": "数字の合計が{cmps}で",
        "trick.contains": "{cards}含む", "trick.contains.cont": "{cards}含み",
        "trick.took": "このトリックで{cards}獲得した", "trick.took.cont": "このトリックで{cards}獲得し",
        "numbered.one": "{numbers}のカードを", "numbered.both": "{numbers}のカードを両方",
        "numbered.all": "{numbers}のカードをすべて",
        "numbers.and": "と", "numbers.and.between": "と", "numbers.or": "か", "numbers.or.between": "か",
        "join.and": "、かつ", "join.and.between": "、", "join.or": "か、", "join.or.between": "か、",
        "desc.and": "、", "desc.and.between": "、",
        "group": "（{inner}）",
        "removal": "{condition}プレイヤーは脱落する。",
        "removal.any": "{parts}脱落する。", "removal.any.part": "{condition}プレイヤーも", "removal.any.join": "、",
        "removal.all": "{parts}プレイヤーは脱落する。", "removal.all.part": "{condition}",
        "removal.all.join": "プレイヤーのうち、",
        "every": "毎トリック", "trick": "第{first}トリックのみ", "range": "第{first}～{last}トリック",
        "from": "第{first}トリック以降", "shifted": "{text}（{players}人プレイでは{shifted}）",
        "shifted.every": "毎トリック", "shifted.trick": "第{first}トリックのみ",
        "shifted.range": "第{first}～{last}トリック", "shifted.from": "第{first}トリック以降",
    },
}


def phrasebook(lang: str) -> dict[str, str]:
    """The wording for ``lang``; English where the language has none yet."""
    return PHRASES.get(lang, PHRASES["en"])


def describe_activation(activation: Activation, lang: str,
                        variant: tuple[int, Activation] | None = None) -> str:
    """Card text for an activation; ``variant`` = (players, shifted form) when it differs."""
    words = phrasebook(lang)
    text = words[activation.form].format(first=activation.first, last=activation.last)
    if variant is None or variant[1] == activation:
        return text
    players, shifted = variant
    other = words[f"shifted.{shifted.form}"].format(first=shifted.first, last=shifted.last)
    return words["shifted"].format(text=text, players=players, shifted=other)


def describe_removal(condition: Condition, lang: str, colour_name: Callable[[str], str]) -> str:
    """Card text for a removal condition, as one sentence (see the rules above PHRASES)."""
    return _Phrasing(phrasebook(lang), colour_name).sentence(_flatten(condition))


def _flatten(condition: Condition) -> Condition:
    """``a and (b and c)`` as ``a and b and c``: brackets that change nothing would cost a clause."""
    if not isinstance(condition, AllOf | AnyOf):
        return condition
    parts: list[Condition] = []
    for part in map(_flatten, condition.parts):
        parts.extend(part.parts if type(part) is type(condition) else (part,))
    return type(condition)(tuple(parts))


def _is_group(condition: Condition) -> bool:
    return isinstance(condition, AllOf | AnyOf)


def _connective(group: AllOf | AnyOf) -> str:
    return "and" if isinstance(group, AllOf) else "or"


class _Clause(NamedTuple):
    """A predicate about a player in the three forms Japanese joins by (the same text in English)."""

    plain: str  # before "or" (か)
    attr: str  # before the noun it describes (プレイヤー)
    cont: str  # before "and" (、かつ)
    compound: bool = False  # holds a connective: English sets the next one off with a comma
    open_end: bool = False  # ends in a comparison ("60 or more"): English sets off a following "or" too

    @classmethod
    def of(cls, text: str) -> _Clause:
        return cls(text, text, text)


class _Piece(NamedTuple):
    """One term's share of a clause: the phrase it may share (``frame``) and what it adds to it."""

    frame: str  # phrase key
    fields: tuple[tuple[str, str], ...]  # the frame's own fields, items aside
    item: str | None  # listed in the frame's {items}; None for a frame that stands alone
    open_end: bool = False  # the item ends in its comparison ("total 60 or more")


_TRICK = "trick"  # the bucket every term about the trick just played goes to
_SELECTOR_ORDER = ("trump", "colour", "number")  # 切札のスートの赤の7のカード: the order nouns stack in


class _Phrasing:
    """Turns one parsed removal condition into the sentence of one language."""

    def __init__(self, words: dict[str, str], colour_name: Callable[[str], str]) -> None:
        self.words = words
        self.colour_name = colour_name

    # the sentence ----------------------------------------------------------
    def sentence(self, condition: Condition) -> str:
        """One subject; repeated once per part only when a part is itself a group (see the rules)."""
        if not (_is_group(condition) and any(_is_group(part) for part in condition.parts)):
            return self.words["removal"].format(condition=self.clause(condition, depth=1).attr)
        assert isinstance(condition, AllOf | AnyOf)
        mode = "all" if isinstance(condition, AllOf) else "any"
        parts = [self.words[f"removal.{mode}.part"].format(condition=self.clause(part, depth=1).attr)
                 for part in _gather_terms(condition)]
        return self.words[f"removal.{mode}"].format(parts=self.words[f"removal.{mode}.join"].join(parts))

    def clause(self, condition: Condition, depth: int) -> _Clause:
        """A condition as a clause; groups below the first level are bracketed, having no connective left."""
        if not isinstance(condition, AllOf | AnyOf):
            return self._group((condition,), "and", depth)
        clause = self._group(condition.parts, _connective(condition), depth)
        return self._bracket(clause) if depth > 1 else clause

    def _group(self, parts: Sequence[Condition], connective: str, depth: int) -> _Clause:
        """Parts joined by one connective, terms that share a phrase gathered where the first of them stood."""
        entries: list[_Clause | tuple] = []
        buckets: dict[tuple, list] = {}
        for part in parts:
            if _is_group(part):
                entries.append(self.clause(part, depth + 1))
                continue
            key, piece = self._bucket(part)
            if key not in buckets:
                buckets[key] = []
                entries.append(key)
            buckets[key].append(piece)
        clauses = [entry if isinstance(entry, _Clause) else self._render(entry, buckets[entry], connective)
                   for entry in entries]
        return self.join(clauses, connective)

    def _bucket(self, term: Condition) -> tuple[tuple, object]:
        if isinstance(term, TrickContains | WinnerPlayed) or (
                isinstance(term, Compare) and isinstance(term.amount, TrickTotal)):
            return (_TRICK,), term
        assert isinstance(term, Compare)
        piece = self._pile_piece(term)
        return (piece.frame, piece.fields), piece

    def _render(self, key: tuple, pieces: list, connective: str) -> _Clause:
        if key == (_TRICK,):
            return self._trick_clause(pieces, connective)
        return self._pile_clause(pieces, connective)

    # joining ---------------------------------------------------------------
    def join(self, parts: Sequence[_Clause], connective: str, style: str = "join") -> _Clause:
        """Parts in a list: the connective before the last; "and" joins continuative forms, "or" plain ones."""
        if len(parts) == 1:
            return parts[0]
        last, between = self._separator(style, connective, ""), self._separator(style, connective, ".between")
        if self._needs_serial(parts[:-1], connective):
            last = between = self.words[f"join.{connective}.serial"]
        leading = [part.cont if connective == "and" else part.plain for part in parts[:-1]]
        prefix = between.join(leading) + last
        final = parts[-1]
        return _Clause(prefix + final.plain, prefix + final.attr, prefix + final.cont, compound=True,
                       open_end=final.open_end)

    def _needs_serial(self, leading: Sequence[_Clause], connective: str) -> bool:
        """A comma before the connective where it would otherwise run into one: "60 or more, or 12 cards"."""
        if f"join.{connective}.serial" not in self.words:
            return False
        return any(part.compound or (connective == "or" and part.open_end) for part in leading)

    def _separator(self, style: str, connective: str, position: str) -> str:
        key = f"{style}.{connective}{position}"
        return self.words.get(key, self.words[f"join.{connective}{position}"])

    def _bracket(self, clause: _Clause) -> _Clause:
        """A bracketed clause keeps the endings its last part adds for a noun or for "and" (の, で)."""
        text = self.words["group"].format(inner=clause.plain)

        def ending(form: str) -> str:
            return form[len(clause.plain):] if form.startswith(clause.plain) else ""
        return _Clause(text, text + ending(clause.attr), text + ending(clause.cont))

    def forms(self, key: str, **fields: object) -> _Clause:
        """The three forms of a phrase; a language without ".attr" / ".cont" variants uses the plain one."""
        plain = self.words[key]
        return _Clause(plain.format(**fields), self.words.get(f"{key}.attr", plain).format(**fields),
                       self.words.get(f"{key}.cont", plain).format(**fields))

    # the won pile ----------------------------------------------------------
    def _pile_piece(self, term: Compare) -> _Piece:
        """A count or total of the won pile, and the phrase it can share with its neighbours."""
        kind, fields = self._pile_term(term)
        frame = f"pile.{kind}.frame" if f"pile.{kind}.frame" in self.words else "pile"
        item_key = f"pile.{kind}"
        item = self.words[item_key].format(**fields) if item_key in self.words else None
        used = _field_names(*(self.words.get(f"{frame}{form}", "") for form in ("", ".attr", ".cont")))
        own = tuple(sorted((name, value) for name, value in fields.items() if name in used))
        open_end = item is not None and "cmp" in fields and item.endswith(fields["cmp"])
        return _Piece(frame, own, item, open_end)

    def _pile_term(self, term: Compare) -> tuple[str, dict[str, str]]:
        """Which phrase a term of the won pile takes ("count", "none" or "sum") and the words it fills in."""
        op, value = _normal_comparison(term.op, term.value)
        if isinstance(term.amount, WonSum):
            return "sum", {"cmp": self.words[f"sum{op}"].format(n=value)}
        selectors = (term.amount.selector,) if isinstance(term.amount, Won) else ()
        if value <= 0 and op in ("<=", "=="):
            return "none", {"cards": self.noun(selectors, "cards")}
        noun = "card" if (op, value) == ("==", 1) else "cards"
        return "count", {"cmp": self.words[f"count{op}"].format(n=value), "cards": self.noun(selectors, noun)}

    def _pile_clause(self, pieces: list[_Piece], connective: str) -> _Clause:
        items = [_Clause.of(item)._replace(open_end=open_end)
                 for item, open_end in dict.fromkeys((p.item, p.open_end) for p in pieces) if item is not None]
        listed = self.join(items, connective) if items else _Clause.of("")
        clause = self.forms(pieces[0].frame, **dict(pieces[0].fields), items=listed.plain)
        return clause._replace(compound=listed.compound, open_end=listed.open_end)

    # this trick ------------------------------------------------------------
    def _trick_clause(self, terms: list[Condition], connective: str) -> _Clause:
        """All the terms about the trick just played, as one clause that names it once.

        How it was won (the card played, the total) describes "won this trick";
        the numbers taken in it do too where the language has a phrase for that
        ("trick.contains"), else they follow as "took … in it". Numbers alone
        read "took … in this trick".
        """
        numbers = list(dict.fromkeys(t.number for t in terms if isinstance(t, TrickContains)))
        taken = self._numbered(numbers, connective) if numbers else ""
        descriptions = self._trick_descriptions(terms, connective)
        if not descriptions:
            return self.forms("trick.took", cards=taken)
        if taken and "trick.contains" in self.words:
            descriptions[TrickContains] = self.forms("trick.contains", cards=taken)
        order = [type(t) for t in terms]
        listed = self.join([descriptions[kind] for kind in sorted(descriptions, key=order.index)], connective, "desc")
        clause = self.forms("trick.won", items=listed.attr)._replace(compound=listed.compound,
                                                                     open_end=listed.open_end)
        if not taken or TrickContains in descriptions:
            return clause
        return self.join([clause, self.forms("trick.took.also", cards=taken)], connective)

    def _trick_descriptions(self, terms: list[Condition], connective: str) -> dict[type, _Clause]:
        """How the trick was won: the card played and the trick's total, by the kind of term."""
        descriptions: dict[type, _Clause] = {}
        played = list(dict.fromkeys(t.selector for t in terms if isinstance(t, WinnerPlayed)))
        if played:
            descriptions[WinnerPlayed] = self._played(played, connective)
        totals = [_normal_comparison(t.op, t.value) for t in terms if isinstance(t, Compare)]
        if totals:
            cmps = self.join([_Clause.of(self.words[f"sum{op}"].format(n=value)) for op, value in totals], connective)
            total = self.forms("trick.total", cmps=cmps.plain)
            descriptions[Compare] = total._replace(compound=cmps.compound, open_end=True)
        return descriptions

    def _played(self, selectors: list[Selector], connective: str) -> _Clause:
        """The card the winner played: one card, so `and` describes it once ("a red card numbered 7")."""
        if connective == "and":
            return self.forms("trick.played", card=self.noun(selectors, "a-card"))
        cards = self.join([_Clause.of(self.noun((s,), "a-card")) for s in selectors], connective)
        return self.forms("trick.played", card=cards.plain)._replace(compound=cards.compound)

    def _numbered(self, numbers: list[int], connective: str) -> str:
        """Cards by number: "a card numbered 1 or 10", "cards numbered 1 and 10" (両方 / すべて)."""
        listed = self.join([_Clause.of(str(n)) for n in numbers], connective, "numbers").plain
        if connective == "or" or len(numbers) == 1:
            return self.words["numbered.one"].format(numbers=listed)
        return self.words["numbered.both" if len(numbers) == 2 else "numbered.all"].format(numbers=listed)

    # nouns -----------------------------------------------------------------
    def noun(self, selectors: Sequence[Selector], form: str) -> str:
        """Cards matching every selector: ``form`` is "cards", "card" or "a-card"."""
        ordered = sorted(dict.fromkeys(selectors), key=lambda s: _SELECTOR_ORDER.index(s.kind))
        pre = "".join(self._selector_words(s, "pre") for s in ordered)
        post = "".join(self._selector_words(s, "post") for s in ordered)
        return self.words[f"noun.{form}"].format(pre=pre, post=post)

    def _selector_words(self, selector: Selector, place: str) -> str:
        template = self.words.get(f"noun.{place}.{selector.kind}", "")
        colour = self.colour_name(str(selector.value)) if selector.kind == "colour" else ""
        return template.format(colour=colour, n=selector.value)


def _gather_terms(group: AllOf | AnyOf) -> list[Condition]:
    """Top-level parts with the single terms gathered into one part, where the first stood.

    ``(a or b) and c and d`` reads "who … a or b, and who … c and d": the
    single terms need no subject of their own, and gathered they can share words.
    """
    terms = [part for part in group.parts if not _is_group(part)]
    if len(terms) < 2:
        return list(group.parts)
    gathered: list[Condition] = []
    for part in group.parts:
        if not _is_group(part):
            if part is terms[0]:
                gathered.append(type(group)(tuple(terms)))
            continue
        gathered.append(part)
    return gathered


def _field_names(*templates: str) -> set[str]:
    return {name for template in templates for _, name, _, _ in Formatter().parse(template) if name}


def _normal_comparison(op: str, value: int) -> tuple[str, int]:
    """``> n`` as ``>= n + 1`` and ``< n`` as ``<= n - 1``: on whole numbers, three wordings suffice."""
    if op == ">":
        return ">=", value + 1
    if op == "<":
        return "<=", value - 1
    return op, value
