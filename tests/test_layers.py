"""The rules core imports nothing from its front ends (architecture.md, "Layers")."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "battleline"
FRONT_ENDS = (
    "battleline.cli",
    "battleline.server",
    "battleline.ai",
    "battleline.sim",
    "battleline.tabletop",
    "battleline.printing",
)
CORE = ("engine", "rulesets", "errors.py")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_core_never_imports_a_front_end() -> None:
    offenders = []
    for part in CORE:
        root = SRC / part
        files = [root] if root.is_file() else sorted(root.rglob("*.py"))
        for path in files:
            bad = {n for n in _imports(path) if n.startswith(FRONT_ENDS)}
            if bad:
                offenders.append(f"{path.relative_to(SRC)} imports {sorted(bad)}")
    assert not offenders, "\n".join(offenders)


def test_no_module_in_the_core_uses_the_random_module() -> None:
    offenders = [
        str(path.relative_to(SRC))
        for part in ("engine", "rulesets")
        for path in sorted((SRC / part).rglob("*.py"))
        if "random" in _imports(path)
    ]
    assert not offenders


def test_the_engine_knows_no_rule_system() -> None:
    """Issue 11: the engine never imports a ruleset, nor the top module that knows them."""
    offenders = []
    for path in sorted((SRC / "engine").rglob("*.py")):
        bad = {
            n
            for n in _imports(path)
            if n.startswith(("battleline.rulesets", "battleline.game")) or n in FRONT_ENDS
        }
        if bad or "rulesets" in path.read_text(encoding="utf-8"):
            offenders.append(f"{path.relative_to(SRC)}: {sorted(bad) or 'names rulesets'}")
    assert not offenders, "\n".join(offenders)
