"""The `pnp` console command exits as click says, and prints any text to a stream that cannot encode it."""

from __future__ import annotations

import os
import subprocess
import sys


def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**os.environ, **env})


def test_the_console_command_exits_with_clicks_status() -> None:
    version = run_python("import sys; sys.argv = ['pnp', '--version']; from pnp.cli import main; main()")
    assert version.returncode == 0 and version.stdout.startswith("pnp, version ")
    wrong = run_python("import sys; sys.argv = ['pnp', 'no-such-command']; from pnp.cli import main; main()")
    assert wrong.returncode == 2 and "No such command" in wrong.stderr


def test_a_stream_that_cannot_encode_a_character_prints_its_escape() -> None:
    done = run_python("from pnp.commands.process import output_any_text; output_any_text(); print('\u30c4 \u00e9')",
                      PYTHONIOENCODING="ascii")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "\\u30c4 \\xe9\n"
