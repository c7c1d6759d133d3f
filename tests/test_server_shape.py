"""The game server stays in rooms (issue 35): no class of ``sixtysix.server`` over
400 lines, no function over 80 lines or of a McCabe complexity over 20. The sizes are
read from the source's syntax tree, and the complexity counted on it here (each
decision adds a path), not taken from the linter the code is checked with."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

SERVER = Path(__file__).resolve().parent.parent / "src" / "sixtysix" / "server"

MAX_CLASS_LINES = 400
MAX_FUNCTION_LINES = 80
MAX_COMPLEXITY = 20

Function = ast.FunctionDef | ast.AsyncFunctionDef


def lines(node: ast.ClassDef | Function) -> int:
    """The lines a definition spans, its decorators and docstring included."""
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return (node.end_lineno or node.lineno) - first + 1


def _decisions(node: ast.AST) -> int:
    """The decisions in ``node`` itself, not in the functions and classes defined in it
    (each of those is measured on its own)."""
    count = 0
    for child in ast.iter_child_nodes(node):
        if isinstance(child, Function | ast.ClassDef):
            continue
        if isinstance(child, ast.If | ast.IfExp | ast.For | ast.AsyncFor | ast.While | ast.ExceptHandler
                      | ast.match_case | ast.Assert):
            count += 1
        elif isinstance(child, ast.comprehension):
            count += 1 + len(child.ifs)
        elif isinstance(child, ast.BoolOp):
            count += len(child.values) - 1
        count += _decisions(child)
    return count


def complexity(function: Function) -> int:
    """McCabe's number of a function: one path, and one more for each decision (an
    ``if`` or ``elif``, a loop, an ``except``, a ``case``, a conditional expression, a
    comprehension's ``for`` and ``if``, each further operand of ``and``/``or``)."""
    return 1 + _decisions(function)


def measure(source: str, name: str = "module") -> list[str]:
    """What in ``source`` is too large or too complex, one line each."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and lines(node) > MAX_CLASS_LINES:
            found.append(f"{name}: class {node.name} has {lines(node)} lines (at most {MAX_CLASS_LINES})")
        if isinstance(node, Function):
            if lines(node) > MAX_FUNCTION_LINES:
                found.append(f"{name}: {node.name} has {lines(node)} lines (at most {MAX_FUNCTION_LINES})")
            if complexity(node) > MAX_COMPLEXITY:
                found.append(f"{name}: {node.name} has complexity {complexity(node)} "
                             f"(at most {MAX_COMPLEXITY})")
    return found


def test_the_measures_count_what_they_say() -> None:
    branchy = textwrap.dedent("""
        def f(x):
            if x and y or z:        # 1 + 2
                pass
            elif x:                 # 1
                pass
            for a in b:             # 1
                while c:            # 1
                    pass
            try:
                pass
            except ValueError:      # 1
                pass
            return [a for a in b if a]  # 2

            def inner(q):           # measured on its own
                if q:
                    pass
    """)
    function = ast.parse(branchy).body[0]
    assert isinstance(function, ast.FunctionDef)
    assert complexity(function) == 10
    assert lines(function) == 17
    inner = function.body[-1]
    assert isinstance(inner, ast.FunctionDef) and complexity(inner) == 2


def test_the_measures_find_a_long_class_a_long_function_and_a_tangled_one() -> None:
    long_function = "def long():\n" + "    x = 1\n" * 80
    tangled = "def tangled(x):\n" + "".join(f"    if x == {n}:\n        pass\n" for n in range(20))
    long_class = "class Big:\n" + "".join(f"    def m{n}(self):\n        return {n}\n" for n in range(200))
    assert measure(long_function) == ["module: long has 81 lines (at most 80)"]
    assert measure(tangled) == ["module: tangled has complexity 21 (at most 20)"]
    assert measure(long_class) == ["module: class Big has 401 lines (at most 400)"]
    just = long_function[:-len("    x = 1\n")] + tangled[:-len("    if x == 19:\n        pass\n")]
    assert measure(just) == []


def test_no_server_class_function_or_branching_outgrows_its_room() -> None:
    modules = sorted(SERVER.glob("*.py"))
    assert any(path.name == "app.py" for path in modules)
    found = [problem for path in modules
             for problem in measure(path.read_text(encoding="utf-8"), f"server/{path.name}")]
    assert not found, "\n".join(found)
