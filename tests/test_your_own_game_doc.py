"""docs/your-own-game.md is run as written: its files are written, its commands run, its output checked.

Fenced blocks of the guide, in order:

- ```` ```lang file=PATH ```` writes PATH (relative to the working folder) with the block's text;
- ```` ```lang append=PATH ```` adds the block's text to PATH;
- ```` ```diff file=PATH ```` replaces the ``-`` lines with the ``+`` lines in PATH;
- ```` ```sh ```` holds ``$ command`` lines, each followed by lines its output must contain (``…`` stands
  for any text within the line). ``pnp`` commands run through the CLI and must exit 0; ``rm`` removes.

The game folder is in a temporary folder outside the repository, and only the CLI is used.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from pnp.cli import cli

DOC = Path(__file__).resolve().parents[1] / "docs" / "your-own-game.md"
FENCE = re.compile(r"^(```+)(\w+)([^\n]*)\n(.*?)^\1$", re.MULTILINE | re.DOTALL)  # ```` holds ``` blocks


def steps() -> list[tuple[str, str, str]]:
    return [(lang, info.strip(), body) for _, lang, info, body in FENCE.findall(DOC.read_text(encoding="utf-8"))]


def expected(line: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in line.strip().split("…")))


def run_shell(block: str, cwd: Path) -> list[str]:
    ran = []
    command: str | None = None
    wanted: list[str] = []

    def finish() -> None:
        if command is None:
            return
        words = shlex.split(command)
        if words[0] == "rm":
            (cwd / words[1]).unlink()
            ran.append(command)
            return
        assert words[0] == "pnp", command
        result = CliRunner().invoke(cli, words[1:])
        assert "Traceback" not in result.output, result.output
        untrusted = "rules.py is code in the game folder" in "".join(wanted)
        assert result.exit_code == (1 if untrusted else 0), f"$ {command}\n{result.output}"
        for line in wanted:
            assert expected(line).search(result.output), f"$ {command}: no {line!r} in\n{result.output}"
        ran.append(command)

    for line in block.splitlines():
        if line.startswith("$ "):
            finish()
            command, wanted = line[2:], []
        elif line.strip():
            wanted.append(line)
    finish()
    return ran


def pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def test_the_guide_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    commands = []
    for lang, info, body in steps():
        target = re.fullmatch(r"(file|append)=(\S+)", info)
        if lang == "sh":
            commands += run_shell(body, tmp_path)
        elif lang == "diff":
            assert target is not None, info
            path = tmp_path / target.group(2)
            old = "".join(line[1:] + "\n" for line in body.splitlines() if line.startswith("-"))
            new = "".join(line[1:] + "\n" for line in body.splitlines() if line.startswith("+"))
            text = path.read_text(encoding="utf-8")
            assert text.count(old) == 1, (path, old)
            path.write_text(text.replace(old, new), encoding="utf-8")
        elif target is not None:
            path = tmp_path / target.group(2)
            path.parent.mkdir(parents=True, exist_ok=True)
            if target.group(1) == "append":
                body = path.read_text(encoding="utf-8") + body
            path.write_text(body, encoding="utf-8")
    assert [command.split()[:2] for command in commands][:2] == [["pnp", "new"], ["rm", "data/harvest/cards/deck.csv"]]
    assert {"pnp check harvest", "pnp trust harvest", "pnp build harvest --paper a4"} <= set(commands)
    # what the guide says the outputs hold
    out = tmp_path / "output" / "harvest"
    for lang in ("ja", "en"):
        for name in ("cards-crops.pdf", "cards-festivals.pdf", "cards-coins.pdf", "rules.pdf", "aid.pdf"):
            assert (out / lang / "a4" / name).is_file(), (lang, name)
    rules = pdf_text(out / "ja" / "a4" / "rules.pdf")
    assert re.search(r"かぼちゃ：3点", rules) and "6点です" in rules  # points from the CSV, the example's total
    aid = pdf_text(out / "en" / "a4" / "aid.pdf")
    assert re.search(r"Crops by colour.*Festival points.*Setup", aid, re.DOTALL), aid
    assert re.search(r"gold\s+24\s+60", aid), aid  # 12 pumpkins × 3 + 12 wheat × 2
