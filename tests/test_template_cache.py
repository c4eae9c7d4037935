"""Compiled rule texts are kept for the process, never on disk: the same text is not compiled twice in
one run, an edit is, and nothing a later run loads as code is left in the user cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.compose import template as rule_template
from pnp.compose.template import make_rule_environment, render_template


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(rule_template, "_COMPILED", {})
    return tmp_path / "cache" / "templates"


def count_compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    compiled: list[str] = []
    real = type(make_rule_environment()).compile

    def counting(self, source, *args, **kwargs):
        compiled.append(source)
        return real(self, source, *args, **kwargs)

    monkeypatch.setattr(type(make_rule_environment()), "compile", counting)
    return compiled


def test_a_rule_text_is_compiled_once_in_a_process(own_cache, tmp_path, monkeypatch):
    path = tmp_path / "en.md"
    compiled = count_compiles(monkeypatch)
    assert render_template("{{ n }} players", path, {"n": 4}) == ("4 players", [])
    assert render_template("{{ n }} players", path, {"n": 5}) == ("5 players", [])
    assert len(compiled) == 1
    assert render_template("{{ n }} player(s)", path, {"n": 5}) == ("5 player(s)", [])  # an edit compiles again
    assert len(compiled) == 2
    assert render_template("{{ n }} players", tmp_path / "ja.md", {"n": 5}) == ("5 players", [])  # another file
    assert len(compiled) == 3


def test_no_compiled_code_is_left_in_the_user_cache(own_cache, tmp_path):
    """Code loaded from a cache file runs whatever the file holds: a planted or damaged one must never run."""
    render_template("{{ n }} players", tmp_path / "en.md", {"n": 4})
    cache = own_cache.parent
    assert not cache.exists() or not [path for path in cache.rglob("*") if path.is_file()]


def test_errors_still_name_the_line(own_cache, tmp_path, monkeypatch):
    path = tmp_path / "en.md"
    source = "line one\n{{ missing_name }}\n{{ n + other }}\n"
    for _ in range(2):  # compiled, then taken from the process's memo
        text, [problem] = render_template(source.split("{{ n +")[0], path, {"n": 1})  # printed: noted, "?"
        assert text == "line one\n?" and problem.line == 2 and "missing_name" in problem.message
        with pytest.raises(rule_template.RuleTextError) as caught:  # computed with: fails at once, as before
            render_template(source, path, {"n": 1})
        assert caught.value.diagnostic.line == 3


def test_a_constant_with_an_unknown_attribute_is_not_folded_into_the_compiled_text(own_cache, tmp_path,
                                                                                   monkeypatch):
    """Jinja2 folds constant expressions while compiling: an unknown name there must not become a "?"
    that no render notes (the cached code is reused by every later process)."""
    path = tmp_path / "en.md"
    for _ in range(2):  # compiled, then loaded from the cache
        monkeypatch.setattr(rule_template, "_COMPILED", {})
        text, problems = render_template("Shuffle {{ 'deck'.nosuch }} cards", path, {})
        assert text == "Shuffle ? cards" and len(problems) == 1 and problems[0].line == 1


def test_a_reach_for_internals_is_still_refused_at_once(own_cache, tmp_path):
    with pytest.raises(rule_template.RuleTextError) as caught:
        render_template("Shuffle {{ ''.__class__.__mro__ }} cards", tmp_path / "en.md", {})
    assert "refused by the sandbox" in str(caught.value)


def test_code_compiled_before_an_operator_was_bounded_is_not_reused(own_cache, tmp_path, monkeypatch):
    """Which operators go through the sandbox's bounds is compiled into the code: a text compiled when
    % was not one of them is compiled again once it is, or '%999999999d' would get through."""
    path = tmp_path / "en.md"
    sandbox = type(make_rule_environment())
    bounded = sandbox.intercepted_binops
    assert "%" in bounded
    monkeypatch.setattr(sandbox, "intercepted_binops", frozenset({"*", "**"}))
    assert render_template("{{ '%3d' % n }}", path, {"n": 7}) == ("  7", [])
    monkeypatch.setattr(sandbox, "intercepted_binops", bounded)
    compiled = count_compiles(monkeypatch)
    assert render_template("{{ '%3d' % n }}", path, {"n": 7}) == ("  7", [])
    assert len(compiled) == 1
    with pytest.raises(rule_template.RuleTextError, match="too wide"):
        render_template("{{ '%999999999d' % n }}", path, {"n": 7})
