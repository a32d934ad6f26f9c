"""grounding/ is framework-free: no module in it imports Django or the Django apps."""

import ast
from pathlib import Path

GROUNDING = Path(__file__).resolve().parents[2] / "grounding"
FORBIDDEN = ("django", "channels", "chat", "knowledge", "config")


def test_grounding_imports_no_django():
    offenders = []
    for path in sorted(GROUNDING.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert offenders == []
    assert len(list(GROUNDING.glob("*.py"))) >= 8  # the check really looked at the package
