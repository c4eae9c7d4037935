"""The stages import only downward: a module never reaches back up the pipeline (docs/architecture.md).

Read from the code's own import statements (those under ``if TYPE_CHECKING:`` are types only and
run nothing), so a new upward import fails here with the file that makes it.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "pnp"

#: top first: each room may import those after it, never those before
ROOMS = ["__main__", "cli", "commands", "write", "validate", "render.rulebook", "render.cards", "render.sheets",
         "render.text", "render.pdf", "render", "compose", "rules.games", "api", "rules", "model", "load", "files",
         "diagnostics",
         "resources", "pnp"]


def room(module: str) -> str:
    parts = module.split(".")[1:]
    if len(parts) >= 2 and parts[0] == "render" and f"render.{parts[1]}" in ROOMS:
        return f"render.{parts[1]}"
    if len(parts) >= 2 and parts[0] == "rules" and (PACKAGE / "rules" / parts[1]).is_dir():
        return "rules.games"  # the shipped games' rules packages, written against pnp.api as any game's are
    return parts[0] if parts else "pnp"


def module_name(path: Path) -> str:
    name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return name.removesuffix(".__init__")


def run_time_imports(tree: ast.AST) -> list[str]:
    types_only = {id(node) for branch in ast.walk(tree)
                  if isinstance(branch, ast.If) and "TYPE_CHECKING" in ast.unparse(branch.test)
                  for node in ast.walk(branch)}
    found = []
    for node in ast.walk(tree):
        if id(node) in types_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pnp."):
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name.startswith("pnp.")]
    return found


def upward_imports() -> list[str]:
    rank = {name: index for index, name in enumerate(ROOMS)}
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = room(module_name(path))
        for target in run_time_imports(ast.parse(path.read_text(encoding="utf-8"))):
            imported = room(target)
            if imported != source and rank[imported] < rank[source]:
                found.append(f"{path.relative_to(PACKAGE.parent)} ({source}) imports {target} ({imported})")
    return found


def test_every_module_is_in_a_room() -> None:
    rooms = {room(module_name(path)) for path in PACKAGE.rglob("*.py")}
    assert rooms <= set(ROOMS), f"add these to ROOMS and docs/architecture.md: {sorted(rooms - set(ROOMS))}"


def test_no_stage_imports_one_above_it() -> None:
    assert upward_imports() == []


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    """The checker itself: model importing render is found."""
    tree = ast.parse("from pnp.render.cards.deck import bind_game\n")
    target = run_time_imports(tree)[0]
    assert ROOMS.index(room(target)) < ROOMS.index(room("pnp.model.game"))


def test_the_readme_names_every_package_and_no_other() -> None:
    """The README's picture of the code is the tree: a package added, moved or removed shows here."""
    readme = (PACKAGE.parent / "README.md").read_text(encoding="utf-8")
    picture = readme.split("## The code", 1)[1].split("```", 2)[1]
    named, parent = set(), ""
    for line in picture.splitlines():
        word = line.strip().split(" ", 1)[0]
        if not word.endswith("/") or word == "pnp/":
            continue
        depth = (len(line) - len(line.lstrip())) // 2
        parent = word if depth == 1 else parent
        named.add(word.rstrip("/") if depth == 1 else f"{parent}{word}".rstrip("/"))
    folders = {path.parent.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("__init__.py")}
    packages = {folder for folder in folders if folder != "." and not folder.startswith("rules/")}  # not each game
    assert named == packages
