"""What adapters/ may import (adapters/README.md)."""

from __future__ import annotations

import ast
import sys

from tests.adapters.conftest import REPO

ALLOWED = set(sys.stdlib_module_names) | {"attrs", "cfconform.reference_model", "cfconform.adapters"}
#: Optional imports, each guarded by ``try/except ImportError`` in the named module.
OPTIONAL = {"adapters/wire/schemas.py": {"jsonschema"}}
PROCESS_MODULES = {"subprocess", "threading", "selectors", "signal", "fcntl"}


def _top(module: str) -> str:
    """The distribution-level name of an absolute import: ``cfconform.<package>`` for ours."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "cfconform" else parts[0]


def imports(path) -> list[tuple[int, str]]:
    """``(line, top)`` of every absolute import (imports within adapters/ are relative)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, _top(a.name)) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, _top(node.module)))
    return found


def adapter_files():
    return sorted(p for p in (REPO / "adapters").rglob("*.py") if "__pycache__" not in p.parts)


def test_adapters_import_only_the_stdlib_attrs_and_the_model():
    bad = []
    for path in adapter_files():
        rel = str(path.relative_to(REPO))
        bad += [f"{rel}:{line}: {mod}" for line, mod in imports(path)
                if mod not in ALLOWED and mod not in OPTIONAL.get(rel, set())]  # fmt: skip
    assert [] == bad


#: The wire client's own modules: the adapter, the process and its framing, and the processes left behind.
WIRE_PROCESS_MODULES = ("adapters/wire/client.py", "adapters/wire/process.py", "adapters/wire/strays.py")


def test_only_the_wire_client_manages_processes():
    bad = []
    for path in adapter_files():
        rel = str(path.relative_to(REPO))
        if rel in WIRE_PROCESS_MODULES:
            continue
        bad += [f"{rel}:{line}: {mod}" for line, mod in imports(path) if mod in PROCESS_MODULES]
    assert [] == bad


def test_no_shell_and_no_eval_in_the_wire_package():
    for path in (REPO / "adapters" / "wire").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "shell=True" not in text, path
        calls = [
            n.func.id for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
        ]
        assert not {"eval", "exec"} & set(calls), path
