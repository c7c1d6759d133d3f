"""A Griffe extension for the API pages: our docstrings are prose in
reStructuredText habits (``code``, :class:`~pkg.Name` roles, doctest
examples, simple tables); this turns them into the Markdown the site renders.

Used by mkdocstrings (``extensions`` in mkdocs.yml); the package's own
docstrings are left as they are for ``help()`` and the doctests.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(
    r":(?:py:)?(?:class|func|meth|mod|attr|data|exc|obj|const):`(~?)([^`<]+?)\s*(?:<[^`>]+>)?`")
#: Inline markup may run over a line break, never over a blank line.
_LITERAL = re.compile(r"``((?:(?!\n\s*\n).)+?)``", flags=re.DOTALL)
_BORDER = re.compile(r"^ *=+( +=+)+ *$")


def _role(match: re.Match[str], module: str | None = None) -> str:
    """A cross-reference role: ``:class:`~a.B``` shows `B`, ``:meth:`T <a.b>``` shows `T`.

    A path into the package, or a name relative to ``module``, becomes an
    optional cross-reference: a link when the object is on an API page, plain
    code otherwise.
    """
    tilde, target = match.groups()
    target = " ".join(target.split()).removesuffix("()")
    explicit = re.search(r"<([^<>]+)>`$", match.group(0))
    path = explicit.group(1).removesuffix("()") if explicit else target
    name = target.rsplit(".", 1)[-1] if tilde else target
    if not path.startswith("sixtysix.") and module is not None:
        path = f"{module}.{path}"
    if path.startswith("sixtysix."):
        return f'<autoref identifier="{path}" optional><code>{name}</code></autoref>'
    return f"`{name}`"


def _inline(text: str, module: str | None) -> str:
    return _LITERAL.sub(r"`\1`", _ROLE.sub(lambda m: _role(m, module), text))


def _table(rows: list[str]) -> list[str]:
    """A reStructuredText simple table (``===`` borders) as a Markdown table."""
    border = next(r for r in rows if _BORDER.match(r))
    starts = [m.start() for m in re.finditer(r"=+", border)]
    cells = []
    for row in rows:
        if _BORDER.match(row) or not row.strip():
            continue
        bounds = [*starts[1:], None]
        cells.append([row[a:b].strip() for a, b in zip(starts, bounds, strict=True)])
    header, *body = cells
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in body]
    return lines


def rst_to_markdown(text: str, module: str | None = None) -> str:
    """Convert one docstring (of an object in ``module``, for relative references).

    >>> rst_to_markdown("Use ``x`` and :class:`~a.b.C`.")
    'Use `x` and `C`.'
    """
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        indent = line[: len(line) - len(stripped)]
        if stripped.startswith(">>>"):
            # A doctest block: up to the next blank line.
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i].strip())
                i += 1
            if out and out[-1].strip():
                out.append("")
            out += [f"{indent}```pycon", *(indent + b for b in block), f"{indent}```"]
            continue
        if _BORDER.match(line) and i + 2 < len(lines):
            # A simple table: three borders (top, under the header, bottom).
            end, borders = i, 0
            while end < len(lines) and borders < 3:
                borders += bool(_BORDER.match(lines[end]))
                end += 1
            out += _table(lines[i:end])
            i = end
            continue
        if stripped.endswith("::") and not stripped.startswith(".."):
            # A literal block follows: fence the indented lines after it.
            out.append(line[:-1] if line.endswith("::") else line)
            i += 1
            while i < len(lines) and not lines[i].strip():
                i += 1
            block = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith(indent + " ")):
                block.append(lines[i])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            depth = min(len(b) - len(b.lstrip()) for b in block if b.strip()) if block else 0
            out += ["", f"{indent}```", *(indent + b[depth:] for b in block), f"{indent}```", ""]
            continue
        out.append(line)
        i += 1
    # Inline markup last, on the prose between fenced blocks (it may span lines).
    parts = re.split(r"(^ *```.*?^ *```$)", "\n".join(out), flags=re.DOTALL | re.MULTILINE)
    return "".join(part if n % 2 else _inline(part, module) for n, part in enumerate(parts))


class RstDocstrings(griffe.Extension):
    """Rewrite every docstring once, when its object is created."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = rst_to_markdown(obj.docstring.value, obj.module.path)
