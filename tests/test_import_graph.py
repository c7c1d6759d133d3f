"""The package's import graph (issue 19): no import cycle. Every import of a ``sixtysix``
module counts, also one deferred into a function (a deferred import hides a cycle from
Python, not from the design); imports only for type checkers do not, nor a notebook's
display hook (``_repr_svg_``, ``_repr_html_``), which imports the picture module on
demand, as python-chess's board does: the pictures are drawn above the core, and the
core's types only offer them."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "sixtysix"

#: Cycles allowed for now (none: a new one must be broken, not listed).
KNOWN: list[frozenset[str]] = []


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def import_graph() -> dict[str, set[str]]:
    """``module -> the sixtysix modules it imports`` (anywhere but under TYPE_CHECKING)."""
    known = modules()

    def owner(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]

        def add(target: str | None, name: str = name) -> None:
            if target is not None and target != name:
                graph[name].add(target)

        def visit(node: ast.AST, package: str = package) -> None:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("_repr_") and \
                    node.name.endswith("_"):
                return  # a display hook (see the module)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                for child in node.orelse:
                    visit(child)
                return
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("sixtysix"):
                        add(owner(alias.name))
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[:len(package.split(".")) - node.level + 1]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                if source.startswith("sixtysix"):
                    for alias in node.names:
                        full = f"{source}.{alias.name}"
                        add(owner(full) if full in known else owner(source))
            for child in ast.iter_child_nodes(node):
                visit(child)

        visit(ast.parse(path.read_text(encoding="utf-8")))
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


def test_the_cycle_finder_finds_a_cycle_and_only_cycles() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset("abc")]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_new_import_cycle() -> None:
    found = set(cycles(import_graph()))
    new = [sorted(c) for c in found if c not in KNOWN]
    gone = [sorted(c) for c in KNOWN if c not in found]
    assert not new, f"import cycles: {new}"
    assert not gone, f"allowed cycles that are gone: take them off KNOWN: {gone}"


#: The layers of docs/architecture.md, lowest first: a module imports only from its own
#: layer and the ones below. A layer is a list of module paths below ``sixtysix``; a module
#: belongs to the longest that it starts with, so a subpackage can spread over several
#: layers (``game``: values, then the hand and what a seat sees, then the table). A module
#: must be placed here (a new one fails until it is).
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("options", ("rules", "states", "errors", "i18n", "version", "moved", "extras")),
    ("measures", ("measure",)),
    ("kernel", ("kernel",)),
    ("values", ("game", "game.cards", "game.deck", "game.actions", "game.result")),
    ("game", ("game.hand", "game.refusal", "game.worlds", "game.views", "game.deal", "game.match",
              "game.record", "game.observation")),
    ("the loop", ("game.player", "game.table")),
    ("search", ("search", "bots")),
    ("play", ("play",)),
    ("words", ("present",)),
    ("adapters", ("protocol", "arena", "envs", "compat", "puzzles")),
    ("front ends", ("cli", "tui", "server", "__main__")),
]


#: Modules that stand above the rest of their package: the bots' registry (``make_bot``)
#: makes every kind of player, an external engine behind the bot protocol included.
PLACED = {"sixtysix.bots": "adapters"}


def layer_of(module: str) -> int:
    """The layer of ``sixtysix.X.Y...`` by the longest path of :data:`LAYERS` it starts with;
    the package itself (the names it re-exports for users) stands above every layer."""
    parts = module.split(".")
    if len(parts) == 1:
        return len(LAYERS)
    if module in PLACED:
        return [name for name, _ in LAYERS].index(PLACED[module])
    inner = ".".join(parts[1:])
    best: tuple[int, int] | None = None
    for n, (_, paths) in enumerate(LAYERS):
        for path in paths:
            if (inner == path or inner.startswith(path + ".")) and (best is None or len(path) > best[1]):
                best = (n, len(path))
    if best is None:
        raise AssertionError(f"{module} is in no layer: place it in LAYERS (and docs/architecture.md)")
    return best[0]


def test_every_import_goes_down_the_layers() -> None:
    graph = import_graph()
    upward = sorted(f"{a} ({LAYERS[layer_of(a)][0]}) imports {b} "
                    f"({LAYERS[layer_of(b)][0] if layer_of(b) < len(LAYERS) else 'the package'})"
                    for a, targets in graph.items() for b in targets
                    if layer_of(a) < layer_of(b) and a != "sixtysix")
    assert not upward, "imports that go up a layer:\n" + "\n".join(upward)


def test_the_architecture_page_names_every_layer() -> None:
    page = (PACKAGE.parent.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    for name, modules_ in LAYERS:
        line = next((ln for ln in page.splitlines() if ln.startswith(f" {name} ")), None)
        assert line is not None, f"docs/architecture.md has no line for the layer {name!r}"
        for module in modules_:
            package, _, short = module.rpartition(".")
            assert short in line and package in line, \
                f"docs/architecture.md puts {module} elsewhere than {name}"


def _top_level_imports(path: Path) -> tuple[set[str], set[str]]:
    """What ``path`` imports at its top level (not inside a function or only for type
    checkers): the ``sixtysix`` modules and the other packages, by their first name."""
    own: set[str] = set()
    other: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if path.name == "__init__.py":
        package = package.rpartition(".")[0] + "." + "__init__"
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if isinstance(node, ast.ClassDef):
                stack.extend(node.body)
            continue
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                (own if alias.name.startswith("sixtysix") else other).add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level:
                base = package.split(".")[:-node.level]
                source = ".".join(base + ([source] if source else []))
            if source.startswith("sixtysix"):
                own.update(f"{source}.{alias.name}" for alias in node.names)
                own.add(source)
            else:
                other.add(source)
        else:
            stack.extend(ast.iter_child_nodes(node))
    return own, {name.split(".")[0] for name in other}


def _deferred_imports() -> list[tuple[str, str]]:
    """``(module, the sixtysix module it imports inside a function)``, display hooks aside."""
    known = modules()
    found = []
    for name, path in known.items():
        for function in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) or \
                    function.name.startswith("_repr_"):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sixtysix"):
                    found.append((name, node.module or ""))
                elif isinstance(node, ast.Import):
                    found += [(name, a.name) for a in node.names if a.name.startswith("sixtysix")]
    return found


def _needs_a_third_party_package(module: str) -> bool:
    """Whether importing ``module`` imports, at some top level, a package outside the
    standard library (an optional extra: the core is standard library only)."""
    known = modules()
    seen, todo = set(), [module]
    while todo:
        name = todo.pop()
        while name and name not in known:
            name = name.rpartition(".")[0]
        if not name or name in seen:
            continue
        seen.add(name)
        todo.append(name.rpartition(".")[0])  # a module's package is imported first
        own, other = _top_level_imports(known[name])
        if other - set(sys.stdlib_module_names) - {"__future__", "_typeshed"}:
            return True
        todo.extend(own)
    return False


def test_the_rule_finds_a_third_party_package_behind_a_module() -> None:
    assert _needs_a_third_party_package("sixtysix.server")  # FastAPI
    assert _needs_a_third_party_package("sixtysix.search.net")  # numpy
    assert not _needs_a_third_party_package("sixtysix.game.hand")
    assert not _needs_a_third_party_package("sixtysix.tui")  # only says whether Textual is there


def test_a_module_is_imported_inside_a_function_only_for_an_optional_extra() -> None:
    """Imports sit at the top of modules; inside a function only a display hook's picture
    (see the module) or a module that needs an optional package (Textual, FastAPI, numpy,
    the course platform's ``schnapsen``), so that the core imports without them."""
    wrong = [f"{module} imports {target} inside a function"
             for module, target in _deferred_imports() if not _needs_a_third_party_package(target)]
    assert not wrong, "\n".join(wrong)
