"""A rule text or layout cannot fill the memory or the clock, and what Jinja2 itself raises is the
template's error, not a traceback; a bug in pnp's own code still is one.

Found by putting hostile one-liners into Two Ops' rule text: `lipsum(10**9)` and two nested loops over
`range(99999)` never finished, `("a" * 99999)|replace("a", "a" * 99999)` was killed for its memory, and
a macro calling itself, `truncate(-1)` and `("inf"|float)|int` ended in tracebacks.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import pnp.compose.sandbox as sandbox
from pnp.cli import cli

NESTED_LOOPS = "{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}"


@pytest.fixture
def data(tmp_path: Path) -> Path:
    result = CliRunner().invoke(cli, ["new", "--data", str(tmp_path / "data"), "my-game"])
    assert result.exit_code == 0, result.output
    return tmp_path / "data"


def with_line(data: Path, line: str) -> int:
    """Put ``line`` into the English rule text, after its first heading; its line number."""
    path = data / "my-game" / "rules" / "en.md"
    lines = path.read_text(encoding="utf-8").split("\n")
    at = next(n for n, text in enumerate(lines) if text.startswith("## ")) + 2
    lines[at:at] = [line, ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    return at + 1


def check(data: Path) -> Result:
    result = CliRunner().invoke(cli, ["check", "--data", str(data), "my-game"])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return result


HOSTILE = {
    "lipsum": ("{{ lipsum(10**9) }}", "'lipsum' is undefined"),
    "replace": ('{{ ("a" * 99999)|replace("a", "a" * 99999) }}', "a replace making 9,999,800,001 characters"),
    "replace-method": ('{{ ("a" * 99999).replace("a", "a" * 99999) }}', "a replace making"),
    "printed": ('{% for i in range(99999) %}{{ "a" * 99999 }}{% endfor %}', "grows past 1,000,000 characters"),
    "recursion": ("{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}", "RecursionError"),
    "truncate": ('{{ "x"|truncate(-1) }}', "AssertionError"),
    "inf": ('{{ ("inf"|float)|int }}', "NameError"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_placeholder_is_an_error_at_its_line(data: Path, case: str) -> None:
    line, words = HOSTILE[case]
    number = with_line(data, line)
    result = check(data)
    assert result.exit_code == 1
    assert f"en.md:{number}: error: " in result.output and words in result.output, result.output


def test_a_rule_text_that_loops_too_long_is_stopped(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "RENDER_SECONDS", 0.5)
    number = with_line(data, NESTED_LOOPS)
    result = check(data)
    assert result.exit_code == 1
    assert f"en.md:{number}: error: refused by the sandbox: it took longer than 0.5 s" in result.output
    assert "make the loop, repeat or width smaller" in result.output


def test_a_layout_that_loops_too_long_is_stopped(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "RENDER_SECONDS", 0.5)
    manifest = data / "my-game" / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(
        "[components.deck]\n", '[components.deck]\nface = "my-face"\n', 1), encoding="utf-8")
    (data / "my-game" / "layouts").mkdir()
    (data / "my-game" / "layouts" / "my-face.toml").write_text(
        f'[[element]]\ntype = "text"\nx = 5\ny = 5\nw = 40\nh = 10\ntext = "{NESTED_LOOPS}{{{{ card.name }}}}"\n',
        encoding="utf-8")
    result = check(data)
    assert result.exit_code == 1
    assert "my-face.toml:7: error: " in result.output and "took longer than 0.5 s" in result.output, result.output


def test_the_timer_is_put_back(data: Path) -> None:
    """The limit borrows SIGALRM while a template runs; whoever had it gets it back."""
    import signal

    def mine(_signum: int, _frame: object) -> None:
        raise AssertionError("not called")

    signal.signal(signal.SIGALRM, mine)
    try:
        with_line(data, "{{ 1 + 1 }}")
        assert check(data).exit_code == 0
        assert signal.getsignal(signal.SIGALRM) is mine
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    finally:
        signal.signal(signal.SIGALRM, signal.SIG_DFL)


def test_a_bug_in_pnp_keeps_its_traceback(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Guard: only what the template and Jinja2 raise is the text's fault. A RuntimeError raised in
    pnp's own code behind {{ card(...) }} is a bug and must not be dressed up as the rule text's error."""
    import pnp.compose.rule_names as rule_names
    from pnp.render.pdf.pdf_images import write_spliced

    def broken(*_args: object) -> str:  # fails inside pnp's code, as a bug there would
        write_spliced(io.BytesIO(), b"", [(b"placeholder", None)])
        return ""

    monkeypatch.setattr(rule_names, "card_label", broken)
    with_line(data, '{{ card("red-1") }}')
    result = CliRunner().invoke(cli, ["check", "--data", str(data), "my-game"])
    assert isinstance(result.exception, RuntimeError), result.output
    assert "placeholder" in str(result.exception)
