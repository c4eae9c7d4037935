"""What to tell a layout's author when an expression fails: Jinja2's errors in the designer's words.

"'dict object' has no attribute 'nme'" becomes "card has no field 'nme' (did you mean 'name'?)".
Apart from the binding itself (pnp/compose/bind.py) because it is the larger half and reads
nothing of the layout: only the exception, and the names the template could have reached. Rule
texts word their unknown names the same way (pnp/compose/template.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from pnp.compose.sandbox import template_fault
from pnp.model.fields import closest
from pnp.model.layout import Element

if TYPE_CHECKING:
    from jinja2.sandbox import SandboxedEnvironment


def unknown_name(result: Any, context: Mapping[str, Any]) -> str | None:
    """What an expression that gave a Jinja2 Undefined lacked, or None for any other result."""
    from jinja2 import Undefined

    name = getattr(result, "_undefined_name", None) if isinstance(result, Undefined) else None
    return describe_missing(getattr(result, "_undefined_obj", None), name, context) if isinstance(name, str) else None


_NO_ATTRIBUTE = re.compile(r"has no attribute '([^']+)'")
_UNDEFINED_NAME = re.compile(r"'([^']+)' is undefined")


def missing_field(exc: Exception, element: Element, context: Mapping[str, Any]) -> str | None:
    """Jinja2's "'dict object' has no attribute 'nme'" as "card has no field 'nme' (did you mean 'name'?)"."""
    from jinja2 import UndefinedError

    if not isinstance(exc, UndefinedError):
        return None
    bare = _UNDEFINED_NAME.fullmatch(str(exc))
    if bare is not None:  # "widht - 4": a name of the layout's own, misspelt
        return describe_missing(None, bare.group(1), context)
    match = _NO_ATTRIBUTE.search(str(exc))
    if match is None:
        return None
    name = match.group(1)
    for source in (value for value in (*element.values.values(), element.when) if isinstance(value, str)):
        for owner in re.finditer(rf"([A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*)\s*\.\s*{re.escape(name)}\b", source):
            holder = _walk(owner.group(1), context)  # card.fields.pionts: the holder is card.fields
            if isinstance(holder, Mapping) and name not in holder:
                return describe_missing(holder, name, context)
    return None


def _walk(dotted: str, context: Mapping[str, Any]) -> Any:
    """The value a dotted name (``card.fields``) reaches in ``context``, or None."""
    value: Any = context
    for part in re.split(r"\s*\.\s*", dotted):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value


def describe_missing(holder: Any, name: Any, context: Mapping[str, Any]) -> str:
    """"card has no field 'nme' (did you mean 'name'?)": what lacks the name, and what was likely meant.

    ``card.widht`` most likely meant ``width``, a name of the layout's own, so a name of the context
    is offered when the object has no field like it.
    """
    owner = _owner(holder, context)
    if owner is not None and isinstance(holder, Mapping) and not isinstance(name, str):
        entries = [repr(key) for key in holder]  # setup[9]: "dict object has no element 9" before
        listed_entries = f" (it has: {', '.join(entries)})" if 0 < len(entries) <= LISTED_FIELDS else ""
        return f"{owner} has no entry {name!r}{listed_entries}"
    if owner is not None and isinstance(holder, Mapping) and any(
            not isinstance(key, str) and str(key) == name for key in holder):
        return f"{owner}'s keys are numbers: write {owner}[{name}], not {owner}[{name!r}]"
    if owner is None or not isinstance(holder, Mapping) or not isinstance(name, str):
        hint = _closest_name(str(name), context)
        return f"unknown name {name!r}" + (f" (did you mean {hint!r}?)" if hint else "")
    own = holder.get("fields") if owner == "card" else None
    if isinstance(own, Mapping) and name in own:  # card.flavour for a column the component declares
        return f"{owner} has no field {name!r} (did you mean 'fields.{name}'? the component's own columns are " \
               "under card.fields)"
    field_hint = _closest_name(name, holder)
    if field_hint:
        return f"{owner} has no field {name!r} (did you mean {field_hint!r}?)"
    name_hint = _closest_name(name, context, ANOTHER_NAMESPACE_LIKENESS)
    if name_hint and "." not in owner:
        return f"{owner} has no field {name!r} (did you mean {name_hint!r}, without '{owner}.'?)"
    fields = [str(key) for key in holder]
    if 0 < len(fields) <= LISTED_FIELDS:
        return f"{owner} has no field {name!r} (it has: {', '.join(fields)})"
    return f"{owner} has no field {name!r}"


LISTED_FIELDS = 12  # an object with no field like the one asked for names its fields, if this few


class NamedView(dict):
    """A mapping that knows how a template reached it (``card("harvest")``), for "has no field" messages
    about an object a call returned or a loop gave, which no name of the context holds. The name is
    kept under an underscore, which the sandbox never lets a template read."""

    def __init__(self, reached_as: str, values: Mapping[str, Any]) -> None:
        super().__init__(values)
        self._reached_as = reached_as


def _owner(holder: Any, context: Mapping[str, Any]) -> str | None:
    """The dotted name ``holder`` has in ``context``: "card", or "components.deck" one level down, so
    that ``components.deck.cont`` is not just "unknown name 'cont'"."""
    if isinstance(holder, NamedView):
        return holder._reached_as
    for key, value in context.items():
        if value is holder:
            return str(key)
    for key, value in context.items():
        if isinstance(value, Mapping):
            for inner, found in value.items():
                if found is holder:
                    return f"{key}.{inner}"
    return None


#: a name from outside the object is offered only when nearly the same: "widht" for "width" (0.8), not
#: "table" for "colours.blue" (0.67), which sent a designer who had renamed a colour the wrong way
ANOTHER_NAMESPACE_LIKENESS = 0.8


def _closest_name(name: str, known: Mapping[str, Any], cutoff: float = 0.6) -> str | None:
    return closest(name, [str(key) for key in known], cutoff)


_UNKNOWN_TEST_OR_FILTER = re.compile(r"No (test|filter) named '([^']*)'\.?")


def binding_problem(exc: Exception, environment: Callable[[], SandboxedEnvironment]) -> str | None:
    """What to tell the layout's author about an exception from evaluating it; None for a bug.

    ``environment`` gives the sandbox whose filters and tests a misspelt one is matched against."""
    from jinja2 import TemplateError, UndefinedError
    from jinja2.sandbox import SecurityError

    if isinstance(exc, SecurityError):
        return f"refused by the sandbox: {exc}"
    if isinstance(exc, UndefinedError):
        return f"unknown field: {exc}"
    if type(exc) is ValueError:
        return str(exc)  # pnp's own words: the value and what is wrong with it
    unknown = _UNKNOWN_TEST_OR_FILTER.fullmatch(str(exc)) if isinstance(exc, TemplateError) else None
    if unknown is not None:
        kind, name = unknown.groups()
        hint = _closest_name(name, getattr(environment(), f"{kind}s"))
        return f"there is no {kind} named {name!r}" + (f" (did you mean {hint!r}?)" if hint else "")
    if isinstance(exc, TemplateError | TypeError | ValueError | ArithmeticError) or template_fault(exc):
        return f"{type(exc).__name__}: {exc}"
    return None
