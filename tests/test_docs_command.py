"""`pnp docs`: the guides reach a user of the wheel, and pnp's messages cite them by a topic that exists.

A wheel has no checkout's README or docs/ folder: messages said "see docs/rulebooks.md", and the
README alone held the full list of game.toml keys (issue 28). The guides ship as pnp_docs; `pnp docs
TOPIC` prints one, and every message names a guide that way. That the installed wheel has them is
tests/test_wheel.py's to show.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from click.testing import CliRunner

from pnp.cli import cli

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
CITED = re.compile(r"pnp docs ([a-z][a-z0-9-]*)")
#: what only a checkout has: a guide's path in the repository, the README, the templates folder
CHECKOUT_ONLY = re.compile(r"docs/[a-z-]+\.md|README|templates/icons")


def invoke(*args: str):
    return CliRunner().invoke(cli, ["docs", *args])


def test_docs_lists_every_guide_with_its_title() -> None:
    result = invoke()
    assert result.exit_code == 0, result.output
    for guide in DOCS.glob("*.md"):
        title = guide.read_text(encoding="utf-8").splitlines()[0].removeprefix("# ")
        assert re.search(rf"^  {re.escape(guide.stem)} +{re.escape(title)}$", result.output, re.MULTILINE), \
            (guide.stem, result.output)
    assert "game-toml" in result.output and "json-output" in result.output


def test_docs_prints_a_guide_as_it_is() -> None:
    result = invoke("game-toml")
    assert result.exit_code == 0
    assert result.output == (DOCS / "game-toml.md").read_text(encoding="utf-8")


def test_docs_takes_the_link_a_user_copied() -> None:
    assert invoke("docs/rulebooks.md").output == (DOCS / "rulebooks.md").read_text(encoding="utf-8")
    assert invoke("layouts.md#icon").output == (DOCS / "layouts.md").read_text(encoding="utf-8")


def test_docs_path_is_the_installed_file() -> None:
    result = invoke("--path", "rulebooks")
    assert result.exit_code == 0 and Path(result.output.strip()) == (DOCS / "rulebooks.md").resolve()
    assert Path(invoke("--path").output.strip()) == DOCS.resolve()


def test_an_unknown_topic_is_a_usage_error_with_a_guess() -> None:
    result = invoke("rulebook")
    assert result.exit_code == 2
    assert "error: no guide 'rulebook' (did you mean 'rulebooks'?)" in result.output
    assert "game-toml" in result.output  # the topics there are
    assert "Traceback" not in result.output


def _strings_said(path: Path) -> list[tuple[int, str]]:
    """The string constants of a module that are not docstrings: its messages, fixes and help texts."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def test_no_message_cites_what_only_a_checkout_has() -> None:
    said = [(f"{path.relative_to(ROOT)}:{line}", text) for path in sorted((ROOT / "pnp").rglob("*.py"))
            for line, text in _strings_said(path) if CHECKOUT_ONLY.search(text)]
    assert said == []
    starters = [(path.name, match.group()) for path in sorted((ROOT / "templates" / "new-game").iterdir())
                for match in CHECKOUT_ONLY.finditer(path.read_text(encoding="utf-8"))]
    assert starters == []


def test_every_guide_cited_is_installed() -> None:
    topics = {guide.stem for guide in DOCS.glob("*.md")}
    cited = {(f"{path.relative_to(ROOT)}", topic) for path in [*(ROOT / "pnp").rglob("*.py"),
                                                               *(ROOT / "templates" / "new-game").iterdir()]
             for topic in CITED.findall(path.read_text(encoding="utf-8"))}
    assert len(cited) >= 10  # the messages and the starters do cite guides
    assert {(where, topic) for where, topic in cited if topic not in topics} == set()


def test_pnp_new_names_its_guides_by_topic(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["new", "--data", str(tmp_path), "demo", "--rules", "--lang", "en", "--lang",
                                      "ja"])
    assert result.exit_code == 0, result.output
    assert "the guide from here to a printed deck: pnp docs your-own-game" in result.output
    manifest = (tmp_path / "demo" / "game.toml").read_text(encoding="utf-8")
    assert "`pnp docs your-own-game`" in manifest and "`pnp docs game-toml`" in manifest
    assert re.search(r"^#   bear, cat, circle, .*, heart,$", manifest, re.MULTILINE), manifest  # the icons, by name
    written = "".join(path.read_text(encoding="utf-8") for path in (tmp_path / "demo").rglob("*") if path.is_file())
    assert CHECKOUT_ONLY.search(written) is None and str(ROOT) not in written
