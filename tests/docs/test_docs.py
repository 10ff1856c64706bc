"""The documents tell the truth: their examples run, their results are real, their links
lead somewhere.

* Every Python block of README.md and docs/*.md runs (one fresh interpreter per
  document) and every result it shows with ``# -> VALUE`` is compared with the real one.
* Every shell command README.md shows runs and must succeed, in a scratch directory,
  with the sizes a ``change`` directive gives (``--games 2`` for ``--games 200``).
* Every relative link and image, every repository path in backticks, and every ``.md``
  file any tracked file mentions, exists.

A block that cannot run here says so in the Markdown, with a reason the test reports
(``<!-- docs-test: not run: ... -->``); nothing is skipped silently.  The conventions are
in docs/contributing.md; the reading is in mdexec.py.  New sections and new documents
are picked up by themselves.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from . import mdexec
from .mdexec import REPO, Command, Directives, Document

HERE = Path(__file__).resolve().parent
README = REPO / "README.md"
DOCUMENTS = [README, *sorted((REPO / "docs").glob("*.md"))]
#: Shell commands are run from README.md, where a newcomer copies them, and from the
#: pages that quote the commands behind their figures.
COMMAND_DOCUMENTS = [README, *(p for p in DOCUMENTS if p.name in ("benchmarks.md", "ai.md"))]
#: This checkout's own environment: what mdexec.ACTIVATE puts first on PATH.
VENV = REPO / ".venv"
#: Longest a shown command may take here, with its sizes changed; longer is a failure
#: that names the directive to add.
COMMAND_TIMEOUT = 240


def _read_all() -> dict[Path, Document | mdexec.DocError]:
    out: dict[Path, Document | mdexec.DocError] = {}
    for path in DOCUMENTS:
        try:
            out[path] = mdexec.read(path)
        except mdexec.DocError as exc:
            out[path] = exc
    return out


_DOCS = _read_all()


def _doc(path: Path) -> Document:
    found = _DOCS[path]
    if isinstance(found, mdexec.DocError):
        pytest.fail(str(found))
    return found


def _name(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


def _ok(path: Path) -> Document | None:
    found = _DOCS[path]
    return None if isinstance(found, mdexec.DocError) else found


def _has(tools: list[str]) -> bool:
    return all(shutil.which(tool) for tool in tools)


def _missing(tools: list[str]) -> str:
    return "needs " + ", ".join(t for t in tools if not shutil.which(t)) + " (not installed here)"


# ----------------------------------------------------------------- the documents parse


@pytest.mark.parametrize("path", DOCUMENTS, ids=_name)
def test_the_document_follows_the_docs_test_conventions(path: Path) -> None:
    """Directives are known ones, placed before a block, and every `change OLD => NEW`
    finds OLD in its block (a stale one would silently run the shown size)."""
    doc = _doc(path)
    groups: dict[int, tuple[Directives, list[str]]] = {}
    for block in doc.python:
        groups.setdefault(id(block.directives), (block.directives, []))[1].append(block.code)
    for command in doc.commands:
        groups.setdefault(id(command.directives), (command.directives, []))[1].append(
            command.shown
        )
    for line, directives in doc.directives:
        assert directives.not_run is not None or id(directives) in groups, (
            f"{doc.name}:{line}: a docs-test directive before a block with no command or "
            "code: place it right before the block it is for"
        )
    for directives, texts in groups.values():
        for old, new in directives.changes:
            assert any(old in text for text in texts), (
                f"{doc.name}: 'change {old} => {new}': no {old!r} in the block it precedes"
            )


# ------------------------------------------------------------------ Python examples


def _python_documents() -> list[Path]:
    return [p for p in DOCUMENTS if (d := _ok(p)) is None or d.python]


@pytest.mark.parametrize("path", _python_documents(), ids=_name)
def test_python_examples_run_and_show_real_results(path: Path, tmp_path: Path) -> None:
    problems = run_python_blocks(_doc(path), tmp_path)
    assert not problems, "\n\n".join(problems)


def run_python_blocks(doc: Document, tmp_path: Path) -> list[str]:
    """Run a document's Python blocks in a fresh interpreter; the problems found."""
    blocks = []
    for block in doc.python:
        blocks.append(
            {
                "doc": doc.name,
                "line": block.line,
                "code": block.directives.changed(block.code),
                "run": block.directives.not_run is None and _has(block.directives.needs),
            }
        )
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, str(HERE / "run_python.py"), str(report)],
        input=json.dumps(blocks),
        capture_output=True,
        text=True,
        cwd=_scratch(tmp_path),
        env=_env(),
        timeout=COMMAND_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0 and report.exists(), done.stdout + done.stderr
    problems: list[str] = json.loads(report.read_text(encoding="utf-8"))
    return problems


def _marked_python() -> list[tuple[str, str]]:
    out = []
    for path in DOCUMENTS:
        doc = _ok(path)
        for block in doc.python if doc else []:
            if block.directives.not_run is not None:
                out.append((f"{doc.name}:{block.line}", f"not run: {block.directives.not_run}"))
            elif not _has(block.directives.needs):
                out.append((f"{doc.name}:{block.line}", _missing(block.directives.needs)))
    return out


@pytest.mark.parametrize(("where", "reason"), _marked_python())
def test_python_blocks_marked_not_run_say_why(where: str, reason: str) -> None:
    """Blocks the Python test compiles but does not run, listed with the Markdown's reason
    (compiling them is part of the test above), so that the run's summary shows them."""
    pytest.skip(reason)


# ------------------------------------------------------------------- shell commands


def _commands() -> list[Command]:
    out = []
    for path in COMMAND_DOCUMENTS:
        doc = _ok(path)
        out += doc.commands if doc else []
    return out


@pytest.mark.parametrize("command", _commands(), ids=lambda c: c.id)
def test_readme_commands_run(command: Command, tmp_path: Path) -> None:
    directives = command.directives
    if directives.not_run is not None:
        check_without_running(command.shown)
        pytest.skip(f"not run: {directives.not_run}")
    if not _has(directives.needs):
        check_without_running(command.shown)
        pytest.skip(_missing(directives.needs))
    cwd = _scratch(tmp_path)
    if mdexec.is_activation(command.shown):
        _check_activation(cwd)
        return
    text = command.to_run()
    # After the block's `source .venv/bin/activate`, as in a reader's new shell: nothing of
    # this test's environment on PATH but what that line puts there.
    fresh = command.activated and _runs_from_checkout_venv()
    words = mdexec.command_words(text)
    if words and words[0] == "durak-lan":
        _run_lan(text, cwd, fresh)
    else:
        _run(text, cwd, fresh=fresh)


def _runs_from_checkout_venv() -> bool:
    return Path(sys.prefix).resolve() == VENV.resolve()


def _check_activation(cwd: Path) -> None:
    """In a new shell, the activation line finds the project's programs in .venv."""
    if not _runs_from_checkout_venv():
        pytest.skip(f"the tests run from {sys.prefix}, not this checkout's .venv; the "
                    "commands after this line run with that environment first on PATH")
    out = _run("command -v durak-lan durak-arena python", cwd, fresh=True)
    found = out.split()
    assert len(found) == 3, out
    for program in found:
        assert Path(program).parent.resolve() == (VENV / "bin").resolve(), out


def check_without_running(text: str) -> None:
    """What can be checked of a command that is not run: its program exists, a script has
    no syntax error, and the project's own programs accept its arguments."""
    words = mdexec.command_words(text)
    assert words, f"an empty command: {text!r}"
    program = words[0]
    scripts = mdexec.console_scripts()
    if program in scripts:
        module = importlib.import_module(scripts[program].split(":")[0])
        parser = getattr(module, "build_parser", None)
        if parser is not None:
            try:
                parser().parse_args(words[1:])
            except SystemExit as exc:
                pytest.fail(f"{text!r}: {program} refuses these arguments (exit {exc.code})")
        return
    if program in ("source", "."):
        assert mdexec.is_activation(text), f"{text!r}: the README activates only .venv"
        return
    if program in ("bash", "sh"):
        script = REPO / words[1]
        assert script.is_file(), f"{text!r}: no such script {words[1]}"
        subprocess.run(["bash", "-n", str(script)], check=True)
        return
    if program in ("python", "python3"):
        assert words[1] == "-m" or (REPO / words[1]).is_file(), f"{text!r}: no {words[1]}"
        return
    assert shutil.which(program), f"{text!r}: {program} is not installed"


def _run(text: str, cwd: Path, stdin: str = "", fresh: bool = False) -> str:
    """Run one command line in bash; ``fresh``: as in a new shell after the README's
    activation line (which it sources first)."""
    script = f"{mdexec.ACTIVATE} && {text}" if fresh else text
    try:
        done = subprocess.run(
            ["bash", "-c", script],
            cwd=cwd,
            env=_fresh_env() if fresh else _env(),
            input=stdin,
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(
            f"{text!r} took over {COMMAND_TIMEOUT} s here; give the test smaller sizes with "
            "<!-- docs-test: change OLD => NEW --> before it"
        )
    assert done.returncode == 0, (
        f"{text!r} exited with {done.returncode}\n--- stdout\n{done.stdout[-3000:]}"
        f"\n--- stderr\n{done.stderr[-3000:]}"
    )
    return done.stdout


def _run_lan(text: str, cwd: Path, fresh: bool = False) -> None:
    """A durak-lan command runs on a discovery port of its own (never the LAN's shared
    37020), and one that waits for an invitation or sends one gets a partner."""
    from durak_net.cli import build_parser

    words = mdexec.command_words(text)
    args = build_parser().parse_args(words[1:])
    text = shlex.join(words)  # without a trailing comment, which would swallow what follows
    port = _free_udp_port()
    private = f" --port {port} --timeout 60"
    if args.invite:
        partner = f"--name {shlex.quote(args.invite)} --auto-accept"
    elif args.auto_accept:
        partner = f"--name docs-partner --invite {shlex.quote(args.name)}"
    else:  # interactive: it reads the terminal; end of input means quit
        out = _run(text + private, cwd, fresh=fresh)
        assert "game port" in out, out
        return
    other = subprocess.Popen(
        ["bash", "-c", f"durak-lan {partner} --bot random --seed 1 --games {args.games}"
         + " --json" + private],
        cwd=cwd, env=_env(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )
    try:
        _run(text + private, cwd, fresh=fresh)
    finally:
        out, err = other.communicate(timeout=COMMAND_TIMEOUT)
    assert other.returncode == 0, f"the partner exited with {other.returncode}: {err}"
    assert len([line for line in out.splitlines() if '"game_over"' in line]) == args.games


def _free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("0.0.0.0", 0))
        return int(s.getsockname()[1])


def _scratch(tmp_path: Path) -> Path:
    """A directory that looks like the checkout (links to its files) where commands may
    write what they like (results.json, logs) without touching the repository."""
    root = tmp_path / "checkout"
    root.mkdir(exist_ok=True)
    for entry in REPO.iterdir():
        if entry.name not in (".git",) and not (root / entry.name).exists():
            (root / entry.name).symlink_to(entry)
    return root


def _env() -> dict[str, str]:
    env = dict(os.environ)
    bindir = str(Path(sys.executable).parent)  # python, durak-arena, durak-lan of this env
    env["PATH"] = os.pathsep.join([bindir, env.get("PATH", "")])
    env.pop("PYTEST_ADDOPTS", None)
    env.pop("PYTEST_XDIST_WORKER", None)
    return env


def _fresh_env() -> dict[str, str]:
    """A reader's new shell: this test's environment is neither on PATH nor active."""
    env = _env()
    ours = Path(sys.executable).parent.resolve()
    env["PATH"] = os.pathsep.join(
        p for p in env["PATH"].split(os.pathsep) if p and Path(p).resolve() != ours
    )
    for name in ("VIRTUAL_ENV", "DURAK_PYTHON", "CONDA_PREFIX"):
        env.pop(name, None)
    return env


# --------------------------------------------------------------------------- links


def _link_targets() -> list[tuple[str, str, str]]:
    out = []
    for path in DOCUMENTS:
        doc = _ok(path)
        for link in doc.links if doc else []:
            if not re.match(r"[a-z][a-z0-9+.-]*:", link.target):  # http:, mailto:, ...
                out.append((doc.name, f"{link.line}", link.target))
    return out


@pytest.mark.parametrize(("doc", "line", "target"), _link_targets())
def test_relative_links_lead_to_files_and_headings_that_exist(
    doc: str, line: str, target: str
) -> None:
    source = REPO / doc
    file_part, _, anchor = target.partition("#")
    dest = (source.parent / file_part).resolve() if file_part else source
    assert dest.exists(), f"{doc}:{line}: the link {target!r} leads to a missing file"
    if anchor and dest.suffix == ".md":
        assert anchor in mdexec.anchors(mdexec.read(dest)), (
            f"{doc}:{line}: {target!r}: {dest.name} has no heading with the anchor #{anchor}"
        )


_PATH_SPAN = re.compile(r"(?:\.\./|\./)?[\w.-]+(?:/[\w.-]+)+/?")


@pytest.mark.parametrize("path", DOCUMENTS, ids=_name)
def test_repository_paths_in_backticks_exist(path: Path) -> None:
    """`durak_core/_engine.py`, `examples/bots/mybot.py`: a path the reader is sent to
    exists (or is one the project makes and ignores, like tests/e2e/artifacts/)."""
    doc = _doc(path)
    missing = []
    for line, span in doc.code_spans:
        if not _PATH_SPAN.fullmatch(span) or "://" in span:
            continue
        candidates = [REPO / span, path.parent / span]
        if not any(c.exists() for c in candidates) and not _ignored(span):
            missing.append(f"{doc.name}:{line}: `{span}`")
    assert not missing, "paths that do not exist:\n" + "\n".join(missing)


def _ignored(relative: str) -> bool:
    done = subprocess.run(
        ["git", "check-ignore", "-q", "--no-index", relative],
        cwd=REPO, capture_output=True, check=False,
    )
    return done.returncode == 0


_MD_MENTION = re.compile(r"(?<![\w/.:-])((?:\.\./|[\w-]+/)*[\w-]+\.md)\b(?:,\s*\"([^\"]+)\")?")
_TEXT_SUFFIXES = {".py", ".md", ".ipynb", ".sh", ".toml", ".cfg", ".yml", ".yaml", ".js", ""}


def _tracked_files() -> list[Path]:
    done = subprocess.run(  # tracked files, and new ones not yet added (but not ignored)
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, capture_output=True, check=False,
    )
    if done.returncode != 0:  # not a git checkout (an unpacked archive): walk it
        skip = {".git", ".venv", "node_modules", "build", "dist", "__pycache__"}
        return [
            p for p in REPO.rglob("*")
            if p.is_file() and not skip & set(p.relative_to(REPO).parts)
        ]
    return [REPO / name for name in done.stdout.decode().split("\0") if name]


def test_every_markdown_file_mentioned_anywhere_exists() -> None:
    """A docstring, notebook or document naming a rules file the repository did not have
    sent readers nowhere: every `<name>.md` a file mentions must exist (next to that file,
    at the top of the repository or in docs/), and `<name>.md, "Section"` must name one of
    its headings."""
    problems = []
    for file in _tracked_files():
        if file.suffix not in _TEXT_SUFFIXES or not file.is_file():
            continue
        try:
            text = file.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            for match in _MD_MENTION.finditer(line):
                mention, section = match.group(1), match.group(2)
                places = [file.parent / mention, REPO / mention, REPO / "docs" / mention]
                found = next((p for p in places if p.is_file()), None)
                where = f"{file.relative_to(REPO)}:{number}"
                if found is None:
                    problems.append(f"{where}: {mention} does not exist")
                elif section and found.suffix == ".md" and found.is_relative_to(REPO):
                    headings = mdexec.read(found.resolve()).headings
                    if section not in headings:
                        problems.append(f"{where}: {mention} has no section {section!r}")
    assert not problems, "\n".join(problems)
