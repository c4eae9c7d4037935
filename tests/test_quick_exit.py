"""The console command's quick exit must behave as `sys.exit` would, minus the interpreter's teardown."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pnp.commands.quick_exit import exit_status


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(("code", "status"), [(None, 0), (0, 0), (3, 3), (True, 1)])
def test_exit_status_follows_sys_exit(code: object, status: int) -> None:
    assert exit_status(code) == status


def test_exit_handlers_run_and_buffered_output_is_flushed() -> None:
    done = run_python(
        "import atexit, sys\n"
        "from pnp.commands.quick_exit import leave\n"
        "atexit.register(lambda: print('handler ran'))\n"
        "print('buffered', end=' ')\n"
        "sys.stderr.write('warning')\n"
        "leave(3)\n"
    )
    assert done.returncode == 3
    assert done.stdout == "buffered handler ran\n"
    assert done.stderr == "warning"


def test_a_message_is_printed_and_exits_1_as_sys_exit_does() -> None:
    done = run_python("from pnp.commands.quick_exit import leave; leave('pnp: no such game')")
    assert (done.returncode, done.stderr) == (1, "pnp: no such game\n")


def test_a_running_thread_is_waited_for() -> None:
    done = run_python(
        "import threading, time\n"
        "from pnp.commands.quick_exit import leave\n"
        "threading.Thread(target=lambda: (time.sleep(0.2), print('thread finished'))).start()\n"
        "leave(0)\n"
    )
    assert (done.returncode, done.stdout) == (0, "thread finished\n")


def test_the_console_command_exits_with_clicks_status() -> None:
    version = run_python("import sys; sys.argv = ['pnp', '--version']; from pnp.cli import main; main()")
    assert version.returncode == 0 and version.stdout.startswith("pnp, version ")
    wrong = run_python("import sys; sys.argv = ['pnp', 'no-such-command']; from pnp.cli import main; main()")
    assert wrong.returncode == 2 and "No such command" in wrong.stderr
