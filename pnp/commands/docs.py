"""`pnp docs [TOPIC]`: pnp's guides, read from wherever this pnp is installed.

A wheel has no checkout's docs/ folder and no README: "see docs/rulebooks.md" sent its user looking for a
file they do not have. The guides ship in the wheel as the data package ``pnp_docs`` (pyproject.toml),
so pnp's messages and the files `pnp new` writes name a topic of this command instead (``pnp docs
rulebooks``), which reaches the guide on every install, and which stays right in a game folder that is
shared with someone whose pnp lives elsewhere, as an absolute path would not.
"""

from __future__ import annotations

import sys
from importlib.resources.abc import Traversable
from pathlib import Path

import click

from pnp.commands.console import echo
from pnp.model.fields import closest
from pnp.resources import docs_root

#: topics pnp's own guides only mention (how pnp is built and measured): listed last
FOR_CONTRIBUTORS = ("architecture", "benchmarks")


def guides() -> dict[str, Traversable]:
    """Each installed guide by its topic, the file's name without ``.md``: for users first, then for
    contributors, each group in alphabetical order."""
    found = {entry.name.removesuffix(".md"): entry for entry in docs_root().iterdir()
             if entry.name.endswith(".md") and entry.is_file()}
    return dict(sorted(found.items(), key=lambda item: (item[0] in FOR_CONTRIBUTORS, item[0])))


def topic_of(name: str) -> str:
    """The topic a user means: ``rulebooks``, or the link they copied from the README or a guide
    (``docs/rulebooks.md``, ``rulebooks.md``, ``rulebooks.md#placeholders``)."""
    return Path(name.partition("#")[0]).name.removesuffix(".md")


def cite(topic: str) -> str:
    """How a message names a guide: the command that shows it on any install."""
    return f"pnp docs {topic}"


def title(guide: Traversable) -> str:
    """The guide's first heading, for the list of topics."""
    for line in guide.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return ""


def run_docs(topic: str | None, path_only: bool) -> int:
    """List the guides, or print one (its file's path with ``path_only``). An unknown topic is a usage
    error (exit 2), with the closest topic and the list."""
    found = guides()
    if topic is None:
        if path_only:
            click.echo(Path(str(docs_root())).resolve())
            return 0
        click.echo(f"pnp's guides ({cite('TOPIC')} prints one, {cite('--path TOPIC')} gives its file):")
        width = max(len(name) for name in found)
        for name, guide in found.items():
            click.echo(f"  {name:<{width}}  {title(guide)}")
        return 0
    guide = found.get(topic_of(topic))
    if guide is None:
        guess = closest(topic_of(topic), found)
        hint = f" (did you mean {guess!r}?)" if guess else ""
        echo(f"error: no guide {topic!r}{hint}", err=True)
        echo(f"    fix: one of {', '.join(found)} ('pnp docs' lists them)", err=True, error=True)
        return 2
    if path_only:
        click.echo(Path(str(guide)).resolve())
        return 0
    text = guide.read_text(encoding="utf-8")
    if sys.stdout.isatty():
        click.echo_via_pager(text)  # a guide is pages long: on a terminal, read it as `git help` does
    else:
        click.echo(text, nl=False)
    return 0
