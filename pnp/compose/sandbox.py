"""The sandbox layouts and rule texts are evaluated in: they may come from someone else.

Jinja2's own sandbox stops a template from reaching Python internals. It does not stop one from
filling the memory or the clock: ``{{ "a" * 10**9 }}``, ``("a" * 99999)|replace("a", "a" * 99999)``,
``lipsum(10**9)``, two nested loops over ``range(99999)``, a macro that calls itself. These are
refused here, each with a message, as a template's errors are; a bug in pnp's own code keeps its
traceback (:func:`template_fault`).

It is also stricter than Jinja2's about what a template may change or miss. Nothing a template is
given can be changed (Jinja2's immutable sandbox: no ``list.append``, no ``dict.update``), nor a
``namespace()`` once made; and a name a filter looks up (``map(attribute="nosuch")``, ``sort``,
``selectattr``, ``attr``) is an unknown name, as ``card.nosuch`` is, not an ``Undefined`` tucked into
a list that prints as "[Undefined]".
"""

from __future__ import annotations

import functools
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jinja2 import Template
    from jinja2.sandbox import SandboxedEnvironment

#: the longest string or list a layout or rule text may make with *, and the largest power with **
LONGEST_REPEAT = 100_000
LARGEST_EXPONENT = 1_000
#: str methods that pad to a width they are given
PADDING_METHODS = frozenset({"ljust", "rjust", "center", "zfill", "expandtabs"})
#: a width or precision in a format spec ({:>20}, {:.3f}) or a %-format (%20s, %.3f)
_FORMAT_WIDTHS = re.compile(r"(?:\{[^{}]*:|%)[^{}%\d]*?(\d+)(?:\.(\d+))?")


def _check_format_widths(template: object, too_wide: Callable[[object], None]) -> None:
    """Refuse a format string whose widths would build a huge string ("%1000000000d" % 1)."""
    if isinstance(template, str):
        for match in _FORMAT_WIDTHS.finditer(template):
            for number in match.groups():
                if number is not None:
                    too_wide(int(number))


def _check_replace(text: object, old: object = "", new: object = "", count: object = None, *_: object,
                   **__: object) -> None:
    """Refuse a replace whose result would pass LONGEST_TEXT (each of 99,999 "a"s made 99,999 long)."""
    if not (isinstance(text, str) and isinstance(old, str) and isinstance(new, str)) or len(new) <= len(old):
        return
    times = text.count(old) if old else len(text) + 1
    if isinstance(count, int) and count >= 0:
        times = min(times, count)
    if len(text) + times * (len(new) - len(old)) > LONGEST_TEXT:
        from jinja2.sandbox import SecurityError

        raise SecurityError(f"a replace making {len(text) + times * (len(new) - len(old)):,} characters is "
                            f"too long (at most {LONGEST_TEXT:,})")


@functools.cache
def refused() -> type[Exception]:
    """The sandbox's SecurityError that says how to fix what it refuses (``fix``); a class made when
    Jinja2 is first needed, not at import."""
    from jinja2.sandbox import SecurityError

    class Refused(SecurityError):
        def __init__(self, message: str, fix: str) -> None:
            super().__init__(message)
            self.fix = fix

    return Refused

NAMESPACE_FIX = ("work the value out in one expression ({% set total = cards|sum(attribute='count') %}): a rule "
                 "text or layout may not change what it has made")


def _strict_namespace() -> type:
    """``namespace()`` whose attributes are read only: ``{% set ns.total = ns.total + 1 %}`` in a loop is
    how a template keeps state, and the sandbox lets no template change anything once made."""
    from jinja2.utils import Namespace

    class ReadOnlyNamespace(Namespace):
        def __setitem__(self, name: str, value: Any) -> None:
            raise refused()(f"setting .{name} of a namespace() is not allowed: a namespace cannot be changed once "
                            "made", NAMESPACE_FIX)

    return ReadOnlyNamespace


def _looked_up_by_a_filter(value: Any) -> Any:
    """An Undefined that a filter's attribute lookup (``map(attribute="nosuch")``) got, as a placeholder
    that printed it would have it: a strict one raises, with what is missing and what was likely meant;
    a rule text's notes it, with its line, and gives "?"; a reach for internals stays a refusal."""
    from jinja2 import UndefinedError
    from jinja2.sandbox import SecurityError

    try:
        return str(value)
    except SecurityError:
        raise
    except UndefinedError:
        name, holder = getattr(value, "_undefined_name", None), getattr(value, "_undefined_obj", None)
        if not isinstance(name, str):
            raise
        raise UndefinedError(_no_such_field(holder, name)) from None


def _no_such_field(holder: Any, name: str) -> str:
    """What a filter's lookup missed, in the words of :func:`missing_field_message`, with the names of
    the template it ran in (its render function holds them)."""
    from jinja2.runtime import Context

    context: Mapping[str, Any] = {}
    frame = sys._getframe(1)
    while frame is not None:
        found = frame.f_locals.get("context")
        if isinstance(found, Context):
            context = found.get_all()
            break
        frame = frame.f_back
    return missing_field_message(holder, name, context)


def missing_field_message(holder: Any, name: Any, context: Mapping[str, Any]) -> str:
    """"card has no field 'nme' (did you mean 'name'?)": what lacks ``name``, and what was likely meant.
    An object no name of ``context`` holds (an item of a list a filter went through) is "an item", not
    "unknown name", which would send the writer looking for a name that is there."""
    from jinja2.utils import missing

    from pnp.compose.bind import NamedView, describe_missing  # the words every unknown field is told in

    message = describe_missing(holder, name, context)
    if holder is None or holder is missing or not isinstance(name, str) or not message.startswith("unknown name"):
        return message
    if isinstance(holder, Mapping):
        return describe_missing(NamedView("an item", holder), name, context)
    return f"{str(holder)[:30]!r} has no field {name!r}"


@functools.cache
def _attribute_getters() -> frozenset[Any]:
    """The code of the functions Jinja2's filters look attributes up with (map, sort, selectattr...)."""
    from jinja2 import filters

    return frozenset({filters.make_attrgetter(None, "a").__code__,  # type: ignore[arg-type]
                      filters.make_multi_attrgetter(None, "a").__code__})  # type: ignore[arg-type]


def make_environment() -> SandboxedEnvironment:
    """Jinja2's sandbox: a layout or rule text from someone else cannot run code, nor fill the memory
    (``{{ "a" * 10**9 }}`` would build a gigabyte string; Jinja2's own sandbox lets it)."""
    from jinja2 import StrictUndefined

    from pnp.compose.upside_down import ambiguous_upside_down

    environment = _bounded_sandbox()(undefined=StrictUndefined, autoescape=False, keep_trailing_newline=False)
    environment.tests["ambiguous_upside_down"] = ambiguous_upside_down
    return environment


@functools.cache
def _bounded_sandbox() -> type[SandboxedEnvironment]:
    """The sandbox class, made once, when a layout or rule text first needs Jinja2 (not at import)."""
    from jinja2 import Undefined
    from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError

    def too_wide(width: object) -> None:
        if isinstance(width, int) and width > LONGEST_REPEAT:
            raise SecurityError(f"a width of {width:,} is too wide (at most {LONGEST_REPEAT:,})")

    def bounded_replace(function):  # noqa: ANN001, ANN202 - Jinja2's replace filter
        def checked(eval_context, text, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
            _check_replace(text, *args, **kwargs)
            return function(eval_context, text, *args, **kwargs)
        return functools.wraps(function)(checked)

    def bounded_filter(name: str, function):  # noqa: ANN001, ANN202 - any filter
        def checked(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            if name == "format":  # the values are the text's; the spec's widths count
                _check_format_widths(args[0] if args else None, too_wide)
            else:
                for value in (*args[1:], *kwargs.values()):
                    too_wide(value)
            return function(*args, **kwargs)
        return functools.wraps(function)(checked)

    def strict_attr(function):  # noqa: ANN001, ANN202 - Jinja2's attr filter
        def checked(environment, obj, name):  # noqa: ANN001, ANN202
            found = function(environment, obj, name)
            if not isinstance(found, Undefined):
                return found
            if isinstance(obj, Mapping) and name in obj:  # attr() reads attributes, never a mapping's keys
                from jinja2 import UndefinedError

                raise UndefinedError(f"attr({name!r}) reads an attribute, and {name!r} is a field: write "
                                     f"map(attribute={name!r}), or .{name} on one item")
            return _looked_up_by_a_filter(found)
        return functools.wraps(function)(checked)

    class BoundedSandbox(ImmutableSandboxedEnvironment):
        intercepted_binops = frozenset({"*", "**", "%"})

        def __init__(self, *args, **kwargs) -> None:  # noqa: ANN002, ANN003
            super().__init__(*args, **kwargs)
            # filters that pad to a width: "x"|center(10**9) is a gigabyte too
            for name in ("center", "indent", "format"):
                self.filters[name] = bounded_filter(name, self.filters[name])
            self.filters["replace"] = bounded_replace(self.filters["replace"])
            self.filters["attr"] = strict_attr(self.filters["attr"])
            self.globals["namespace"] = _strict_namespace()
            # lipsum(10**9) writes placeholder Latin for ever; no rule text or card needs it
            self.globals.pop("lipsum", None)

        def getitem(self, obj, argument):  # noqa: ANN001, ANN201 - Jinja2's signature
            found = super().getitem(obj, argument)
            # map(attribute="x", default="y") asks for the default; otherwise a filter's miss is an unknown name
            if isinstance(found, Undefined) and sys._getframe(1).f_code in _attribute_getters() \
                    and sys._getframe(1).f_locals.get("default") is None:
                return _looked_up_by_a_filter(found)
            return found

        def call(__self, __context, __obj, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN201, N805
            # "x".ljust(10**9), "{:>1000000000}".format(1): str methods that pad to a width (Jinja2 hands
            # str.format over wrapped, to format it in the sandbox)
            method = getattr(__obj, "__wrapped__", __obj)
            if getattr(method, "__self__", None).__class__ is str:
                name = getattr(method, "__name__", "")
                if name in PADDING_METHODS:
                    for value in (*args, *kwargs.values()):
                        too_wide(value)
                elif name == "replace":
                    _check_replace(method.__self__, *args, **kwargs)
                elif name in ("format", "format_map"):  # the values are the text's; the spec's widths count
                    _check_format_widths(method.__self__, too_wide)
            return super().call(__context, __obj, *args, **kwargs)

        def call_binop(self, context, operator, left, right):  # noqa: ANN001, ANN201 - Jinja2's signature
            if operator == "%":
                if isinstance(left, str):
                    _check_format_widths(left, too_wide)
            elif operator == "*":
                for sequence, times in ((left, right), (right, left)):
                    if isinstance(sequence, str | list | tuple) and isinstance(times, int) \
                            and len(sequence) * times > LONGEST_REPEAT:
                        raise SecurityError(f"a repeat of {len(sequence) * times:,} items is too long "
                                            f"(at most {LONGEST_REPEAT:,})")
            elif isinstance(right, int | float) and abs(right) > LARGEST_EXPONENT:
                raise SecurityError(f"an exponent of {right:,} is too large (at most {LARGEST_EXPONENT:,})")
            return super().call_binop(context, operator, left, right)

    return BoundedSandbox


#: the longest text one template may print, and one replace may make
LONGEST_TEXT = 1_000_000
#: how long one rule text or one card's layout may take to evaluate
RENDER_SECONDS = 10.0


def bounded_render(template: Template, context: Mapping[str, Any]) -> str:
    """``template.render(**context)``, stopped once the text grows past LONGEST_TEXT characters (a loop
    printing a long text 99,999 times would otherwise fill the memory before the clock runs out)."""
    from jinja2.sandbox import SecurityError

    parts: list[str] = []
    size = 0
    generator = template.generate(**context)
    for part in generator:
        size += len(part)
        if size > LONGEST_TEXT:
            # raised where the template is (Jinja2 then names its line), not out here
            generator.throw(SecurityError(f"the text grows past {LONGEST_TEXT:,} characters"))
        parts.append(part)
    return "".join(parts)


class Clock:
    """The running time of what :func:`time_limit` guards: ``start`` (again) and ``stop`` it, or run it
    for a ``with`` block."""

    def __init__(self, seconds: float, armed: bool) -> None:
        self.seconds = seconds
        self.armed = armed  # False: no timer signal here (not POSIX, or not the main thread)

    def start(self) -> None:
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, self.seconds)

    def stop(self) -> None:
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)

    def __enter__(self) -> Clock:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()


@contextmanager
def time_limit(seconds: float | None = None, running: bool = True) -> Iterator[Clock]:
    """Stop what runs inside, once its clock has run ``seconds`` (RENDER_SECONDS), with the sandbox's
    SecurityError. ``running=False``: the clock starts when told, so each card of a deck can have its
    own time and the work between (reading pictures) none.

    A timer signal, so only on POSIX and in the main thread (where pnp evaluates templates, also in
    build workers); elsewhere nothing is limited. Starting the clock is one system call: cheap enough
    for every card of a 5,000-card deck, where installing the handler each time would not be.
    """
    limit = RENDER_SECONDS if seconds is None else seconds
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield Clock(limit, armed=False)
        return

    def expired(_signum: int, _frame: object) -> None:
        # Jinja2 is imported by the first template that runs, not here: a deck of plain fields never
        # needs it, and importing it for its exception class cost every build 11 ms. With no template
        # run yet, what ran too long is pnp's own code, a bug that keeps its traceback.
        sandbox = sys.modules.get("jinja2.sandbox")
        if sandbox is None:
            raise TimeoutError(f"pnp ran for longer than {limit:g} s with no template running")
        raise sandbox.SecurityError(f"it took longer than {limit:g} s to work out (a loop that runs too long?)")

    clock = Clock(limit, armed=True)
    previous = signal.signal(signal.SIGALRM, expired)
    if running:
        clock.start()
    try:
        yield clock
    finally:
        clock.stop()
        signal.signal(signal.SIGALRM, previous)


_OWN_CODE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the pnp package


def template_fault(exc: BaseException) -> bool:
    """Whether an exception came from the template (its code, Jinja2, the library calls it made), not
    from pnp's own code: where the innermost frame is. A recursive macro's RecursionError, Jinja2's
    AssertionError for ``truncate(-1)``, the NameError of ``("inf"|float)|int`` (Jinja2 folds the
    constant into code it cannot run) are the template's; a KeyError in pnp's helpers is a bug."""
    tb = exc.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    return not os.path.abspath(tb.tb_frame.f_code.co_filename).startswith(_OWN_CODE + os.sep)
