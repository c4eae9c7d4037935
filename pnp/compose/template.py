"""Rule texts, step one: ``rules/<lang>.md`` rendered in Jinja2's sandbox.

Placeholders read the rules model (``{{ setup[4].hand }}``, ``{{ rules.pips }}``), so no language can
state a number that disagrees with the components. Only plain data goes into the context, an
unknown name prints "?" and is reported with its line (so one run names them all), and the compiled
code is kept in the user cache. Each example fence gets its own ``result``: the values the rules
module recomputed, formatted as a rulebook prints them.
"""

from __future__ import annotations

import hashlib
import marshal
import re
import sys
import traceback
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from types import CodeType
from typing import Any

from jinja2 import ChainableUndefined, TemplateError, TemplateSyntaxError, UndefinedError
from jinja2.sandbox import SandboxedEnvironment, SecurityError

from pnp.compose.bind import NamedView, describe_missing
from pnp.compose.sandbox import bounded_render, make_environment, template_fault, time_limit
from pnp.diagnostics import DataError, Diagnostic, Level
from pnp.load.game_folder import PLAYER_NAMES
from pnp.load.user_cache import user_cache_dir, write_bytes_cache
from pnp.model.game import Game
from pnp.rules.base import ExampleError, GameRules

_FENCE_OPEN = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})\s*example\s+(?P<id>[A-Za-z0-9_.-]+)\s*$")
#: how a list of cards is separated in running text; typography, not wording
LIST_SEPARATORS = {"ja": "、", "zh": "、"}


class _UnknownResult(ChainableUndefined):
    """``result`` of an example that does not exist or failed: prints "?" so the rest still renders.

    The unknown id itself is reported by the parser, at the fence's line; an example that failed is
    reported by the examples check. So whatever a text does with it (a macro that takes a card id
    apart: ``id.split("-")``, then looks the colour up) stays unknown and quiet: one problem, not one
    per placeholder.
    """

    def __str__(self) -> str:
        return "?"

    def __call__(self, *args: Any, **kwargs: Any) -> _UnknownResult:
        return self


class _RecordedUndefined(ChainableUndefined):
    """An unknown name printed by a placeholder: noted with its line and printed as "?".

    So the rest of the text still renders, and `pnp check` reports every unknown name of a rule text
    in one run instead of the first. Any other use of it (arithmetic, a comparison) fails at once,
    as strictly as before; so does a test of it in ``{% if %}``, which is noted the same way.
    """

    def __str__(self) -> str:
        _note_unknown(self)
        return "?"

    def __bool__(self) -> bool:
        _note_unknown(self)
        return False

    def __iter__(self) -> Iterator[Any]:
        _note_unknown(self)
        return iter(())


@dataclass
class _Rendering:
    """What one render_template call notes: the template's file, its code's line map, the unknown names."""

    filename: str
    template: Any
    context: Mapping[str, Any]
    unknown: dict[tuple[int | None, str], None] = field(default_factory=dict)  # (line, message), in order


_RENDERING: ContextVar[_Rendering | None] = ContextVar("pnp_rule_text_rendering", default=None)


def _note_unknown(undefined: ChainableUndefined) -> None:
    rendering = _RENDERING.get()
    if rendering is None or issubclass(undefined._undefined_exception, SecurityError):
        # A reach for internals stays a refusal by the sandbox, reported as such. Outside a render,
        # Jinja2's optimizer folding a constant at compile time must fail as before, or it would bake
        # "?" into the compiled text where no render can note it.
        undefined._fail_with_undefined_error()
    if isinstance(getattr(undefined, "_undefined_name", None), _UnknownResult):
        return  # looked up by an unknown result (colours[?]): that result's problem is reported already
    line = None
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename == rendering.filename:
            line = rendering.template.get_corresponding_lineno(frame.f_lineno)
            break
        frame = frame.f_back
    name = getattr(undefined, "_undefined_name", None)
    holder = getattr(undefined, "_undefined_obj", None)
    if isinstance(name, str) or (name is not None and isinstance(holder, Mapping)):
        message = describe_missing(holder, name, rendering.context)
    else:
        message = undefined._undefined_message
    rendering.unknown.setdefault((line, message), None)


def make_rule_environment() -> SandboxedEnvironment:
    """The card layouts' sandbox, with Jinja comments moved out of the way of ``{#id}``; an unknown name
    is noted and printed as "?" (:class:`_RecordedUndefined`), so one run reports them all."""
    env = make_environment().overlay(comment_start_string="{##", comment_end_string="##}")
    env.undefined = _RecordedUndefined
    return env


MINUS = "\u2212"


def format_value(value: Any) -> str:
    """Numbers as a rulebook prints them: 7/2 stays a fraction, and a negative gets a real minus sign."""
    if isinstance(value, Fraction):
        text = str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    elif isinstance(value, list | tuple):
        return ", ".join(format_value(item) for item in value)
    else:
        text = str(value)
    return MINUS + text[1:] if _NEGATIVE.match(text) else text


_NEGATIVE = re.compile(r"^-\d")


class ResultView(dict):
    """An example's recomputed result as placeholders see it: values already formatted."""


def result_view(result: Mapping[str, Any] | None) -> ResultView | _UnknownResult:
    if result is None:
        return _UnknownResult()
    view = ResultView()
    for key, value in result.items():
        view[key] = [format_value(v) for v in value] if isinstance(value, list | tuple) else format_value(value)
    return view


def compute_results(game: Game, rules: GameRules) -> dict[str, Mapping[str, Any] | None]:
    """Every example recomputed once; ``None`` where the rules cannot (pnp check reports why)."""
    results: dict[str, Mapping[str, Any] | None] = {}
    for example in game.examples:
        try:
            results[example.id] = (rules.run_example(game, example)
                                   if example.kind in rules.example_kinds else None)
        except ExampleError:
            results[example.id] = None
    return results


def card_label(game: Game, card_id: str, lang: str | None = None) -> str:
    """A card as text: rank and suit symbol ("10♠") where the suit has one, else the card's name.

    A colour-only card (Take Over That Job's "green 5") would lose its colour as a bare rank, so
    it prints its name in ``lang`` instead.
    """
    card = game.card(str(card_id))
    if card is None:
        return str(card_id)
    suit = game.suits.get(card.suit) if card.suit else None
    symbol = suit.symbol if suit and suit.symbol and len(suit.symbol) == 1 else ""
    if card.rank is not None and symbol:
        return f"{rank_label(game, card.rank)}{symbol}"
    name = card.text("name", lang or game.source_language)
    if name:
        return name
    return rank_label(game, card.rank) if card.rank is not None else card.id


class CardView(NamedView):
    """A card as a rule text reads it: printed, its label as :func:`card_label` gives it ("10♠"); its
    fields by name (``.points``, ``.count``, ``.name``...), read from the card list, so a number a
    rulebook prints this way cannot drift from the CSV."""

    def __init__(self, reached_as: str, label: str, values: Mapping[str, Any]) -> None:
        super().__init__(reached_as, values)
        self._label = label

    def __str__(self) -> str:
        return self._label


_WHOLE_NUMBER = re.compile(r"-?\d+")


def card_view(game: Game, card: Any, lang: str, reached_as: str) -> CardView:
    """``card("harvest")`` and each of ``components.<id>.cards``: id, count, kind, suit, colour, rank (ids
    and numbers, as the card list has them), its texts in ``lang`` (name, text...), and the component's
    declared fields, a whole number as a number (so a text can add them up)."""
    values: dict[str, Any] = {"id": card.id, "count": card.count, "kind": card.kind, "suit": card.suit,
                              "colour": card.colour, "rank": card.rank, "component": card.component}
    for name in card.texts:
        values[name] = card.text(name, lang) or card.text(name, game.source_language)
    values.setdefault("name", "")
    for name, value in card.fields.items():
        values[name] = int(value) if isinstance(value, str) and _WHOLE_NUMBER.fullmatch(value.strip()) else value
    return CardView(reached_as, card_label(game, card.id, lang), values)


def rank_label(game: Game, rank: int) -> str:
    """The game's own rank labels (A, J, Q, K) where the model has them."""
    labels = getattr(game, "rank_label", None)
    return labels(rank) if callable(labels) else {1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))


#: the table of examples.toml that names the examples' players per language (docs/rulebooks.md)


def player_names(game: Game, lang: str) -> dict[str, str]:
    """How ``lang`` writes the players the examples name: ``[player_names.<lang>]`` in examples.toml.

    ``inputs.players`` holds stable ids, which the rules model compares with
    ``expect.winner``; rule texts (``player(id)``) and example figures print
    this name instead, or the id itself where the table has none. `pnp check`
    reports a table that misses a player or names an unknown one
    (:func:`pnp.validate.examples.check_player_names`).
    """
    if game.examples_data is None:
        return {}
    tables = game.examples_data.data.get(PLAYER_NAMES)
    names = tables.get(lang) if isinstance(tables, dict) else None
    if not isinstance(names, dict):
        return {}
    return {str(key): value for key, value in names.items() if isinstance(value, str) and value}


def rule_context(game: Game, rules: GameRules, lang: str, results: Mapping[str, Mapping[str, Any] | None],
                 rules_broken: bool = False) -> dict[str, Any]:
    """The names a rule text can use; documented in docs/rulebooks.md.

    Only plain dicts, lists, numbers and strings go in, so the sandbox has no
    model object whose methods a template could reach.
    """
    low, high = game.players
    credits = game.credits

    def table(table_id: str) -> str:
        # An HTML comment is a block of its own for Markdown; the parser checks the id and reports its line.
        return f"<!-- pnp:table {table_id} -->"

    def card(card_id: str) -> CardView | str:
        found = game.card(str(card_id))
        if found is None:  # printed as written; pnp check reports the id (validate/card_mentions.py)
            return card_label(game, card_id, lang)
        return card_view(game, found, lang, f'card("{card_id}")')

    def cards(card_ids: Any) -> str:
        items = card_ids if isinstance(card_ids, list | tuple) else str(card_ids).replace(",", " ").split()
        return LIST_SEPARATORS.get(lang, ", ").join(card_label(game, item, lang) for item in items)

    def example_result(example_id: str) -> ResultView | _UnknownResult:
        return result_view(results.get(example_id))

    rules_view = _plain_data(dict(rules.context(game, lang)))
    inputs = {example.id: example.inputs for example in game.examples}
    names = player_names(game, lang)

    def player(player_id: Any) -> str:
        return names.get(str(player_id), str(player_id))

    def example_inputs(example_id: str) -> Any:
        return _plain_data(inputs[example_id]) if example_id in inputs else _UnknownResult()

    return {
        "lang": lang,
        "game": {
            "id": game.id,
            "title": game.title(lang),
            "subtitle": game.subtitles.get(lang, ""),
            "author": game.author(lang),
            "year": credits.get("year", ""),
            "minutes": game.minutes,
            "age": game.age,
            "terms": game.terms.get(lang, ""),
        },
        "players": {"min": low, "max": high},
        "setup": {count: _setup_view(row) for count, row in game.setup.items()},
        "components": {cid: _component_view(game, component, lang) for cid, component in game.components.items()},
        "colours": {cid: term.name(lang) for cid, term in game.colours.items()},
        "suits": {sid: {"name": term.name(lang), "symbol": term.symbol or ""} for sid, term in game.suits.items()},
        "kinds": {kid: term.name(lang) for kid, term in game.kinds.items()},
        "rules": _BrokenRulesView(rules_view) if rules_broken else rules_view,
        "examples": {eid: result_view(result) for eid, result in results.items()},
        "table": table,
        "card": card,
        "cards": cards,
        "player": player,
        "_example_result": example_result,
        "_example_inputs": example_inputs,
        "result": _UnknownResult(),  # outside an example block, or in one that is never closed
    }


class _BrokenRulesView(dict):
    """``rules`` when rules.toml has errors: a number it could not give is unknown and quiet ("?").

    The error is reported once, at its line in rules.toml; the rule texts that read the value would
    otherwise each report "rules has no field 'rounds'", which is not so (the field is there, wrong).
    A misspelt ``rules.`` name is quiet too until rules.toml is fixed; then it is reported.
    """

    def __missing__(self, key: str) -> _UnknownResult:
        return _UnknownResult()


def _plain_data(value: Any) -> Any:
    """A copy made of dicts, lists, strings and numbers only, whatever TOML handed us."""
    if isinstance(value, Mapping):
        return {str(k): _plain_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain_data(v) for v in value]
    return value if isinstance(value, str | int | float | bool) or value is None else str(value)


def _deal_view(deal: Any) -> dict[str, Any]:
    return {"pool": deal.pool, "in_play": deal.in_play, "hand": deal.hand, "revealed": deal.revealed,
            "left": deal.left}


def _setup_view(row: Any) -> dict[str, Any]:
    view = _deal_view(row.main)
    view.update(players=row.players, tricks=row.tricks, colours=row.colours,
                also={name: _deal_view(deal) for name, deal in row.also.items()})
    return view


def _component_view(game: Game, component: Any, lang: str) -> dict[str, Any]:
    kinds: dict[str, int] = {}
    for card in component.cards:
        if card.kind:
            kinds[card.kind] = kinds.get(card.kind, 0) + card.count
    ranks = [card.rank for card in component.cards if card.rank is not None and card.count]
    return {"id": component.id, "name": component.name(lang), "count": component.count, "kinds": kinds,
            "description": component.descriptions.get(lang, ""),
            "ranks": {"min": min(ranks), "max": max(ranks)} if ranks else {},
            "cards": [card_view(game, card, lang, f"a card of components.{component.id}.cards")
                      for card in component.cards if card.count]}


def bind_example_results(source: str) -> str:
    """Give each ``example <id>`` fence body its own ``result``, keeping every line where it was.

    ``{% with %}`` goes at the end of the opening fence line and ``{% endwith %}``
    at the start of the closing one, so both render to nothing on lines that
    exist anyway. An unclosed fence is left alone; the parser reports it.
    """
    lines = source.split("\n")
    raw = _raw_lines(source)
    for start, end, example_id in _example_fences(lines):
        if end is None:
            break
        if start in raw:  # printed as written, our tags too: the parser reports the example's template code
            continue
        lines[start] += (f"{{% with result = _example_result({example_id!r}), "
                         f"inputs = _example_inputs({example_id!r}) %}}")
        lines[end] = "{% endwith %}" + lines[end]
    return "\n".join(lines)


_RAW_BLOCK = re.compile(r"\{%-?\s*raw\s*-?%\}.*?(?:\{%-?\s*endraw\s*-?%\}|\Z)", re.DOTALL)


def _raw_lines(source: str) -> set[int]:
    """The lines (0-based) inside ``{% raw %}`` blocks, which Jinja prints as written."""
    inside: set[int] = set()
    for block in _RAW_BLOCK.finditer(source):
        first = source.count("\n", 0, block.start())
        inside.update(range(first, first + block.group().count("\n") + 1))
    return inside


def _example_fences(lines: Sequence[str]) -> Iterator[tuple[int, int | None, str]]:
    """(opening line, closing line, example id) of each ``example <id>`` fence, 0-based; the last may
    be unclosed (closing line None), and nothing after it is a fence."""
    index = 0
    while index < len(lines):
        opener = _FENCE_OPEN.match(lines[index])
        if opener is None:
            index += 1
            continue
        fence = opener.group("fence")
        closer = re.compile(rf"^\s*{re.escape(fence[0])}{{{len(fence)},}}\s*$")
        end = next((k for k in range(index + 1, len(lines)) if closer.match(lines[k])), None)
        yield index, end, opener.group("id")
        if end is None:
            return
        index = end + 1


class RuleTextError(DataError):
    """The rule text cannot be rendered: a template error, with file and line. ``more``: the other
    problems the same run found (past a syntax error, the placeholders checked one by one)."""

    def __init__(self, message: str, file: Path | None = None, line: int | None = None, fix: str | None = None,
                 more: Sequence[Diagnostic] = ()) -> None:
        super().__init__(message, file, line, fix)
        self.more = list(more)


SYNTAX_FIX = "check the {{ }} and {% %} on that line; Jinja comments are {## ... ##}"
_INNERMOST = re.compile(r"innermost block that needs to be closed is '(\w+)'")


_BLOCK_TAG = re.compile(r"\{%-?\s*(\w+)([^%]*)%\}")
_OPENERS = {"if", "for", "macro", "call", "filter", "with", "block", "raw", "autoescape", "set"}


def unclosed_block_line(source: str, block: str) -> int | None:
    """The line of the last ``{% block %}`` of that kind that no ``{% endblock %}`` closes."""
    stack: list[tuple[str, int]] = []
    for tag in _BLOCK_TAG.finditer(source):
        name, rest = tag.group(1), tag.group(2)
        if name == "set" and "=" in rest:
            continue  # {% set x = 1 %} is whole; only {% set x %}...{% endset %} opens a block
        if name.startswith("end"):
            for index in range(len(stack) - 1, -1, -1):
                if stack[index][0] == name[3:]:
                    del stack[index:]
                    break
        elif name in _OPENERS:
            stack.append((name, source.count("\n", 0, tag.start()) + 1))
    return next((line for name, line in reversed(stack) if name == block), None)


def _syntax_problem(message: str) -> tuple[str, str]:
    """Jinja2's syntax error as the writer can act on it. A block left open inside an example meets the
    {% endwith %} pnp puts at the example's end (see bind_example_results): a tag never written."""
    innermost = _INNERMOST.search(message)
    if "unknown tag 'endwith'" in message and innermost:
        block = innermost.group(1)
        return (f"the {{% {block} %}} opened in this example is not closed before the example ends",
                f"add {{% end{block} %}} before the example's closing line")
    return f"template syntax error: {message}", SYNTAX_FIX


def render_template(source: str, path: Path, context: Mapping[str, Any]) -> tuple[str, list[Diagnostic]]:
    """Render in the sandbox: the text, and an error per unknown name it printed (each as "?").

    Any other failure becomes a :class:`RuleTextError` naming the line.
    """
    env = make_rule_environment()
    prepared = bind_example_results(source)
    try:
        code = compiled_template(env, prepared, path)
    except TemplateSyntaxError as exc:
        message, fix = _syntax_problem(exc.message or "")
        line = exc.lineno
        innermost = _INNERMOST.search(exc.message or "")
        if innermost and "Unexpected end of template" in (exc.message or ""):
            # Jinja2 says so where the file ends, dozens of lines below the {% if %} left open
            opened = unclosed_block_line(source, innermost.group(1))
            if opened is not None:
                line, message = opened, f"this {{% {innermost.group(1)} %}} is never closed"
                fix = f"close it with {{% end{innermost.group(1)} %}} where it should end"
        raise RuleTextError(message, path, line, fix,
                            _placeholders_one_by_one(env, source, path, context, line)) from None
    fix = _names_fix(context)
    try:
        template = env.template_class.from_code(env, code, env.make_globals(None))
        rendering = _Rendering(str(path), template, context)
        token = _RENDERING.set(rendering)
        try:
            with time_limit():
                rendered = bounded_render(template, context)
        finally:
            _RENDERING.reset(token)
    except SecurityError as exc:
        internals = "unsafe" in str(exc) or "safely" in str(exc)  # Jinja2's words; the rest are pnp's bounds
        raise RuleTextError(f"refused by the sandbox: {exc}", path, _template_line(exc, path),
                            "a rule text may read the names listed in pnp docs rulebooks, never Python internals"
                            if internals else "make the loop, repeat or width smaller: a rule text prints a "
                            "rulebook, not megabytes") from None
    except UndefinedError as exc:
        raise RuleTextError(f"unknown name in a placeholder: {exc.message}", path, _template_line(exc, path),
                            fix) from None
    except Exception as exc:
        if not _text_fault(exc):
            raise  # a bug in pnp's own helpers keeps its traceback
        if isinstance(exc, TypeError) and "argument" in str(exc):  # card(), player("a", "b")
            called = _LOCAL_FUNCTION.sub("", str(exc))
            raise RuleTextError(f"placeholder failed: {called}", path, _template_line(exc, path),
                                'write card("10S"), cards("AS 2S"), player("Alice") or table("id"): pnp docs rulebooks '
                                "says what each takes") from None
        raise RuleTextError(f"placeholder failed: {type(exc).__name__}: {exc}", path,
                            _template_line(exc, path)) from None
    problems = [Diagnostic(Level.ERROR, f"unknown name in a placeholder: {message}", path, line, fix)
                for line, message in rendering.unknown]
    return rendered, problems + jinja_comments(source, path) + full_width_marks(source, path)


_LOCAL_FUNCTION = re.compile(r"\b[\w.]+\.<locals>\.")  # "rule_context.<locals>.card()" is card() to a writer
_USUAL_JINJA_COMMENT = re.compile(r"\{#(?!#)[^}\n]*#\}")


def jinja_comments(source: str, path: Path) -> list[Diagnostic]:
    """``{# 訳注 #}``, Jinja's usual comment, which a rule text prints as it is: there ``{#`` begins a
    heading id, so its comments are ``{## ##}``. Anyone who knows Jinja writes the usual one."""
    return [Diagnostic(Level.WARNING, f"{match.group(0)[:40]!r} prints as it is: in a rule text a comment is "
                       "{## ... ##}, since {#id} is a heading id", path, source.count("\n", 0, match.start()) + 1,
                       "write {## ... ##}, or <!-- ... --> for a note to translators")
            for match in _USUAL_JINJA_COMMENT.finditer(source)]


_FULL_WIDTH_PLACEHOLDER = re.compile(r"｛[｛{][^｝}\n]*[｝}]｝|\{｛[^｝}\n]*[｝}]｝|｛[｛{][^｝}\n]*\}\}")
_FULL_WIDTH_HEADING = re.compile(r"^[ \t]*＃[＃#]*[ \t\u3000]", re.MULTILINE)


def full_width_marks(source: str, path: Path) -> list[Diagnostic]:
    """``｛｛ players.min ｝｝`` and ``＃＃ 準備``, as a Japanese input method types them, print as written: the
    placeholder was never filled in, and the heading (its section with it) was body text. Said, not guessed at."""
    found = []
    for match in _FULL_WIDTH_PLACEHOLDER.finditer(source):
        inner = match.group(0).strip("｛｝{} ")
        found.append(Diagnostic(Level.WARNING, f"{match.group(0)[:40]!r} prints as it is: full-width braces make no "
                                "placeholder", path, source.count("\n", 0, match.start()) + 1,
                                f"write it with half-width braces: {{{{ {inner} }}}}"))
    for match in _FULL_WIDTH_HEADING.finditer(source):
        line_end = source.find("\n", match.start())
        line = source[match.start(): line_end if line_end >= 0 else len(source)].strip()
        marks = len(line) - len(line.lstrip("＃#"))
        found.append(Diagnostic(Level.WARNING, f"{line[:40]!r} is body text, not a heading: its ＃ is full-width", path,
                                source.count("\n", 0, match.start()) + 1,
                                f"write the heading with half-width #: {'#' * marks} {line.lstrip('＃# ')[:30]}"))
    return found


def _text_fault(exc: Exception) -> bool:
    """Whether a failure while rendering is the rule text's (its template, or Jinja2 on its behalf)."""
    return isinstance(exc, TemplateError | TypeError | ValueError | ArithmeticError | LookupError) \
        or template_fault(exc)


def _names_fix(context: Mapping[str, Any]) -> str:
    known = ", ".join(sorted(name for name in context if not name.startswith("_")))
    return f"names a rule text can use: {known} (see pnp docs rulebooks)"


#: a placeholder as rule texts write them: on one line (so Markdown's line numbers stay the source's)
_PLACEHOLDER = re.compile(r"\{\{.*?\}\}")


def _placeholders_one_by_one(env: SandboxedEnvironment, source: str, path: Path, context: Mapping[str, Any],
                             reported: int | None) -> list[Diagnostic]:
    """What a syntax error hides, found in the same run: Jinja stops at the first, so a second broken
    placeholder, or an unknown name, would show only once it is fixed.

    Each placeholder is compiled alone (its own syntax error, at its line) and, in a text without
    ``{% %}`` statements (which could bind names a placeholder alone does not see), rendered alone
    for unknown names; an example fence's placeholders see its ``result`` and ``inputs``.
    """
    problems: list[Diagnostic] = []
    statements = "{%" in source
    examples = _example_lines(source)
    for match in _PLACEHOLDER.finditer(source):
        line = source.count("\n", 0, match.start()) + 1
        try:
            template = env.from_string(match.group(0))
        except TemplateSyntaxError as exc:
            if line != reported:
                problems.append(Diagnostic(Level.ERROR, f"template syntax error: {exc.message}", path, line,
                                           SYNTAX_FIX))
            continue
        if statements:
            continue
        names = dict(context)
        example = examples.get(line)
        if example is not None:
            names.update(result=context["_example_result"](example), inputs=context["_example_inputs"](example))
        rendering = _Rendering(template.filename or "<template>", template, names)
        token = _RENDERING.set(rendering)
        try:
            with time_limit():
                bounded_render(template, names)
        except Exception as exc:
            if not _text_fault(exc):
                raise
            continue  # a failure past the names: the whole text reports it once it compiles
        finally:
            _RENDERING.reset(token)
        problems.extend(Diagnostic(Level.ERROR, f"unknown name in a placeholder: {message}", path, line,
                                   _names_fix(context)) for _, message in rendering.unknown)
    return problems


def _example_lines(source: str) -> dict[int, str]:
    """Line -> the id of the example fence it is inside (the fence lines included)."""
    lines = source.split("\n")
    return {number + 1: example_id for start, end, example_id in _example_fences(lines)
            for number in range(start, (len(lines) - 1 if end is None else end) + 1)}


def compiled_template(env: SandboxedEnvironment, source: str, path: Path) -> CodeType:
    """Jinja2's compiled code for a rule text, kept in the user cache like Python keeps .pyc files.

    Compiling a rulebook's templates is a fifth of `pnp check`; the code depends only on the text,
    Jinja2's version, the environment's delimiters and bounded operators, and Python's bytecode
    format, which key the file (as Jinja2's own bytecode cache does).
    """
    import jinja2

    key = hashlib.sha256("\n".join([
        COMPILED_FORMAT, jinja2.__version__, sys.implementation.cache_tag or "", str(path), env.comment_start_string,
        " ".join(sorted(env.intercepted_binops)),  # compiled in: each goes through the sandbox's bounds
        env.comment_end_string, source]).encode("utf-8", "surrogatepass")).hexdigest()
    memo = _COMPILED.get(key)
    if memo is not None:
        return memo
    folder = user_cache_dir() / "templates"
    stored = folder / f"{key[:40]}.code"
    try:
        code = marshal.loads(stored.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        code = None
    if not isinstance(code, CodeType) or code.co_filename != str(path):
        # damaged bytes can load as another object (Ellipsis), which failed as the rule text's own error
        code = env.compile(source, name=path.name, filename=str(path))
        _make_room(folder)
        write_bytes_cache(stored, marshal.dumps(code))
    _COMPILED[key] = code
    return code


_COMPILED: dict[str, CodeType] = {}
#: changes when what compiling folds in changes (2: unknown names are noted at render time, not folded;
#: 3: * and ** go through the sandbox's bounds; 4: % too; the intercepted operators are in the key since)
COMPILED_FORMAT = "4"
KEPT_TEMPLATES = 2_000  # compiled rule texts kept on disk; every edit of a rule text adds one


def _make_room(folder: Path) -> None:
    """Past KEPT_TEMPLATES files, drop the older half: edits and moved game folders would otherwise pile up."""
    try:
        files = list(folder.glob("*.code"))
        if len(files) < KEPT_TEMPLATES:
            return
        files.sort(key=lambda file: file.stat().st_mtime_ns)
        for file in files[: len(files) // 2]:
            file.unlink(missing_ok=True)
    except OSError:
        pass  # a cache that cannot be tidied costs disk space, not correctness


def _template_line(exc: BaseException, path: Path) -> int | None:
    """Jinja rewrites tracebacks so the template's own frame carries the template line."""
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == str(path):
            line = frame.lineno
    return line


#: placeholders, statements and Jinja comments; a placeholder left unclosed (the syntax error) to the end
#: of its line, so what it swallowed is not taken for prose
#: a macro's (or a call block's) body prints only where it is called: blanked whole, or the text between
#: its placeholders ("の" in Take Over That Job's card-name macro) read as text before the first heading
_TEMPLATE_CODE = re.compile(r"\{%-?\s*(macro|call)\b.*?\{%-?\s*end\1\s*-?%\}"
                            r"|\{\{(?:(?!\{\{).)*?\}\}|\{%.*?%\}|\{##.*?##\}|\{\{[^\n]*", re.DOTALL)


def without_template_code(source: str) -> str:
    """The rule text with its placeholders, statements and comments blanked, lines kept: what a text
    that cannot be rendered (a syntax error) still says about its headings, ids and example blocks."""
    return _TEMPLATE_CODE.sub(blank, source)


def blank(match: re.Match[str]) -> str:
    """A matched span as spaces, its line breaks kept: offsets and line numbers stay true."""
    return re.sub(r"[^\n]", " ", match.group(0))
