"""Read a Markdown document into what tests/docs runs and checks: Python blocks, shell
commands, links.  No pytest here; test_docs.py drives it, run_python.py executes Python.

The conventions it reads (docs/contributing.md explains them to writers):

* a fenced ``python`` block runs, top to bottom, in one namespace per document; a
  statement ending in ``# -> VALUE`` must give VALUE (a Python literal compared by
  ``==``, anything else compared with the value's ``repr``), one ending in
  ``# raises ValueError: message`` must raise that; blocks of ``>>>`` lines run as
  doctests;
* a fenced ``bash``/``sh``/``shell`` block is one command per line (``\\`` joins lines;
  ``console`` blocks: the ``$ `` lines); in a paragraph, an inline code span that runs
  one of the project's programs (``durak-arena ...``, ``python benchmarks/x.py``,
  ``bash scripts/x.sh``) is a command too;
* a shell block's line ``source .venv/bin/activate`` activates the project's
  environment for the commands after it in that block, as in a reader's new shell: the
  test runs them after sourcing it, with no other environment on ``PATH``;
* an HTML comment right before a block or paragraph adjusts it, unseen by readers:
  ``<!-- docs-test: not run: REASON -->`` (checked without running, reported as
  skipped with REASON), ``<!-- docs-test: needs TOOL -->`` (run only where TOOL is
  installed), ``<!-- docs-test: change OLD => NEW -->`` (run with OLD replaced, e.g.
  a smaller ``--games``; OLD must occur).
"""

from __future__ import annotations

import functools
import importlib.metadata
import re
import shlex
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

REPO = Path(__file__).resolve().parents[2]

SHELL_LANGS = {"bash", "sh", "shell", "console"}
PYTHON_LANGS = {"python", "py", "pycon", "python3"}
_DIRECTIVE = re.compile(r"<!--\s*docs-test:\s*(.*?)\s*-->", re.S)
_KINDS = ("not run", "needs", "change")


class DocError(ValueError):
    """A document breaks the conventions above (an unknown directive, a stale change)."""


@dataclass
class Directives:
    not_run: str | None = None
    needs: list[str] = field(default_factory=list)
    changes: list[tuple[str, str]] = field(default_factory=list)

    def add(self, text: str, where: str) -> None:
        match = re.fullmatch(r"(not run|needs|change)\s*:?\s*(.*)", text, re.S)
        if match is None:
            raise DocError(
                f"{where}: unknown docs-test directive {text!r} (known: {', '.join(_KINDS)})"
            )
        kind, rest = match.group(1), " ".join(match.group(2).split())
        if kind == "not run":
            if not rest:
                raise DocError(f"{where}: write <!-- docs-test: not run: WHY -->")
            self.not_run = rest
        elif kind == "needs":
            self.needs += rest.replace(",", " ").split()
        else:
            old, sep, new = rest.partition("=>")
            if not sep or not old.strip():
                raise DocError(f"{where}: write <!-- docs-test: change OLD => NEW -->")
            self.changes.append((old.strip(), new.strip()))

    def changed(self, text: str) -> str:
        """``text`` with every ``change`` applied where it occurs (that each one occurs
        somewhere in its block is checked once for the whole block)."""
        for old, new in self.changes:
            text = text.replace(old, new)
        return text


@dataclass
class PythonBlock:
    doc: str
    line: int  #: line of the first code line in the document (1-based)
    code: str
    directives: Directives


@dataclass
class Command:
    doc: str
    line: int
    shown: str  #: as the reader sees it
    directives: Directives
    inline: bool
    #: an earlier line of its block activated the project's environment (ACTIVATE)
    activated: bool = False

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}: {self.shown[:60]}"

    def to_run(self) -> str:
        """The command as the test runs it (with the block's changes applied)."""
        return self.directives.changed(self.shown)


@dataclass
class Link:
    doc: str
    line: int
    target: str


@dataclass
class Document:
    path: Path
    python: list[PythonBlock]
    commands: list[Command]
    links: list[Link]
    code_spans: list[tuple[int, str]]
    headings: list[str]
    #: every directive group read, with the line of the block it precedes
    directives: list[tuple[int, Directives]] = field(default_factory=list)

    @property
    def name(self) -> str:
        return _display(self.path)


def _display(path: Path) -> str:
    """A document's name in messages: relative to the repository when it is inside."""
    return path.relative_to(REPO).as_posix() if path.is_relative_to(REPO) else path.name


def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


def read(path: Path) -> Document:
    """Parse one Markdown file."""
    name = _display(path)
    tokens = _parser().parse(path.read_text(encoding="utf-8"))
    doc = Document(path, [], [], [], [], [])
    pending: Directives | None = None  # read, waiting for the block they belong to
    active = Directives()
    active_until = -1  # the index of the last token the active directives cover
    for i, tok in enumerate(tokens):
        line = (tok.map[0] + 1) if tok.map else 0
        if tok.type == "html_block":
            for target in re.findall(r"""(?:src|href)=["']([^"']+)["']""", tok.content):
                doc.links.append(Link(name, line, target))
            for text in _DIRECTIVE.findall(tok.content):
                pending = pending or Directives()
                pending.add(text, f"{name}:{line}")
            continue
        if pending is not None:  # the first block after the directives takes them
            doc.directives.append((line, pending))
            active, active_until, pending = pending, _closing(tokens, i), None
        here = active if i <= active_until else Directives()
        if tok.type == "heading_open":
            doc.headings.append(tokens[i + 1].content)
        elif tok.type == "fence":
            _fence(doc, tok, line, here)
        elif tok.type == "inline":
            _inline(doc, tok, line, here)
    if pending is not None:
        raise DocError(f"{name}: a docs-test directive with no block after it")
    return doc


def _closing(tokens: list[Token], start: int) -> int:
    """Index of the token that closes the block opened at ``start`` (itself if none)."""
    if tokens[start].nesting != 1:
        return start
    depth = 0
    for j in range(start, len(tokens)):
        depth += tokens[j].nesting
        if depth == 0:
            return j
    return len(tokens) - 1


def _fence(doc: Document, tok: Token, line: int, directives: Directives) -> None:
    lang = (tok.info or "").split()[0].lower() if tok.info else ""
    first = line + 1  # the line after the opening fence
    if lang in PYTHON_LANGS:
        doc.python.append(PythonBlock(doc.name, first, tok.content, directives))
    elif lang in SHELL_LANGS:
        activated = False
        for offset, command in _shell_lines(tok.content, console=lang == "console"):
            doc.commands.append(
                Command(doc.name, first + offset, command, directives, False, activated)
            )
            activated = activated or is_activation(command)


def _shell_lines(text: str, console: bool) -> list[tuple[int, str]]:
    """(line offset, command) for each command of a shell block; continuations joined."""
    out: list[tuple[int, str]] = []
    pending = ""
    start = 0
    for offset, raw in enumerate(text.splitlines()):
        line = raw.rstrip()
        if console and not pending:
            if not line.startswith("$ "):
                continue
            line = line[2:]
        if not pending:
            start = offset
            if not line.strip() or line.lstrip().startswith("#"):
                continue
        if line.endswith("\\"):
            pending += line[:-1].strip() + " "
            continue
        out.append((start, pending + line.strip()))
        pending = ""
    return out


def _inline(doc: Document, tok: Token, line: int, directives: Directives) -> None:
    for child in tok.children or []:
        if child.type == "code_inline":
            doc.code_spans.append((line, child.content))
            if runs_project_program(child.content):
                doc.commands.append(Command(doc.name, line, child.content, directives, True))
        elif child.type == "link_open":
            doc.links.append(Link(doc.name, line, str(child.attrs.get("href", ""))))
        elif child.type == "image":
            doc.links.append(Link(doc.name, line, str(child.attrs.get("src", ""))))
        elif child.type == "html_inline":
            for target in re.findall(r"""(?:src|href)=["']([^"']+)["']""", child.content):
                doc.links.append(Link(doc.name, line, target))


@functools.cache
def console_scripts() -> dict[str, str]:
    """The project's programs: name -> "module:function" (pyproject's [project.scripts],
    as installed)."""
    entry_points = importlib.metadata.distribution("durak").entry_points
    return {ep.name: ep.value for ep in entry_points if ep.group == "console_scripts"}


def command_words(command: str) -> list[str]:
    """The words of a command, leading VAR=value assignments dropped."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        return command.split()
    while words and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=\S*", words[0]):
        words = words[1:]
    return words


#: What a reader types in a new shell to find the project's programs (durak-lan,
#: durak-arena, the environment's python); scripts/*.sh find it by themselves.
ACTIVATE = "source .venv/bin/activate"


def is_activation(command: str) -> bool:
    """Whether a command is ACTIVATE (or its ``.`` form), a comment after it allowed."""
    words = command_words(command)
    return words in (["source", ".venv/bin/activate"], [".", ".venv/bin/activate"])


def runs_project_program(text: str) -> bool:
    """Whether an inline code span is a command running one of the project's programs:
    a program name with arguments (``durak-lan --name Bob``), not the bare name."""
    words = command_words(text)
    if len(words) < 2 or not re.match(r"[A-Za-z_]", text.strip()):
        return False
    if words[0] in console_scripts():
        return True
    if words[0] in ("python", "python3", "bash") and len(words) > 1:
        target = words[1]
        if target == "-m" and len(words) > 2:
            return words[2].split(".")[0] in {s.split(":")[0].split(".")[0]
                                              for s in console_scripts().values()}
        return (REPO / target).is_file()
    return False


# ----------------------------------------------------------------------- anchors


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to '-'."""
    text = unicodedata.normalize("NFC", heading.strip().lower())
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(doc: Document) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for heading in doc.headings:
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out
