"""scripts/setup.sh and scripts/play.sh as a newcomer runs them, on a scratch checkout.

A real set-up creates a virtualenv and pip-installs for minutes, so the scratch copy
gets a stand-in interpreter (``PYTHON=``, which setup.sh honours): it makes a real,
empty venv whose pip only records when it runs (``fake_pip.py``) and then links this
test environment's packages in.  Everything else is the real scripts, the real lock,
and for play.sh a real JupyterLab.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import threading
import time
from pathlib import Path

import pytest

from tests.e2e.browser_support import free_port

pytestmark = pytest.mark.waits

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent

FAKE_PYTHON = """#!/usr/bin/env bash
# A base interpreter for setup.sh: `-m venv DIR` makes a real venv without pip and puts
# the recording fake pip in it (slowly, as a real venv takes seconds); anything else
# runs the real interpreter.
if [[ "$1" == "-m" && "$2" == "venv" ]]; then
  echo "venv-start $$" >>"$FAKE_SETUP_LOG"
  {real} -m venv --without-pip "$3" || exit 1
  site="$("$3/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  mkdir -p "$site/pip" && touch "$site/pip/__init__.py" && cp {fake_pip} "$site/pip/__main__.py"
  sleep 1
  echo "venv-end $$" >>"$FAKE_SETUP_LOG"
  exit 0
fi
exec {real} "$@"
"""


def _scratch(tmp_path: Path) -> Path:
    """A checkout with what setup.sh and play.sh read and run, and no .venv yet."""
    root = tmp_path / "checkout"
    (root / "durak_core").mkdir(parents=True)
    (root / "notebooks").mkdir()
    shutil.copytree(REPO / "scripts", root / "scripts")
    for name in ("pyproject.toml", "setup.py"):
        shutil.copy(REPO / name, root / name)
    for source in (REPO / "durak_core").glob("*.py"):
        shutil.copy(source, root / "durak_core" / source.name)
    # The servers play.sh starts name a class of it in their settings.
    shutil.copytree(REPO / "durak_server", root / "durak_server",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "notebooks" / "play.ipynb", root / "notebooks" / "play.ipynb")
    return root


def _env(tmp_path: Path, path: str | None = None) -> dict[str, str]:
    fake = tmp_path / "fake-python"
    fake.write_text(
        FAKE_PYTHON.format(real=sys.executable, fake_pip=HERE / "fake_pip.py"), encoding="utf-8"
    )
    fake.chmod(0o755)
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("VIRTUAL_ENV", "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "DURAK_NO_VENV")
    }
    env.update(
        PYTHON=str(fake),
        FAKE_SETUP_LOG=str(tmp_path / "setup.log"),
        FAKE_SETUP_SITE=sysconfig.get_paths()["purelib"],
        DURAK_FORCE_INSTALL="0",
        JUPYTER_DATA_DIR=str(tmp_path / "jupyter-data"),
        JUPYTER_CONFIG_DIR=str(tmp_path / "jupyter-config"),
        JUPYTER_RUNTIME_DIR=str(tmp_path / "jupyter-runtime"),
        JUPYTER_PLATFORM_DIRS="1",
    )
    if path is not None:
        env["PATH"] = path
    return env


def _path_without_flock(tmp_path: Path) -> str:
    """PATH as it is, minus flock(1): the lock-directory fallback of machines without it
    (macOS)."""
    bin_dir = tmp_path / "bin-without-flock"
    bin_dir.mkdir()
    for folder in os.environ["PATH"].split(os.pathsep):
        if not os.path.isdir(folder):
            continue
        for name in os.listdir(folder):
            target = Path(folder, name)
            link = bin_dir / name
            if name != "flock" and not link.exists() and os.access(target, os.X_OK):
                link.symlink_to(target)
    return str(bin_dir)


def _events(tmp_path: Path) -> list[str]:
    log = tmp_path / "setup.log"
    return [line.split()[0] for line in log.read_text().splitlines()] if log.exists() else []


@pytest.mark.parametrize("lock", ["flock", "lock directory"])
def test_two_setups_at_once_build_the_venv_once(tmp_path: Path, lock: str) -> None:
    """play.sh and test.sh started together on a fresh clone: one set-up builds .venv,
    the other waits for it and then finds everything up to date."""
    if lock == "flock" and shutil.which("flock") is None:
        pytest.skip("flock(1) is not installed here; the lock-directory case covers the script")
    root = _scratch(tmp_path)
    env = _env(tmp_path, None if lock == "flock" else _path_without_flock(tmp_path))
    command = ["bash", "scripts/setup.sh"]
    first = subprocess.Popen(
        command, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    # The second starts once the first is building (it holds the lock from then on):
    # polled on what the first has recorded, so the order is certain, not a guess.
    deadline = time.monotonic() + 60
    while "venv-start" not in _events(tmp_path):
        assert first.poll() is None and time.monotonic() < deadline, "the first never began"
        time.sleep(0.02)
    second = subprocess.Popen(
        command, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    out_first, _ = first.communicate(timeout=120)
    out_second, _ = second.communicate(timeout=120)
    assert first.returncode == 0, out_first
    assert second.returncode == 0, out_second
    events = _events(tmp_path)
    # One venv, and installs one after the other: never two of them at once.
    assert events.count("venv-start") == 1, events
    assert events == ["venv-start", "venv-end", "pip-start", "pip-end", "pip-start", "pip-end"]
    assert "creating .venv" in out_first
    assert "another set-up of" in out_second and "waiting for it to finish" in out_second
    assert "is up to date" in out_second.splitlines()[-1]
    assert not (root / ".durak-setup.lock.d").exists()  # let go of when done


def test_a_lock_left_by_a_killed_setup_does_not_block_the_next(tmp_path: Path) -> None:
    root = _scratch(tmp_path)
    env = _env(tmp_path, _path_without_flock(tmp_path))
    gone = subprocess.Popen(["true"])  # the pid of a set-up that no longer runs
    gone.wait()
    stale = root / ".durak-setup.lock.d"
    stale.mkdir()
    (stale / "pid").write_text(f"{gone.pid}\n")
    done = subprocess.run(
        ["bash", "scripts/setup.sh"], cwd=root, env=env, capture_output=True, text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "waiting" not in done.stdout
    assert not stale.exists()


def test_setup_takes_the_slow_iri_check_out_of_the_projects_own_venv(tmp_path: Path) -> None:
    """rfc3987-syntax (Jupyter's jsonschema[format-nongpl]) compiles grammars for a second
    in every Jupyter server and nbformat process: setup.sh removes it from .venv, once."""
    root = _scratch(tmp_path)
    env = _env(tmp_path)
    first = subprocess.run(["bash", "scripts/setup.sh"], cwd=root, env=env,
                           capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stdout + first.stderr
    site = Path(subprocess.run(
        [root / ".venv" / "bin" / "python", "-c",
         "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True).stdout.strip())
    assert not (site / "rfc3987_syntax").exists()
    (site / "rfc3987_syntax").mkdir()
    (site / "rfc3987_syntax" / "__init__.py").write_text("")
    before = _events(tmp_path).count("pip-start")
    again = subprocess.run(["bash", "scripts/setup.sh"], cwd=root, env=env,
                           capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stdout + again.stderr
    assert not (site / "rfc3987_syntax").exists()
    assert _events(tmp_path).count("pip-start") == before + 1  # the uninstall, no install
    third = subprocess.run(["bash", "scripts/setup.sh"], cwd=root, env=env,
                           capture_output=True, text=True, timeout=120)
    assert third.returncode == 0 and _events(tmp_path).count("pip-start") == before + 1



def test_play_no_browser_prints_the_url_of_play_ipynb_and_trusts_it(tmp_path: Path) -> None:
    """`bash scripts/play.sh --no-browser`: the URL to copy opens play.ipynb (not /lab),
    and the notebook is trusted, so its saved table shows at once."""
    import nbformat
    from nbformat.sign import NotebookNotary

    root = _scratch(tmp_path)
    env = _env(tmp_path)
    proc = subprocess.Popen(
        ["bash", "scripts/play.sh", "--no-browser", f"--port={free_port()}",
         "--ServerApp.port_retries=0", "--ServerApp.ip=127.0.0.1"],
        cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )
    # A watchdog, not a sleep: it only fires if Lab never prints its URL.
    watchdog = threading.Timer(120, lambda: os.killpg(proc.pid, signal.SIGKILL))
    watchdog.start()
    seen: list[str] = []
    url = None
    command: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            seen.append(line)
            if "http://127.0.0.1:" in line and "token=" in line:
                url = line.strip().split()[-1]
                command = _command_line(proc.pid)  # play.sh execs Lab: the same process
                break
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    output = "".join(seen)
    assert url is not None, output
    assert "/lab/tree/play.ipynb?token=" in url, url
    # Its kernel websockets send each message at once (durak_server.websocket).
    assert ("--ServerApp.kernel_websocket_connection_class="
            "durak_server.websocket.NoDelayWebsocketConnection") in command, command
    notebook = nbformat.read(root / "notebooks" / "play.ipynb", as_version=4)
    notary = NotebookNotary(data_dir=env["JUPYTER_DATA_DIR"])
    assert notary.check_signature(notebook), output
    # A Jupyter that never saw play.sh does not trust it: the signature above is play.sh's.
    other = tmp_path / "other-jupyter"
    other.mkdir()
    assert not NotebookNotary(data_dir=str(other)).check_signature(notebook)


def _command_line(pid: int) -> list[str]:
    """The arguments process ``pid`` runs with."""
    import psutil

    return list(psutil.Process(pid).cmdline())


@pytest.mark.slow
def test_play_app_takes_the_users_own_setting_in_place_of_its_default(tmp_path: Path) -> None:
    """`play.sh --app --MappingKernelManager.cull_idle_timeout=7`: play.sh sets that
    setting too (a closed tab's kernel is culled), in the app's config file, which the
    command line overrides (traitlets refuses a setting given twice on it)."""
    pytest.importorskip("voila")
    import urllib.request

    root = _scratch(tmp_path)
    env = _env(tmp_path)
    env["DURAK_CACHE_DIR"] = str(tmp_path / "cache")
    # Voila's templates are data files of this environment, not of the scratch venv.
    env["JUPYTER_PATH"] = str(Path(sys.prefix) / "share" / "jupyter")
    port = free_port()
    log_path = tmp_path / "voila.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            ["bash", "scripts/play.sh", "--app", "--no-browser", f"--port={port}",
             "--Voila.ip=127.0.0.1", "--Voila.port_retries=0",
             "--MappingKernelManager.cull_idle_timeout=7"],
            cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
    try:
        # The culler starts with the first kernel, which a page request starts; polled
        # against a deadline (the server and the kernel take seconds to come up).
        deadline = time.monotonic() + 120
        fetched = False
        while "Culling kernels" not in log_path.read_text() and time.monotonic() < deadline:
            assert proc.poll() is None, log_path.read_text()
            if not fetched:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60).read()
                    fetched = True
                except OSError:
                    pass
            time.sleep(0.2)
        assert "Culling kernels with idle durations > 7 seconds" in log_path.read_text()
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
