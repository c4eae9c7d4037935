"""Bind layouts to cards: evaluate every Jinja2 expression before drawing.

Resolving first, drawing second, lets a build know every string it will print
(fonts are subset to exactly those characters) and lets `pnp check` report a
layout's unknown field or missing image before anything is rendered.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pnp.compose.arithmetic import arithmetic_names, evaluate_arithmetic
from pnp.compose.bind_messages import NamedView as NamedView  # re-exported: compose/template.py imports it
from pnp.compose.bind_messages import binding_problem, missing_field, unknown_name
from pnp.compose.bind_messages import describe_missing as describe_missing  # re-exported, as NamedView is
from pnp.compose.sandbox import bounded_render, make_environment
from pnp.model.fields import closest
from pnp.model.game import Card, Component, Game, Term
from pnp.model.layout import CONDITION_KEYS, NUMERIC_KEYS, Element, Layout, choice_problem, number_problem

if TYPE_CHECKING:
    from jinja2.sandbox import SandboxedEnvironment

COLOUR_KEYS = {"fill", "stroke", "colour"}
#: a template that only prints one field of a context object: "{{ card.name }}"
_PLAIN_FIELD = re.compile(r"\{\{\s*([a-z_]+)\.([a-z_]+)\s*\}\}")
#: a colour as layouts write it; anything else must be a palette or game colour name
HEX_COLOUR = re.compile(r"#[0-9A-Fa-f]{6}")
SHORT_HEX_COLOUR = re.compile(r"#[0-9A-Fa-f]{3}")
ALPHA_HEX_COLOUR = re.compile(r"#[0-9A-Fa-f]{8}")
#: the names in a layout's context that change from card to card
CARD_NAMES = frozenset({"card", "colour", "suit", "kind"})


class BindError(Exception):
    """A layout expression failed for a card: unknown field, bad value, unsafe access."""

    def __init__(self, message: str, layout: Layout, element: Element, key: str | None = None) -> None:
        super().__init__(message)
        self.layout = layout
        self.element = element
        self.line = element.line_of(key)  # the key that failed, where the file says it
        #: the value reads nothing of the card ("papper" for a fill): the layout's mistake, the same for
        #: every card, not one to look for in the card data
        self.static = False


@dataclass(frozen=True)
class Resolved:
    """An element with every value evaluated for one card."""

    type: str
    values: dict[str, Any]
    line: int | None


_SHARED: list = []  # the process's one default sandbox, made on first use
_SHARED_TEMPLATES: dict[str, Any] = {}
_SHARED_EXPRESSIONS: dict[str, Any] = {}


def shared_environment() -> SandboxedEnvironment:
    """One sandbox for every Binder that brings none, so its compiled layout strings are reused."""
    if not _SHARED:
        _SHARED.append(make_environment())
    return _SHARED[0]


def term_view(term: Term | None, lang: str) -> dict[str, Any] | None:
    if term is None:
        return None
    return {"id": term.id, "name": term.name(lang), "rgb": term.rgb, "symbol": term.symbol,
            "icon": term.extra.get("icon"), "colour": term.colour}


class TextsInError(dict):
    """Card texts a rules module could not make because rules.toml has errors (reported there, once):
    a text a layout asks for prints "?" rather than being reported again, card by card."""

    def __missing__(self, key: str) -> str:
        return "?"


def card_context(game: Game, component: Component, card: Card | None, lang: str,
                 generated: Mapping[str, Mapping[str, str]], ink_saver: bool) -> dict[str, Any]:
    """The names a layout can use; documented in docs/layouts.md."""
    width, height = component.trim_mm
    context: dict[str, Any] = {
        "game": {"id": game.id, "title": game.title(lang), "subtitle": game.subtitles.get(lang, "")},
        "component": {"id": component.id, "name": component.name(lang), "count": component.count},
        "lang": lang,
        "palette": dict(game.palette),
        "ink_saver": ink_saver,
        "width": width,
        "height": height,
    }
    if card is not None:
        colour_id = card.colour or (game.suits[card.suit].colour if card.suit in game.suits else None)
        context["card"] = {
            "id": card.id,
            "count": card.count,
            "kind": card.kind,
            "rank": card.rank,
            "rank_label": game.rank_label(card.rank),
            "name": card.text("name", lang),
            "text": card.text("text", lang),
            "fields": {**card.fields, **{k: v.get(lang, "") for k, v in card.texts.items()}},
            "generated": (TextsInError if isinstance(generated, TextsInError) else dict)(generated.get(card.id, {})),
            "provisional": card.provisional,
        }
        context["colour"] = term_view(game.colours.get(colour_id) if colour_id else None, lang)
        context["suit"] = term_view(game.suits.get(card.suit) if card.suit else None, lang)
        context["kind"] = term_view(game.kinds.get(card.kind) if card.kind else None, lang)
    return context


@dataclass
class _ElementPlan:
    """Which of an element's values differ from card to card; the rest are evaluated once."""

    element: Element
    dynamic: tuple[str, ...]
    static: dict[str, Any] | None = None  # filled on the first card that shows the element


def _check_choices(values: Mapping[str, Any], layout: Layout, element: Element) -> None:
    for key, value in values.items():
        problem = choice_problem(key, value)
        if problem:
            raise BindError(problem, layout, element)


class Binder:
    """Evaluates a layout's elements; compiled expressions are cached per string."""

    def __init__(self, game: Game, environment: SandboxedEnvironment | None = None) -> None:
        self.game = game
        self._env = environment
        # with the shared sandbox, compiled templates are shared too: every language and every
        # component of a build binds the same layout strings
        shared = environment is None
        self._templates: dict[str, Any] = _SHARED_TEMPLATES if shared else {}
        self._expressions: dict[str, Any] = _SHARED_EXPRESSIONS if shared else {}
        self._per_card: dict[str, bool] = {}
        self._static: dict[tuple, Any] = {}
        self._plans: dict[tuple, list[_ElementPlan]] = {}
        self._plain_fields: dict[str, tuple[str, str] | None] = {}  # template -> (object, field) it prints

    def resolve(self, layout: Layout, context: Mapping[str, Any],
                problems: list[BindError] | None = None) -> list[Resolved]:
        """Every element evaluated for one card. A layout mistake raises :class:`BindError`; with
        ``problems``, each element in error is added to it and left out, and the others are still
        evaluated, so that a check reports every mistake of a layout at once, not the first."""
        resolved = []
        # values that read no card-level name are the same for every card of a component:
        # evaluate them once (a 5,000-card deck otherwise renders the same title 5,000 times),
        # and per card touch only the values that read the card
        static_key = (context.get("component", {}).get("id"), context.get("lang"), context.get("ink_saver"))
        plans = self._plans.get((layout.name, layout.path, static_key))
        if plans is None:
            plans = self._plans[(layout.name, layout.path, static_key)] = [self._plan(e) for e in layout.elements]
        for plan in plans:
            element = plan.element
            key: str | None = "when"  # the key being evaluated, for the line of an error
            in_static = False  # evaluating the values that read no card
            try:
                if element.when is not None and not self._cached(static_key, "when", element.when, context,
                                                                 self._when):
                    continue
                if plan.static is None:
                    in_static = True
                    static = {}
                    for key, value in element.values.items():
                        if key not in plan.dynamic:
                            static[key] = self._cached(static_key, key, value, context, self._value)
                    key = None
                    _check_choices(static, layout, element)
                    plan.static = static
                    in_static = False
                values = dict(plan.static)
                for key in plan.dynamic:
                    values[key] = self._value(key, element.values[key], context)
                if plan.dynamic:
                    _check_choices({key: values[key] for key in plan.dynamic}, layout, element)
            except BindError as exc:
                exc.static = in_static
                if problems is None:
                    raise
                problems.append(exc)
                continue
            except Exception as exc:
                problem = missing_field(exc, element, context) or binding_problem(exc, shared_environment)
                if problem is None:
                    raise  # not the layout's fault: a bug keeps its traceback
                error = BindError(problem, layout, element, key)
                error.static = in_static
                if problems is None:
                    raise error from None
                problems.append(error)
                continue
            resolved.append(Resolved(element.type, values, element.line))
        return resolved

    @property
    def env(self) -> SandboxedEnvironment:
        """Made on first use: layouts of plain fields and arithmetic never need Jinja2 (nor its import)."""
        if self._env is None:
            self._env = shared_environment()
        return self._env

    def _plan(self, element: Element) -> _ElementPlan:
        dynamic = tuple(key for key, value in element.values.items()
                        if isinstance(value, str) and self._reads_card(value, expression=_is_expression(key)))
        return _ElementPlan(element, dynamic)

    def _when(self, _key: str, source: str, context: Mapping[str, Any]) -> Any:
        return self._expression(source)(**context)

    def _cached(self, static_key: tuple, key: str, value: Any, context: Mapping[str, Any],
                evaluate: Callable[[], Any]) -> Any:
        if not isinstance(value, str) or self._reads_card(value, expression=_is_expression(key)):
            return evaluate(key, value, context)
        cache_key = (static_key, key, value)
        if cache_key not in self._static:
            self._static[cache_key] = evaluate(key, value, context)
        return self._static[cache_key]

    def _reads_card(self, source: str, expression: bool) -> bool:
        """Whether a template or expression names anything that differs from card to card."""
        marker = ("e:" if expression else "t:") + source
        if marker not in self._per_card:
            names = self._names_read(source, expression)
            self._per_card[marker] = bool(names & CARD_NAMES)
        return self._per_card[marker]

    def _names_read(self, source: str, expression: bool) -> set[str] | frozenset[str]:
        if not expression and "{" not in source:
            return set()  # no Jinja2 delimiter: plain text
        plain = None if expression else _PLAIN_FIELD.fullmatch(source)
        if plain is not None:
            return {plain.group(1)}
        arithmetic = arithmetic_names(source) if expression else None
        if arithmetic is not None:
            return arithmetic
        from jinja2 import TemplateError, meta

        try:
            return meta.find_undeclared_variables(self.env.parse("{{ (" + source + ") }}" if expression else source))
        except TemplateError:
            return CARD_NAMES  # let the evaluation report the error, card by card

    def _value(self, key: str, value: Any, context: Mapping[str, Any]) -> Any:
        if not isinstance(value, str):
            return value
        if key in NUMERIC_KEYS:
            result = evaluate_arithmetic(value, context)
            if result is None:
                result = self._expression(value)(**context)
            if isinstance(result, bool) or not isinstance(result, int | float):
                unknown = unknown_name(result, context)
                if unknown is not None:
                    raise ValueError(f"{key} = {value!r}: {unknown}")
                raise ValueError(f"{key} = {value!r} gives {result!r}, not a number")
            problem = number_problem(key, result)
            if problem is not None:
                raise ValueError(f"{key} = {value!r} gives {result:g}, which {problem}")
            return float(result)
        if key in CONDITION_KEYS:
            result = self._expression(value)(**context)
            unknown = unknown_name(result, context)
            if unknown is not None:
                raise ValueError(f"{key} = {value!r}: {unknown}")
            return bool(result)
        if "{" not in value:
            text = value
        else:
            text = self._plain_lookup(value, context)
            if text is None:
                text = bounded_render(self._template(value), context)
        if key in COLOUR_KEYS:
            return self.colour(text)
        return text

    def _plain_lookup(self, source: str, context: Mapping[str, Any]) -> str | None:
        """``{{ card.name }}`` and the like, read straight from the context.

        Most layout values are a single field; Jinja2 would build a fresh
        context for each (tens of thousands per deck). Anything else, or a
        field that is missing (so Jinja2 can report it), returns None and goes
        through the sandboxed template as before.
        """
        field = self._plain_fields.get(source, False)
        if field is False:
            match = _PLAIN_FIELD.fullmatch(source)
            field = self._plain_fields[source] = None if match is None else (match.group(1), match.group(2))
        if field is None:
            return None
        holder = context.get(field[0])
        if not isinstance(holder, dict) or field[1] not in holder:
            return None
        value = holder[field[1]]
        return value if isinstance(value, str) else str(value) if isinstance(value, int | float) else None

    def colour(self, text: str) -> str | None:
        """'#rrggbb', a palette name, a game colour id, or 'none'."""
        text = text.strip()
        if text in ("", "none"):
            return None
        if HEX_COLOUR.fullmatch(text):
            return text
        if SHORT_HEX_COLOUR.fullmatch(text):  # CSS's #fff: each digit doubled
            return "#" + "".join(digit * 2 for digit in text[1:])
        if ALPHA_HEX_COLOUR.fullmatch(text):
            raise ValueError(f"colour {text!r} has an alpha channel, which a layout colour does not take "
                             f"(write {text[:7]!r}: layout colours print opaque)")
        if text in self.game.palette:
            return self.game.palette[text]
        if text in self.game.colours and self.game.colours[text].rgb:
            return self.game.colours[text].rgb
        names = sorted(set(self.game.palette) | set(self.game.colours))
        hint = closest(text, names) or closest(text.lower(), names)
        meant = f"did you mean {hint!r}? " if hint else ""
        raise ValueError(f"unknown colour {text!r} ({meant}use '#rrggbb' or one of: {', '.join(names)})")

    def _template(self, source: str):
        if source not in self._templates:
            self._templates[source] = self.env.from_string(source)
        return self._templates[source]

    def _expression(self, source: str):
        if source not in self._expressions:
            # undefined_to_none=False: an unknown name in `when` must be an error, not a hidden element
            self._expressions[source] = self.env.compile_expression(source, undefined_to_none=False)
        return self._expressions[source]


def _is_expression(key: str) -> bool:
    """Whether a layout key's string is a bare expression (numbers, conditions), not a template."""
    return key in NUMERIC_KEYS or key in CONDITION_KEYS
