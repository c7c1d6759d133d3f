"""The package's import graph (issue 19): no import cycle. Every import of a ``sixtysix``
module counts, also one deferred into a function (a deferred import hides a cycle from
Python, not from the design); imports only for type checkers do not, nor a notebook's
display hook (``_repr_svg_``, ``_repr_html_``), which imports the picture module on
demand, as python-chess's board does: the pictures are drawn above the core, and the
core's types only offer them."""

from __future__ import annotations

import ast
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
#: layer and the ones below. A module must be placed here (a new one fails until it is).
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("options", ("rules", "states", "errors", "i18n", "version", "stats", "userdata", "glicko", "clock",
                 "extras")),
    ("kernel", ("kernel",)),
    ("values", ("cards", "deck", "actions", "result")),
    ("game", ("hand", "refusal", "worlds", "views", "deal", "match", "record", "observation")),
    ("the loop", ("player", "table")),
    ("search", ("solver", "sampling", "analysis", "net", "bots")),
    ("play", ("runner", "session")),
    ("words", ("text", "explain", "console")),
    ("adapters", ("protocol", "arena", "envs", "compat", "puzzles")),
    ("front ends", ("cli", "tui", "server", "wire", "svg", "review", "lessons", "__main__")),
]


#: Modules that stand above the rest of their package: the bots' registry (``make_bot``)
#: makes every kind of player, an external engine behind the bot protocol included.
PLACED = {"sixtysix.bots": "adapters"}


def layer_of(module: str) -> int:
    """The layer of ``sixtysix.X...`` by its first part ``X``; the package itself (the
    names it re-exports for users) stands above every layer."""
    parts = module.split(".")
    if len(parts) == 1:
        return len(LAYERS)
    if module in PLACED:
        return [name for name, _ in LAYERS].index(PLACED[module])
    for n, (_, names) in enumerate(LAYERS):
        if parts[1] in names:
            return n
    raise AssertionError(f"{module} is in no layer: place it in LAYERS (and docs/architecture.md)")


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
            if module not in ("__main__", "stats", "userdata", "console"):
                assert module in line, f"docs/architecture.md puts {module} elsewhere than {name}"
