"""One fact in one place (issue 35): the faces (bots, wire, views, explain, text, the
page's scripts) ask the rules kernel what a declaration counts, what a marriage is worth,
what a failed close or a false declaration costs and which card the exchange gives, why
an action is refused, what happened in the tricks and how a hand was scored, and never
work it out again. These tests read the sources for the places that used to, so that the
copies cannot come back; the values themselves are tested against the rule book in
test_declarations.py, test_kernel_refusal.py, test_kernel_history.py and
test_kernel_scoring.py."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "sixtysix"
KERNEL = PACKAGE / "kernel"
STATIC = PACKAGE / "server" / "static"

#: The places that counted a declaration themselves (score plus a marriage's value), each
#: a function that now asks the kernel's ``declared_total``: file, function. (The fixed
#: rules of santase-ismcts, once another, are now the kernel's playout policy's.)
DECLARATION_PLACES = [
    ("bots/random_bot.py", "choose"),
    ("bots/levels.py", "choose"),
    ("bots/heuristic.py", "counted_total"),
    ("bots/heuristic.py", "_marriage"),
    ("bots/ismcts.py", "correct_declaration"),
    ("present/wire.py", "seat_view_json"),
]

#: The rules' numbers, which the page's code must not hold (66 to win, 33 Schneider, a
#: marriage's 40 and 20, the Ace's 11; 10 is also the clock's seconds): every number the
#: page shows comes in the server's message.
GAME_NUMBERS = re.compile(r"(?<![\w.$])(66|33|40|20|11)(?![\w.])")
#: A JavaScript comment or string literal (a template's text included).
JS_TEXT = re.compile(r"//[^\n]*|/\*.*?\*/|" r'"(?:\\.|[^"\\\n])*"|' r"'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`",
                     re.S)
#: The rules' numbers the page's words must not hold either: they fill a blank with the
#: number the server sends (the 33 of R9.1 is ``why.threshold``). Not 66: it is the name
#: of the declaration (the notation's ``66``, R8.1: "declare 66"), as much a word as a number.
TEXT_NUMBERS = re.compile(r"(?<![\w.$])(33|40|20|11)(?![\w.])")
#: Strings of the page with one of those numbers that is not the rules': the length of a name.
NOT_RULE_NUMBERS = ("A name has 3 to 20 characters",)


def _faces() -> list[Path]:
    """Every module of the package outside the rules kernel."""
    return sorted(p for p in PACKAGE.rglob("*.py") if KERNEL not in p.parents)


def _calls(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name
               for n in ast.walk(node))


def _marriage_additions(tree: ast.AST) -> list[int]:
    """Lines where a marriage's value is added to something (a total counted by hand)."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp | ast.AugAssign) and isinstance(node.op, ast.Add) \
                and _calls(node, "marriage_value"):
            lines.append(node.lineno)
    return lines


def _forty_or_twenty(tree: ast.AST) -> list[int]:
    """Lines with ``40 if ... else 20`` (either way round): a marriage valued by hand."""
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.IfExp) and isinstance(node.body, ast.Constant)
            and isinstance(node.orelse, ast.Constant) and {node.body.value, node.orelse.value} == {40, 20}]


def _function(tree: ast.AST, name: str) -> ast.FunctionDef:
    found = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name]
    assert len(found) == 1, f"{name}: {len(found)} definitions"
    return found[0]


def _js_code(path: Path) -> str:
    """A script with its comments and strings blanked (the code alone)."""
    return JS_TEXT.sub('""', path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", _faces(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_face_counts_a_declaration_or_values_a_marriage(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert not _marriage_additions(tree), "a declaration counted outside the kernel (kernel.declared_total)"
    assert not _forty_or_twenty(tree), "a marriage valued outside the kernel (kernel.marriage_value)"


@pytest.mark.parametrize(("file", "function"), DECLARATION_PLACES)
def test_the_known_places_ask_the_kernel_what_a_declaration_counts(file: str, function: str) -> None:
    tree = ast.parse((PACKAGE / file).read_text(encoding="utf-8"))
    body = _function(tree, function)
    asks = any(isinstance(n, ast.Name | ast.Attribute) and getattr(n, "id", getattr(n, "attr", None))
               == "declared_total" for n in ast.walk(body))
    assert asks, f"{file}: {function} does not ask declared_total"


def test_the_pure_kernel_values_a_marriage_in_one_function() -> None:
    for path in sorted(KERNEL.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        allowed = [_function(tree, "marriage_value").body[-1].lineno] if path.name == "tables.py" else []
        assert _forty_or_twenty(tree) == allowed, path.name


def test_the_c_kernel_values_a_marriage_and_lays_out_the_deal_once() -> None:
    c = "".join(p.read_text(encoding="utf-8") for p in sorted(KERNEL.glob("_c*.[ch]")))
    assert c.count("? 40 : 20") == 1 and "k_marriage_value(int suit, int trump)" in c
    assert len(re.findall(r"\{\s*0,\s*1,\s*2,\s*6,\s*7,\s*8\s*\}", c)) == 1  # R2.3/R2.4
    assert len(re.findall(r"\{\s*0,\s*1,\s*2,\s*7,\s*8\s*\}", c)) == 1  # S2.1


@pytest.mark.parametrize("path", sorted(STATIC.glob("*.js")), ids=lambda p: p.name)
def test_the_pages_code_holds_no_game_number(path: Path) -> None:
    code = _js_code(path)
    found = [line.strip() for line in code.splitlines() if GAME_NUMBERS.search(line)]
    assert not found, f"{path.name} computes with the rules' numbers: {found}"


@pytest.mark.parametrize("path", sorted(STATIC.glob("*.js")), ids=lambda p: p.name)
def test_the_page_picks_no_card_and_writes_no_game_points_into_its_texts(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"`[9TJQKA]\$\{", text), "a card built by the page (the exchange card is sent)"
    assert not re.search(r"\b\d+ (or \d+ )?game points?\b", text), "game points written in, not sent"


def test_the_page_shows_what_the_server_sends() -> None:
    scripts = "".join(_js_code(p) for p in sorted(STATIC.glob("*.js")))
    for field in ("exchange_card", "failed_close_points", "false_declaration_points", "declare_counts"):
        assert f".{field}" in scripts, field


def _js_strings(path: Path) -> list[str]:
    """A script's string literals (its comments left out)."""
    return [m.group(0) for m in JS_TEXT.finditer(path.read_text(encoding="utf-8"))
            if not m.group(0).startswith(("//", "/*"))]


@pytest.mark.parametrize("path", sorted(STATIC.glob("*.js")), ids=lambda p: p.name)
def test_the_pages_words_hold_no_rule_number(path: Path) -> None:
    found = [text for text in _js_strings(path)
             if TEXT_NUMBERS.search(text) and not any(ok in text for ok in NOT_RULE_NUMBERS)]
    assert not found, f"{path.name} writes the rules' numbers into its words: {found}"


# The three places that decided rules outside the kernel: refusal's tree, public_view's replay
# and explain's recomputation (issue 35, item 1).

def _attributes(tree: ast.AST) -> set[str]:
    return {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}


def _names_called(tree: ast.AST) -> set[str]:
    called = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            called.add(node.func.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            called.add(node.func.attr)
    return called


def _imported(tree: ast.AST) -> set[str]:
    return {f"{n.module}.{a.name}" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}


def test_refusal_only_words_the_kernels_reason() -> None:
    """No second legality tree: refusal.py reads neither the state's phase, stock and tricks
    nor the rules' options; the kernel's State.refusal decides."""
    tree = ast.parse((PACKAGE / "game" / "refusal.py").read_text(encoding="utf-8"))
    function = _function(tree, "refusal")
    state_reads = _attributes(function) & {"phase", "stock_size", "stock_open", "tricks_won", "hand",
                                           "exchange_card", "closed_by", "legal_mask"}
    assert not state_reads, f"refusal reads the state to decide: {state_reads}"
    rules_reads = [n.attr for n in ast.walk(function) if isinstance(n, ast.Attribute)
                   and isinstance(n.value, ast.Name) and n.value.id == "rules"]
    assert not rules_reads, f"refusal reads the rules' options: {rules_reads}"
    assert not {name for name in _imported(tree)
                if name.startswith(("sixtysix.rules.", "sixtysix.game.actions."))
                and not name.endswith((".Rules", ".Action"))}, "refusal imports the rules' options or codes"
    assert "refusal" in _attributes(function), "refusal does not ask the kernel"


def test_the_public_view_replays_nothing() -> None:
    """views.public_view reads the kernel's record of the tricks, marriages and exchange; it
    neither walks the actions nor judges a trick or values a marriage."""
    body = _function(ast.parse((PACKAGE / "game" / "views.py").read_text(encoding="utf-8")), "public_view")
    loops = [n for n in ast.walk(body) if isinstance(n, ast.For | ast.While)]
    assert not loops, "public_view walks the actions"
    judged = _names_called(body) & {"beats", "follow_mask", "marriage_value", "declared_total", "conceded"}
    assert not judged, f"public_view decides a rule: {judged}"
    assert {"trick_history", "marriages_shown", "exchanged"} <= _names_called(body)


def test_explain_translates_the_kernels_scoring() -> None:
    """explain reads the kernel's scoring off the result: it does not pick the scale by the
    rules' options or count the loser's points before the close from the tricks."""
    tree = ast.parse((PACKAGE / "present" / "explain.py").read_text(encoding="utf-8"))
    body = _function(tree, "explain")
    decided = _attributes(body) & {"close_scoring", "failed_close", "false_declaration", "played_out",
                                   "marriage_counts", "counted_marriages", "tricks", "closed_at", "points"}
    assert not decided, f"explain works the scoring out itself: {decided}"
    assert not {name for name in _imported(tree) if name.startswith("sixtysix.rules.")}, \
        "explain imports the rules' options"
    assert "scored" in _attributes(body), "explain does not read the kernel's scoring"
