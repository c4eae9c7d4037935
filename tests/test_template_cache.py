"""Compiled rule texts are kept in the user cache: the same text is not compiled twice, an edit is."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.render import ruletext
from pnp.render.ruletext import make_rule_environment, render_template


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(ruletext, "_COMPILED", {})
    return tmp_path / "cache" / "templates"


def count_compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    compiled: list[str] = []
    real = type(make_rule_environment()).compile

    def counting(self, source, *args, **kwargs):
        compiled.append(source)
        return real(self, source, *args, **kwargs)

    monkeypatch.setattr(type(make_rule_environment()), "compile", counting)
    return compiled


def test_a_rule_text_is_compiled_once_across_processes(own_cache, tmp_path, monkeypatch):
    path = tmp_path / "en.md"
    compiled = count_compiles(monkeypatch)
    assert render_template("{{ n }} players", path, {"n": 4}) == "4 players"
    monkeypatch.setattr(ruletext, "_COMPILED", {})  # a new process: only the disk remembers
    assert render_template("{{ n }} players", path, {"n": 5}) == "5 players"
    assert len(compiled) == 1 and len(list(own_cache.glob("*.code"))) == 1
    assert render_template("{{ n }} player(s)", path, {"n": 5}) == "5 player(s)"  # an edit compiles again
    assert len(compiled) == 2


def test_a_damaged_cache_file_is_compiled_again(own_cache, tmp_path, monkeypatch):
    path = tmp_path / "en.md"
    render_template("{{ n }} players", path, {"n": 4})
    (stored,) = own_cache.glob("*.code")
    stored.write_bytes(b"\x00not marshal")
    monkeypatch.setattr(ruletext, "_COMPILED", {})
    assert render_template("{{ n }} players", path, {"n": 6}) == "6 players"


def test_errors_still_name_the_line(own_cache, tmp_path, monkeypatch):
    path = tmp_path / "en.md"
    source = "line one\n{{ missing_name }}\n"
    for _ in range(2):  # compiled, then loaded from the cache
        monkeypatch.setattr(ruletext, "_COMPILED", {})
        with pytest.raises(ruletext.RuleTextError) as caught:
            render_template(source, path, {"n": 1})
        assert caught.value.diagnostic.line == 2


def test_the_cache_keeps_to_its_size(own_cache, tmp_path, monkeypatch):
    monkeypatch.setattr(ruletext, "KEPT_TEMPLATES", 4)
    for n in range(9):
        render_template(f"{{{{ n }}}} players {n}", tmp_path / "en.md", {"n": 1})
    assert len(list(own_cache.glob("*.code"))) <= 4
