"""Rules code that lives with the game (rules.py), trusted like direnv's allow; installed rules via entry points."""

from __future__ import annotations

import os
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import cli

OWN_CHECK = "the game's own check ran"


def invoke(*args: str, env: dict[str, str] | None = None):
    result = CliRunner().invoke(cli, list(args), env=env)
    assert "Traceback" not in result.output, result.output
    return result


@pytest.fixture()
def games(tmp_path) -> Path:
    """A folder of games outside the repository, holding the --rules starter "rg"."""
    data = tmp_path / "games"
    result = invoke("new", "--data", str(data), "--rules", "--lang", "en", "--lang", "ja", "rg")
    assert result.exit_code == 0, result.output
    assert "pnp trust" in result.output
    return data


def write_rules(games: Path, text: str, name: str = "rules.py") -> Path:
    path = games / "rg" / name
    path.write_text(text, encoding="utf-8")
    return path


def marked_rules(marker: Path, body: str = "") -> str:
    """rules.py that leaves ``marker`` when imported, and whose check reports one error of its own."""
    return f"""from pathlib import Path
Path({str(marker)!r}).write_text("imported")

from pnp.api import GameRules, where


class Rules(GameRules):
    def check(self, game, report):
        report.error({OWN_CHECK!r}, game.path / "rules.py", 9)
{body}

RULES = Rules()
"""


def rules_line(games: Path) -> int:
    """The line of the starter's rules key, which moves as the starter's comments change."""
    lines = (games / "rg" / "game.toml").read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if line.startswith("rules = "))


def check(games: Path, *extra: str, env: dict[str, str] | None = None):
    return invoke("check", "--data", str(games), "rg", *extra, env=env)


def test_untrusted_rules_are_refused_without_being_imported(games, tmp_path):
    marker = tmp_path / "imported"
    write_rules(games, marked_rules(marker))
    result = check(games)
    assert result.exit_code == 1
    assert f"game.toml:{rules_line(games)}: error: rules.py is code in the game folder" in result.output
    assert "pnp trust" in result.output and "--trust" in result.output
    assert "component" in result.output  # the other checks still ran and reported
    assert not marker.exists()


def test_i18n_of_an_untrusted_game_says_so_and_fails(games, tmp_path):
    """It carried on without the game's rules and exited 0, as if the translations were all there is."""
    marker = tmp_path / "imported"
    write_rules(games, marked_rules(marker))
    result = invoke("i18n", "--data", str(games), "rg")
    assert result.exit_code == 1, result.output
    assert "error: rules.py is code in the game folder" in result.output
    assert "pnp trust" in result.output
    assert not marker.exists()


def test_trusted_rules_run_their_check(games, tmp_path):
    marker = tmp_path / "imported"
    write_rules(games, marked_rules(marker))
    assert invoke("trust", "--data", str(games), "rg").exit_code == 0
    result = check(games)
    assert marker.exists()
    assert f"rules.py:9: error: {OWN_CHECK}" in result.output
    assert result.exit_code == 1


def test_a_change_to_the_code_asks_again(games, tmp_path):
    marker = tmp_path / "imported"
    path = write_rules(games, marked_rules(marker))
    invoke("trust", "--data", str(games), "rg")
    path.write_text(path.read_text() + "\n# one more line\n")
    result = check(games)
    assert result.exit_code == 1
    assert "rules.py has changed since this game folder was trusted" in result.output
    assert not marker.exists()
    assert invoke("trust", "--data", str(games), "rg").exit_code == 0
    assert OWN_CHECK in check(games).output


def test_trust_for_one_command_and_from_the_environment(games, tmp_path):
    marker = tmp_path / "imported"
    write_rules(games, marked_rules(marker))
    assert OWN_CHECK in check(games, "--trust").output
    marker.unlink()
    assert "is code in the game folder" in check(games).output  # --trust held for that command only
    assert not marker.exists()
    assert OWN_CHECK in check(games, env={"PNP_TRUST": "1"}).output  # (imported once a process: no new marker)


def test_trust_list_and_revoke(games):
    invoke("trust", "--data", str(games), "rg")
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "pnp" / "trusted.toml"
    assert str((games / "rg").resolve()) in config.read_text()
    listed = invoke("trust", "--list")
    assert str((games / "rg").resolve()) in listed.output and "sha256:" in listed.output
    assert invoke("trust", "--data", str(games), "--revoke", "rg").exit_code == 0
    assert str((games / "rg").resolve()) not in config.read_text()
    assert check(games).exit_code == 1


def test_the_starter_passes_its_check_and_builds_its_aid(games, tmp_path):
    from pypdf import PdfReader

    invoke("trust", "--data", str(games), "rg")
    result = check(games)
    assert result.exit_code == 0, result.output
    assert "0 error(s)" in result.output and "1 recomputed (1 ok)" in result.output
    out = tmp_path / "out"
    result = invoke("build", "--data", str(games), "rg", "--what", "aid", "--lang", "en", "--paper", "a4",
                    "--out", str(out))
    assert result.exit_code == 0, result.output
    aid = out / "rg" / "en" / "a4" / "aid.pdf"
    text = "".join(page.extract_text() for page in PdfReader(aid).pages)
    for cell in ("Card values", "colour", "highest", "red", "blue", "5"):
        assert cell in text


def test_the_starter_example_is_recomputed_by_its_code(games):
    invoke("trust", "--data", str(games), "rg")
    examples = games / "rg" / "examples.toml"
    examples.write_text(examples.read_text().replace("winner = 1", "winner = 2"))
    result = check(games)
    assert result.exit_code == 1
    assert "example 'higher-1'" in result.output and "winner" in result.output


@pytest.mark.parametrize(("code", "line", "said"), [
    ("x = 1\nraise RuntimeError('boom at import')\n", 2, "RuntimeError: boom at import while it was imported"),
    ("def broken(:\n    pass\n", 1, "rules.py does not compile"),
    ("from pnp.api import GameRules\n", None, "rules.py defines no RULES"),
    ("RULES = 42\n", 1, "RULES is a int, not a GameRules"),
    ("from pnp.api import GameRules\nclass R(GameRules):\n    pass\nRULES = R\n", 4, "RULES is the class R"),
    ("from pnp.api import GameRules\nclass R(GameRules):\n    def check(self, game, report):\n"
     "        {}['missing']\nRULES = R()\n", 4, "KeyError: 'missing' in check()"),
    ("from pnp.api import GameRules\nREQUIRES_API = 99\nclass R(GameRules):\n    pass\nRULES = R()\n", 2,
     "needs pnp's rules API version 99"),
    ("from pnp.api import require_api\nrequire_api(7)\n", 2, "needs pnp's rules API version 7"),
])
def test_broken_rules_are_the_games_error_at_its_line(games, code, line, said):
    write_rules(games, code)
    result = check(games, "--trust")
    assert result.exit_code == 1
    assert said in result.output
    where = f"rules.py:{line}: error" if line else "rules.py: error"
    assert where in result.output


def test_a_too_new_api_names_the_version_needed(games):
    write_rules(games, "REQUIRES_API = 2\n")
    result = check(games, "--trust")
    assert "this pnp (0.1.0) has version 1" in result.output
    assert "upgrade pnp" in result.output


def test_a_runner_that_raises_shows_its_own_frames(games):
    rules = (games / "rg" / "rules.py").read_text()
    write_rules(games, rules.replace('    first, second = ranks\n', '    first, second = ranks\n    1 / 0\n'))
    result = check(games, "--trust")
    assert result.exit_code == 1
    assert "ZeroDivisionError: division by zero in run_example()" in result.output
    assert "in run_higher" in result.output and "1 / 0" in result.output
    assert "pnp/rules/base.py" not in result.output  # trimmed to the game's own frames


def test_aid_tables_that_raise_stop_the_aid_with_an_error(games, tmp_path):
    rules = (games / "rg" / "rules.py").read_text()
    head = "        title, colour, count, highest ="
    write_rules(games, rules.replace(head, '        raise ValueError("no aid")\n' + head))
    result = invoke("build", "--data", str(games), "rg", "--what", "aid", "--lang", "en", "--paper", "a4",
                    "--out", str(tmp_path / "out"), "--trust")
    assert result.exit_code == 1
    assert "ValueError: no aid in aid_tables()" in result.output
    assert not (tmp_path / "out" / "rg" / "en" / "a4" / "aid.pdf").exists()


@pytest.mark.parametrize("name", ["../outside.py", "/etc/passwd.py", "rules.txt", "link.py", "folder.py"])
def test_rules_paths_that_leave_the_folder_or_are_no_file_are_refused(games, tmp_path, name):
    outside = tmp_path / "outside.py"
    outside.write_text(f"open({str(tmp_path / 'imported')!r}, 'w')\n")
    (games / "rg" / "link.py").symlink_to(outside)
    (games / "rg" / "folder.py").mkdir()
    manifest = games / "rg" / "game.toml"
    manifest.write_text(manifest.read_text().replace('rules = "rules.py"', f'rules = "{name}"'))
    result = check(games, "--trust")
    assert result.exit_code == 1
    assert f"game.toml:{rules_line(games)}: error: " in result.output
    assert not (tmp_path / "imported").exists()


def test_a_rules_package_in_the_folder(games):
    package = games / "rg" / "myrules"
    package.mkdir()
    (package / "__init__.py").write_text("from .hooks import Rules\n\nRULES = Rules()\n")
    (package / "hooks.py").write_text(marked_rules(games / "marker").split("\nRULES")[0])
    manifest = games / "rg" / "game.toml"
    manifest.write_text(manifest.read_text().replace('rules = "rules.py"', 'rules = "myrules/"'))
    assert "is code in the game folder" in check(games).output
    invoke("trust", "--data", str(games), "rg")
    assert OWN_CHECK in check(games).output
    (package / "hooks.py").write_text((package / "hooks.py").read_text() + "\n# changed\n")
    assert "has changed since" in check(games).output


def test_an_unknown_rules_name_suggests_the_closest(games):
    manifest = games / "rg" / "game.toml"
    manifest.write_text(manifest.read_text().replace('rules = "rules.py"', 'rules = "two_op"'))
    result = check(games)
    assert "unknown rules module 'two_op'" in result.output and "did you mean 'two_ops'" in result.output
    manifest.write_text(manifest.read_text().replace('rules = "two_op"', 'rules = "rule.py"'))
    assert "did you mean 'rules.py'" in check(games).output


def test_shipped_games_are_found_through_their_entry_points(monkeypatch):
    import pnp.rules
    from pnp.rules.base import GameRules

    registered = {point.name: point.value for point in entry_points(group="pnp.rules")}
    for name in ("two_ops", "take_over", "rudy", "gadget_trick"):
        assert registered[name] == f"pnp.rules.{name}:RULES"
        assert isinstance(pnp.rules.get_rules(name), GameRules)
    # the lookup is the entry points: without them, no shipped module is known either
    monkeypatch.setattr(pnp.rules, "_entry_points", lambda: {})
    assert pnp.rules.get_rules("two_ops") is None


def test_an_entry_point_that_cannot_load_names_its_package(monkeypatch):
    import pnp.rules
    from pnp.rules.local import RulesLoadError

    class Broken:
        name, value, module = "broken", "broken_rules:RULES", "broken_rules"
        dist = type("Dist", (), {"name": "pnp-broken-rules"})()

        def load(self):
            raise ImportError("No module named 'broken_rules'")

    monkeypatch.setattr(pnp.rules, "_entry_points", lambda: {"broken": Broken()})
    pnp.rules._installed.cache_clear()
    try:
        with pytest.raises(RulesLoadError) as caught:
            pnp.rules.get_rules("broken")
    finally:
        pnp.rules._installed.cache_clear()
    assert "pnp-broken-rules" in caught.value.diagnostic.message
    assert "pnp-broken-rules" in caught.value.diagnostic.fix


AID = '\n[[aid]]\nid = "{id}"\nsource = "components"\ntitle = {{ en = "Parts", ja = "内容" }}\n'


def test_an_aid_id_that_is_also_a_rules_table_is_an_error_at_it(games):
    """The starter's rules.py computes a table "values"; game.toml declaring one too hid one of them."""
    invoke("trust", "--data", str(games), "rg")
    manifest = games / "rg" / "game.toml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text + AID.format(id="values"), encoding="utf-8")
    line = len(text.splitlines()) + 2  # its [[aid]], after a blank line
    result = check(games)
    assert result.exit_code == 1, result.output
    assert (f"game.toml:{line}: error: aid id 'values' is also a table of the rules module (rules.py)"
            in result.output), result.output
    assert "give this [[aid]] another id" in result.output
    manifest.write_text(text + AID.format(id="parts"), encoding="utf-8")
    assert check(games).exit_code == 0
