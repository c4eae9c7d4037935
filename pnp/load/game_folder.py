"""Finding game folders and reading their files (stage 1: load).

Only file access and syntax live here; turning the parsed files into typed
objects is the model stage's job (pnp.model.build).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pnp.diagnostics import DataError, Report, clipped
from pnp.load.csv_table import CsvTable, read_csv
from pnp.load.guarded import not_a_file
from pnp.load.toml_lines import TomlDoc, load_toml

MANIFEST = "game.toml"
RULES_DATA = "rules.toml"
EXAMPLES = "examples.toml"
PLAYER_NAMES = "player_names"  # examples.toml: how each language writes the examples' players
LONGEST_GAME_ID = 64  # it names a folder of outputs: far below a file name's 255 bytes
#: \Z, not $: "$" also matches before a final newline, which would let "two-ops\n" through
GAME_ID = re.compile(rf"\A[a-z0-9][a-z0-9-]{{0,{LONGEST_GAME_ID - 1}}}\Z")


@dataclass
class GameFiles:
    """The parsed files of one game folder; any that failed are ``None``."""

    id: str
    path: Path
    manifest: TomlDoc | None = None
    rules_data: TomlDoc | None = None
    examples: TomlDoc | None = None
    csv: dict[Path, CsvTable] = field(default_factory=dict)


def data_dir(option: Path | None) -> Path:
    """Games live with the user: ``--data DIR`` or ``./data``; run from inside ``data/`` itself (it
    holds game folders, and no ``data/`` of its own), that folder."""
    if option is not None:
        return option
    here = Path.cwd()
    if not (here / "data").is_dir() and discover(here):
        return here
    return here / "data"


def game_argument(game_path: Path) -> str:
    """How to name this game on the command line from here, for the commands a hint suggests: its id
    where pnp finds it by id, else its path (a hint saying "pnp check two-ops" failed for a game
    checked with --data elsewhere: "no game 'two-ops' in ./data")."""
    try:
        if game_path.parent.resolve() == data_dir(None).resolve():
            return game_path.name
        relative = os.path.relpath(game_path)
        return str(game_path.resolve()) if relative.startswith("..") else relative
    except (OSError, ValueError):  # another drive (Windows), or a folder gone meanwhile
        return str(game_path)


def discover(data: Path) -> list[Path]:
    """Game folders under ``data``: every sub-folder holding a manifest."""
    if not os.path.isdir(data):  # os.path's, not pathlib's: a name too long is no folder, not an OSError
        return []
    return sorted(p for p in data.iterdir() if p.is_dir() and (p / MANIFEST).is_file())


def editor_litter(name: str) -> bool:
    """Files in a game folder that are no part of the game: hidden ones (a vim swap file
    ``.deck.csv.swp``, macOS's ``.DS_Store``, ``.git``), backups ending in ``~``, ``.bak`` or ``.orig``,
    Emacs's ``#deck.csv#`` and Vim's ``4913`` probe. They come and go
    while a designer edits; counted as inputs, each would make every output stale and wake
    ``pnp watch``."""
    return (name.startswith(".") or name.endswith("~") or name in EDITOR_PROBES
            or (name.startswith("#") and name.endswith("#")) or name.endswith(EDITOR_SUFFIXES))


#: Vim writes and deletes "4913" to test a folder; Emacs keeps "#deck.csv#" while editing
EDITOR_PROBES = frozenset({"4913"})
#: copies an editor, a merge or a patch leaves beside the file: never a game's input
EDITOR_SUFFIXES = (".bak", ".orig", ".rej", ".swp", ".swo")


def enclosing_game(start: Path) -> Path | None:
    """The game folder ``start`` is in (``start`` itself or the nearest folder above it holding a
    manifest), as git finds the repository a command runs in; None outside any game."""
    for folder in (start, *start.parents):
        if (folder / MANIFEST).is_file():
            return folder
    return None


def game_standing_in(data: Path, explicit_data: bool = False) -> Path | None:
    """The game folder pnp runs inside, when that is the game to work on: no ``--data`` was given and
    no games are where pnp looks (``data``), so the designer's own folder is the one they mean."""
    if explicit_data or discover(data):
        return None
    return enclosing_game(Path.cwd())


def default_output(explicit_data: bool = False) -> Path:
    """Where outputs go without ``--out``: the project's ``output/``, wherever in the project pnp runs.

    A project is the folder holding ``data/`` (the layout ``pnp new`` makes), so a build from
    ``data/``, from a game folder or from its ``cards/`` writes the same files a build from the top
    does, and finds them up to date. A game folder on its own, not under a ``data/``, is its own
    project. With ``--data``, or anywhere else, it is ``output/`` in the working folder.
    """
    here = Path.cwd()
    if explicit_data or (here / "data").is_dir():
        return Path("output")
    if data_dir(None) == here:  # inside the folder of games itself
        project = here.parent if here.name == "data" else here
    else:
        game = enclosing_game(here)
        if game is None:
            return Path("output")
        project = game.parent.parent if game.parent.name == "data" else game
    return Path(os.path.relpath(project / "output", here))


def outputs_among_inputs(out: Path, games: Sequence[Path]) -> Path | None:
    """The game folder whose files the outputs under ``out`` would land among, if any.

    Everything in a game folder is an input, except a folder pnp built into (is_output_folder). So
    ``--out data`` (outputs in data/<game>/) or ``--out data/<game>`` made each build's PDFs inputs
    of the next, and ``--out data/<game>/cards`` hid the card lists from the up-to-date check. A new
    or output folder inside a game (the default output/ of a game folder on its own, or cards/out)
    is fine: once built into, it is skipped whole.
    """
    target = out.resolve()
    for game in games:
        folder = game.resolve()
        if folder == target or folder.parent == target:
            return game  # the game folder itself, or the folder of games: outputs in <out>/<game id>/
        if folder in target.parents and target.is_dir() and not is_output_folder(target) and any(target.iterdir()):
            return game  # a folder of the game's own files: built into, it would count as outputs, unread
    return None


def is_output_folder(path: str | Path) -> bool:
    """A folder pnp built into (it keeps its stamps in ``.cache/stamps``): never a game's input, even
    when a designer builds from inside the game folder and the outputs land there."""
    return os.path.isdir(os.path.join(path, ".cache", "stamps"))


def resolve_games(data: Path, names: tuple[str, ...], report: Report, explicit_data: bool = False) -> list[Path]:
    """Map the user's game arguments to folders, reporting unknown ones.

    A name may be a game id under ``data`` or a path to a game folder, so a
    user can check a folder anywhere on disk. Run from inside a game folder
    with no ``data/`` there (and no ``--data``), pnp works on that game: it
    is the one the designer is editing.
    """
    games_here = discover(data)
    standing_in = None if games_here else game_standing_in(data, explicit_data)
    if not names:
        found = games_here or ([standing_in] if standing_in else [])
        if not found:
            report.error(f"no game folders found in {data}", data, None,
                         "run pnp from a folder that holds data/<game-id>/game.toml, pass --data DIR, "
                         "or start one with 'pnp new GAME-ID'")
        return found
    folders: list[Path] = []
    for name in dict.fromkeys(names):  # "two-ops two-ops" is one game, built once
        try:
            found = _named_game(data, name, standing_in, report)
        except OSError as exc:  # a name too long for the file system, say: no such game, whatever else
            report.error(f"no game {clipped(name, 60)!r}: {exc.strerror or exc}", None, None,
                         "name a game folder under --data, or a path to one")
            continue
        if found is not None and found not in folders:
            folders.append(found)
    return folders


def _named_game(data: Path, name: str, standing_in: Path | None, report: Report) -> Path | None:
    """The folder a game argument names, or None (reported)."""
    candidate = Path(name)
    if (data / name / MANIFEST).is_file() and not (candidate / MANIFEST).is_file():
        candidate = data / name  # a game id, though a folder of that name (its pictures, say) is here too
    elif candidate.exists() and (candidate.is_dir() or candidate.is_file()):
        candidate = candidate.resolve()  # "." names the folder it is: its name is the game id
    elif standing_in is not None and name == standing_in.name:
        candidate = standing_in
    else:
        candidate = data / name
    if not candidate.exists():
        known = ", ".join(p.name for p in discover(data)) or "none"
        report.error(f"no game {clipped(name, 60)!r} in {data}", None, None, f"games found: {known}")
        return None
    if not candidate.is_dir():
        report.error("a game must be a folder, but this is a file", candidate, None,
                     "pass the folder that holds game.toml")
        return None
    if not (candidate / MANIFEST).is_file():
        found = not_a_file(candidate / MANIFEST)
        if found is not None:  # a named pipe is not "missing": say what is there
            report.error(f"{MANIFEST} is {found}, not a regular file: pnp reads only files", candidate / MANIFEST,
                         None, "replace it with the game's manifest file itself")
            return None
        report.error(f"no {MANIFEST} in this folder", candidate, None,
                     f"create {candidate / MANIFEST}, or start a game with 'pnp new GAME-ID'")
        return None
    return candidate


def load_files(folder: Path, report: Report) -> GameFiles:
    files = GameFiles(id=folder.name, path=folder)
    files.manifest = _load_toml(folder / MANIFEST, report, required=True)
    files.rules_data = _load_toml(folder / RULES_DATA, report, required=False)
    files.examples = _load_toml(folder / EXAMPLES, report, required=False)
    return files


def load_csv(files: GameFiles, path: Path, report: Report) -> CsvTable | None:
    if path in files.csv:
        return files.csv[path]
    try:
        table = read_csv(path)
    except DataError as exc:
        report.diagnostics.append(exc.diagnostic)
        return None
    for problem in table.problems:
        report.diagnostics.append(problem.diagnostic)
    files.csv[path] = table
    return table


def _load_toml(path: Path, report: Report, required: bool) -> TomlDoc | None:
    if not path.exists() and not required:
        return None
    try:
        return load_toml(path)
    except DataError as exc:
        report.diagnostics.append(exc.diagnostic)
        return None
