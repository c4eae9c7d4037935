"""Rule texts, step one: ``rules/<lang>.md`` rendered in Jinja2's sandbox.

Placeholders read the names of :mod:`pnp.compose.rule_names` (``{{ setup[4].hand }}``). An unknown
name prints "?" and is reported with its line (so one run names them all); any other failure is a
:class:`RuleTextError` at its line, and a bug in pnp's own helpers keeps its traceback. What can be
read off the source without Jinja2 (example fences, unclosed blocks, comments) is in
:mod:`pnp.compose.rule_source`.
"""

from __future__ import annotations

import re
import sys
import traceback
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType
from typing import Any

from jinja2 import ChainableUndefined, TemplateError, TemplateSyntaxError, UndefinedError
from jinja2.sandbox import SandboxedEnvironment, SecurityError

from pnp.compose.rule_names import UnknownResult
from pnp.compose.rule_source import (
    INNERMOST_BLOCK,
    SYNTAX_FIX,
    bind_example_results,
    example_lines,
    full_width_marks,
    jinja_comments,
    syntax_problem,
    unclosed_block_line,
)
from pnp.compose.sandbox import bounded_render, make_environment, missing_field_message, template_fault, time_limit
from pnp.diagnostics import DataError, Diagnostic, Level


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
    if isinstance(getattr(undefined, "_undefined_name", None), UnknownResult):
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
        message = missing_field_message(holder, name, rendering.context)
    else:
        message = undefined._undefined_message
    rendering.unknown.setdefault((line, message), None)


def make_rule_environment() -> SandboxedEnvironment:
    """The card layouts' sandbox, with Jinja comments moved out of the way of ``{#id}``; an unknown name
    is noted and printed as "?" (:class:`_RecordedUndefined`), so one run reports them all."""
    env = make_environment().overlay(comment_start_string="{##", comment_end_string="##}")
    env.undefined = _RecordedUndefined
    return env



class RuleTextError(DataError):
    """The rule text cannot be rendered: a template error, with file and line. ``more``: the other
    problems the same run found (past a syntax error, the placeholders checked one by one)."""

    def __init__(self, message: str, file: Path | None = None, line: int | None = None, fix: str | None = None,
                 more: Sequence[Diagnostic] = ()) -> None:
        super().__init__(message, file, line, fix)
        self.more = list(more)



def render_template(source: str, path: Path, context: Mapping[str, Any]) -> tuple[str, list[Diagnostic]]:
    """Render in the sandbox: the text, and an error per unknown name it printed (each as "?").

    Any other failure becomes a :class:`RuleTextError` naming the line.
    """
    env = make_rule_environment()
    prepared = bind_example_results(source)
    try:
        code = compiled_template(env, prepared, path)
    except TemplateSyntaxError as exc:
        message, fix = syntax_problem(exc.message or "")
        line = exc.lineno
        innermost = INNERMOST_BLOCK.search(exc.message or "")
        if innermost and "Unexpected end of template" in (exc.message or ""):
            # Jinja2 says so where the file ends, dozens of lines below the {% if %} left open
            opened = unclosed_block_line(source, innermost.group(1))
            if opened is not None:
                line, message = opened, f"this {{% {innermost.group(1)} %}} is never closed"
                fix = f"close it with {{% end{innermost.group(1)} %}} where it should end"
        raise RuleTextError(message, path, line, fix,
                            _placeholders_one_by_one(env, source, path, context, line)) from None
    fix = _names_fix(context)
    template = env.template_class.from_code(env, code, env.make_globals(None))
    rendering = _Rendering(str(path), template, context)
    try:
        token = _RENDERING.set(rendering)
        try:
            with time_limit():
                rendered = bounded_render(template, context)
        finally:
            _RENDERING.reset(token)
    except SecurityError as exc:
        internals = "unsafe" in str(exc) or "safely" in str(exc)  # Jinja2's words; the rest are pnp's bounds
        raise RuleTextError(f"refused by the sandbox: {exc}", path, _template_line(exc, path),
                            getattr(exc, "fix", None)
                            or ("a rule text may read the names listed in pnp docs rulebooks, never Python internals"
                                if internals else "make the loop, repeat or width smaller: a rule text prints a "
                                "rulebook, not megabytes")) from None
    except UndefinedError as exc:
        raise RuleTextError(f"unknown name in a placeholder: {exc.message}", path, _template_line(exc, path),
                            fix) from None
    except Exception as exc:
        if not _text_fault(exc):
            raise  # a bug in pnp's own helpers keeps its traceback
        if rendering.unknown:  # sum(attribute="nosuch") adds up the "?" it got: the unknown name is the cause
            (line, message), *others = rendering.unknown
            raise RuleTextError(f"unknown name in a placeholder: {message}", path, line, fix, [
                Diagnostic(Level.ERROR, f"unknown name in a placeholder: {text}", path, at, fix)
                for at, text in others]) from None
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
    examples = example_lines(source)
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



def compiled_template(env: SandboxedEnvironment, source: str, path: Path) -> CodeType:
    """Jinja2's compiled code for a rule text, kept for the rest of this process.

    Not on disk: a marshal file in the user cache saved nothing measurable of a full build, cold or warm
    (docs/benchmarks.md), and code loaded from a file runs whatever the file holds.
    In the process, the same text is compiled once for its rulebook, its booklet and its check.
    """
    key = (str(path), env.comment_start_string, env.comment_end_string,
           " ".join(sorted(env.intercepted_binops)), source)  # the bounded operators are compiled in
    code = _COMPILED.get(key)
    if code is None:
        code = _COMPILED[key] = env.compile(source, name=path.name, filename=str(path))
    return code


_COMPILED: dict[tuple[str, ...], CodeType] = {}


def _template_line(exc: BaseException, path: Path) -> int | None:
    """Jinja rewrites tracebacks so the template's own frame carries the template line."""
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == str(path):
            line = frame.lineno
    return line


