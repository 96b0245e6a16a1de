"""Issue 26: a test that waits longer than its bound fails with what it waited for instead of
hanging ``make test``. Each case runs pytest on a small test file of its own, in a subprocess,
with this project's pyproject.toml and tests/conftest.py: a first test takes the session's
setup (slow on a loaded machine), then the test that waits has a bound of 2 s."""

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_pytest(tmp_path: Path, body: str, **env) -> tuple[subprocess.CompletedProcess, float]:
    test_file = tmp_path / "test_waits.py"
    test_file.write_text(body)
    started = time.monotonic()
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-c",
            str(ROOT / "pyproject.toml"),
            "--rootdir",
            str(ROOT),
            "-p",
            "tests.conftest",
            "-p",
            "no:cacheprovider",
            "-q",
            str(test_file),
        ],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    return out, time.monotonic() - started


def test_a_test_past_its_timeout_fails_with_its_stack_and_the_next_one_runs(tmp_path):
    out, _ = run_pytest(
        tmp_path,
        "import time, pytest\n"
        "def test_first():\n"
        "    assert True\n"
        "@pytest.mark.timeout(2)\n"
        "def test_waits_for_ever():\n"
        "    time.sleep(60)  # the wait\n"
        "def test_after_it():\n"
        "    assert True\n",
    )
    text = out.stdout + out.stderr
    assert out.returncode == 1, text
    assert "Timeout" in text, text
    assert "time.sleep(60)  # the wait" in text, text  # the stack names what it waited for
    assert "Timeout (>2.0s) from pytest-timeout" in text, text
    assert "1 failed, 2 passed" in text, text


def test_a_run_where_no_python_code_can_run_ends_with_every_threads_stack(tmp_path):
    # A thread that holds the GIL while it waits in C for a mutex no one will free, as the
    # live server's thread did in issue 26 (sqlite3_bind_int64 waiting for the connection's
    # mutex): pytest-timeout's SIGALRM handler cannot run, and faulthandler (no GIL needed)
    # ends the run once the hard stop has passed too. (ctypes.PyDLL calls keep the GIL; a
    # zeroed pthread_mutex_t is glibc's default mutex, and locking it twice never returns.)
    out, took = run_pytest(
        tmp_path,
        "import ctypes, pytest\n"
        "def test_first():\n"
        "    assert True\n"
        "@pytest.mark.timeout(2)\n"
        "def test_holds_the_gil():\n"
        "    libc = ctypes.PyDLL(None)\n"
        "    mutex = ctypes.create_string_buffer(64)\n"
        "    libc.pthread_mutex_lock(mutex)\n"
        "    libc.pthread_mutex_lock(mutex)  # the block\n",
        UBF_HARD_STOP_AFTER="1",
    )
    text = out.stdout + out.stderr
    assert out.returncode == 1, text
    assert "Timeout (0:00:03)!" in text, text  # 2 s of pytest-timeout, 1 s of hard stop
    assert "most recent call first" in text, text
    assert "the block" not in out.stdout  # no Python code ran: no pytest-timeout report
    assert "line 9 in test_holds_the_gil" in text, text  # the stack names the wait
    assert took < 60, took
