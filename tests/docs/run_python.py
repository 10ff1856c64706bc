"""Run a document's Python blocks as a reader would, and check the results they show.

Started by test_docs.py in a fresh interpreter per document, with the blocks as JSON on
stdin (``[{"doc", "line", "code", "run"}]``); writes a JSON list of problems to the file
named by its argument (empty when the document tells the truth).  The blocks share one
namespace, top to bottom, as in one notebook or REPL session.  See mdexec.py for the conventions:
``# -> VALUE`` and ``# raises Error: message`` after a statement, ``>>>`` doctests.
"""

from __future__ import annotations

import ast
import doctest
import io
import json
import sys
import tokenize
import traceback
from typing import Any

#: A comment that shows a result without the arrow is a mistake: nothing would check it.
_LOOKS_LIKE_A_RESULT = ("'", '"', "[", "{", "(", "True", "False", "None", "<")


def comments(code: str) -> dict[int, str]:
    """The comment text of each line (1-based within the block) that has one."""
    out: dict[int, str] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(code).readline):
            if tok.type == tokenize.COMMENT:
                out[tok.start[0]] = tok.string[1:].strip()
    except (tokenize.TokenError, SyntaxError):
        pass
    return out


def literal(text: str) -> tuple[bool, Any]:
    try:
        return True, ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None


def run_block(block: dict[str, Any], namespace: dict[str, Any], problems: list[str]) -> None:
    doc, first, code = block["doc"], block["line"], block["code"]
    if code.lstrip().startswith(">>>"):
        run_doctest(block, namespace, problems)
        return
    try:
        tree = ast.parse(code, filename=doc)
    except SyntaxError as exc:
        problems.append(f"{doc}:{first + (exc.lineno or 1) - 1}: not valid Python: {exc.msg}")
        return
    if not block["run"]:
        return  # marked "not run": compiling it was the check
    notes = comments(code)
    ast.increment_lineno(tree, first - 1)  # tracebacks name the document's own lines
    for stmt in tree.body:
        end = (stmt.end_lineno or stmt.lineno) - first + 1
        note = notes.get(end, "")
        where = f"{doc}:{stmt.lineno}"
        shown = None
        if note.startswith("->"):
            shown = note[2:].strip()
            if not isinstance(stmt, ast.Expr):
                problems.append(f"{where}: '# -> {shown}' follows a statement, not an expression")
                continue
        elif note.startswith("raises "):
            expect_raise(stmt, note[len("raises "):].strip(), where, namespace, problems)
            continue
        elif isinstance(stmt, ast.Expr) and (
            note.startswith(_LOOKS_LIKE_A_RESULT) or (note and literal(note)[0])
        ):
            problems.append(
                f"{where}: the comment {note!r} looks like a result but nothing checks it: "
                "write '# -> VALUE' (or reword it)"
            )
        try:
            if shown is not None:
                assert isinstance(stmt, ast.Expr)
                value = eval(compile(ast.Expression(stmt.value), doc, "eval"), namespace)
            else:
                exec(compile(ast.Module([stmt], []), doc, "exec"), namespace)
                continue
        except Exception:
            problems.append(f"{where}: raised\n{traceback.format_exc(limit=-3)}")
            return  # later statements would only fail for the same reason
        is_literal, expected = literal(shown)
        same = value == expected if is_literal else repr(value) == shown
        if not same:
            problems.append(f"{where}: the document shows {shown} but it gives {value!r}")


def expect_raise(
    stmt: ast.stmt, shown: str, where: str, namespace: dict[str, Any], problems: list[str]
) -> None:
    kind, _, message = shown.partition(":")
    message = message.strip()
    try:
        exec(compile(ast.Module([stmt], []), where.split(":")[0], "exec"), namespace)
    except Exception as exc:
        got = f"{type(exc).__name__}: {exc}"
        prefix = message.endswith("...")
        if type(exc).__name__ != kind.strip() or not (
            str(exc).startswith(message[:-3]) if prefix else str(exc) == message
        ):
            problems.append(f"{where}: the document shows 'raises {shown}' but it raised {got}")
        return
    problems.append(f"{where}: the document shows 'raises {shown}' but nothing was raised")


def run_doctest(block: dict[str, Any], namespace: dict[str, Any], problems: list[str]) -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(block["code"], namespace, block["doc"], block["doc"], block["line"])
    if not block["run"]:
        return
    out = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=out.write, clear_globs=False)
    if runner.failures:
        problems.append(f"{block['doc']}:{block['line']}: doctest failed\n{out.getvalue()}")


def main() -> int:
    report = sys.argv[1]  # a file, so that what the blocks print cannot garble the report
    blocks = json.load(sys.stdin)
    namespace: dict[str, Any] = {"__name__": "__main__"}
    problems: list[str] = []
    for block in blocks:
        run_block(block, namespace, problems)
    with open(report, "w", encoding="utf-8") as f:
        json.dump(problems, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
