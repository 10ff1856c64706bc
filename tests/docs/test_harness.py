"""The executable-docs harness catches what it promises to catch.

Each test writes a small Markdown page with one kind of untruth (a wrong result, a
wrong error, an unchecked result, a stale directive...) and checks that mdexec.py and
run_python.py report it, and that the true version passes: a checker that cannot fail
would be worse than none.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from . import mdexec
from .test_docs import check_without_running, run_python_blocks

FENCE = "`" * 3


def page(tmp_path: Path, text: str) -> mdexec.Document:
    path = tmp_path / "page.markdown"
    path.write_text(text.replace("```", FENCE), encoding="utf-8")
    return mdexec.read(path)


def problems(tmp_path: Path, text: str) -> list[str]:
    return run_python_blocks(page(tmp_path, text), tmp_path)


def test_a_shown_result_is_compared_with_the_real_one(tmp_path: Path) -> None:
    text = "```python\nx = 6 * 7\nx  # -> {}\nstr(x)  # -> '42'\n[x]  # -> [42]\n```\n"
    assert problems(tmp_path, text.format("42")) == []
    (found,) = problems(tmp_path, text.format("41"))
    assert found == "page.markdown:3: the document shows 41 but it gives 42"


def test_a_result_that_is_no_literal_is_compared_as_its_repr(tmp_path: Path) -> None:
    text = "```python\nfrom durak_core import Card\nCard.parse('as')  # -> {}\n```\n"
    assert problems(tmp_path, text.format("Card('A♠')")) == []
    (found,) = problems(tmp_path, text.format("Card('A♥')"))
    assert "shows Card('A♥') but it gives Card('A♠')" in found


def test_a_shown_error_must_be_raised_with_its_message(tmp_path: Path) -> None:
    text = "```python\nint('x')  # raises ValueError: {}\n```\n"
    ok = "invalid literal for int() with base 10: 'x'"
    assert problems(tmp_path, text.format(ok)) == []
    assert problems(tmp_path, text.format("invalid literal...")) == []  # a prefix
    (found,) = problems(tmp_path, text.format("something else"))
    assert "shows 'raises ValueError: something else' but it raised ValueError" in found
    (found,) = problems(tmp_path, "```python\nint('1')  # raises ValueError: x\n```\n")
    assert "but nothing was raised" in found


def test_a_result_comment_without_the_arrow_is_reported(tmp_path: Path) -> None:
    (found,) = problems(tmp_path, "```python\n'abc'.upper()  # 'ABC'\n```\n")
    assert "looks like a result but nothing checks it" in found
    assert problems(tmp_path, "```python\n'abc'.upper()  # shouts it\n```\n") == []


def test_an_example_that_raises_is_reported_with_its_line(tmp_path: Path) -> None:
    (found,) = problems(tmp_path, "Some text.\n\n```python\nx = 1\ny = x / 0\n```\n")
    assert found.startswith("page.markdown:5: raised") and "ZeroDivisionError" in found


def test_blocks_share_one_namespace_in_order(tmp_path: Path) -> None:
    text = "```python\nx = 2\n```\n\nprose\n\n```python\nx * 3  # -> 6\n```\n"
    assert problems(tmp_path, text) == []


def test_doctest_blocks_are_checked(tmp_path: Path) -> None:
    assert problems(tmp_path, "```pycon\n>>> 1 + 1\n2\n```\n") == []
    (found,) = problems(tmp_path, "```pycon\n>>> 1 + 1\n3\n```\n")
    assert "doctest failed" in found


def test_a_block_not_run_is_still_compiled_but_never_executed(tmp_path: Path) -> None:
    marked = "<!-- docs-test: not run: an outline -->\n```python\n{}\n```\n"
    assert problems(tmp_path, marked.format("raise SystemExit(3)")) == []
    (found,) = problems(tmp_path, marked.format("def broken(:"))
    assert "not valid Python" in found


def test_a_change_directive_is_applied_before_running(tmp_path: Path) -> None:
    text = "<!-- docs-test: change 10**100 => 10 -->\n```python\nlen(str(10**100))  # -> 2\n```\n"
    assert problems(tmp_path, text) == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("<!-- docs-test: skip it -->\n\ntext\n", "unknown docs-test directive"),
        ("<!-- docs-test: not run: -->\n\ntext\n", "not run: WHY"),
        ("<!-- docs-test: change a b -->\n\ntext\n", "change OLD => NEW"),
        ("text\n\n<!-- docs-test: needs node -->\n", "no block after it"),
    ],
)
def test_a_malformed_directive_is_an_error(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(mdexec.DocError, match=message):
        page(tmp_path, text)


def test_commands_are_read_from_shell_blocks_and_inline_spans(tmp_path: Path) -> None:
    doc = page(
        tmp_path,
        "<!-- docs-test: change --games 9 => --games 1 -->\n"
        "```bash\n# a comment\ndurak-arena builtin:random \\\n    builtin:greedy --games 9\n"
        "echo hi   # says hi\n```\n\n"
        "```console\n$ durak-lan --name A\nsome output\n```\n\n"
        "Run `durak-lan --name B` or `python benchmarks/core_speed.py`; not `durak-lan`, "
        "`pip install x` or `results.json`.\n",
    )
    assert [c.shown for c in doc.commands] == [
        "durak-arena builtin:random builtin:greedy --games 9",
        "echo hi   # says hi",
        "durak-lan --name A",
        "durak-lan --name B",
        "python benchmarks/core_speed.py",
    ]
    assert doc.commands[0].to_run().endswith("--games 1")
    assert doc.commands[2].to_run() == "durak-lan --name A"  # the change is for its block
    assert [c.line for c in doc.commands] == [4, 6, 10, 14, 14]


def test_a_command_not_run_is_still_checked_against_its_program() -> None:
    check_without_running("durak-arena builtin:random builtin:greedy --games 2")
    with pytest.raises(pytest.fail.Exception, match="refuses these arguments"):
        check_without_running("durak-arena builtin:random --no-such-flag")
    with pytest.raises(AssertionError, match="no such script"):
        check_without_running("bash scripts/no-such-script.sh")


def test_anchors_are_github_slugs(tmp_path: Path) -> None:
    doc = page(tmp_path, "# Where customs differ: the engine's choice\n\n## A bout\n\n## A bout\n")
    assert mdexec.anchors(doc) == {
        "where-customs-differ-the-engines-choice",
        "a-bout",
        "a-bout-1",
    }


def test_commands_after_the_activation_line_of_their_block_are_marked_activated(
    tmp_path: Path,
) -> None:
    """They run as in a new shell after `source .venv/bin/activate`; a later block, and
    the commands before the line, do not inherit it."""
    doc = page(
        tmp_path,
        "```bash\ndurak-lan --name A\nsource .venv/bin/activate   # once a shell\n"
        "durak-arena builtin:random builtin:greedy\n```\n\n"
        "```bash\ndurak-lan --name B\n```\n",
    )
    assert [(c.shown.split()[0], c.activated) for c in doc.commands] == [
        ("durak-lan", False),
        ("source", False),
        ("durak-arena", True),
        ("durak-lan", False),
    ]
    assert mdexec.is_activation(doc.commands[1].shown)
    assert not mdexec.is_activation("source scripts/other.sh")


def test_a_directive_before_a_block_without_commands_is_reported(tmp_path: Path) -> None:
    """A `change` placed one paragraph too early would leave the block it meant to shrink
    running at full size (or on the LAN's shared port)."""
    from .test_docs import test_the_document_follows_the_docs_test_conventions as check

    misplaced = ("<!-- docs-test: change port=1 => port=0 -->\nSome prose.\n\n"
                 "```python\nport=1\n```\n")
    path = tmp_path / "page.markdown"
    path.write_text(misplaced.replace("```", FENCE), encoding="utf-8")
    from . import test_docs as td

    td._DOCS[path] = mdexec.read(path)
    try:
        with pytest.raises(AssertionError, match="directive before a block with no command"):
            check(path)
        path.write_text(misplaced.replace("Some prose.\n\n", ""), encoding="utf-8")
        td._DOCS[path] = mdexec.read(path)
        check(path)
    finally:
        del td._DOCS[path]
