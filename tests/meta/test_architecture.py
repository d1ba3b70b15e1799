"""Architecture rules checked on the source: reference_model is pure, reports never do I/O."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ALLOWED_THIRD_PARTY = frozenset({"attrs", "cfconform.reference_model"})
#: Standard-library modules the model must not use: I/O, clocks, randomness, processes.
FORBIDDEN_IN_MODEL = frozenset(
    {
        "os",
        "io",
        "sys",
        "time",
        "datetime",
        "random",
        "logging",
        "socket",
        "subprocess",
        "threading",
        "pathlib",
        "tempfile",
        "shutil",
        "secrets",
        "uuid",
    }
)
FILE_METHODS = frozenset({"open", "read_text", "write_text", "read_bytes", "write_bytes"})


def _modules(package: str) -> list[Path]:
    return sorted(p for p in (REPO / package).rglob("*.py") if "__pycache__" not in p.parts)


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _top(module: str) -> str:
    """The top-level name of an absolute import, ``cfconform.<package>`` for ours."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "cfconform" else parts[0]


def _imports(path: Path) -> list[tuple[int, str]]:
    """``(line, top-level module)`` of every absolute import in ``path`` (a package's own are relative)."""
    found = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, _top(alias.name)) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, _top(node.module)))
    return found


def _open_calls(path: Path) -> list[str]:
    """``open(...)`` and file-method calls (``.open``, ``.read_text``, ...) in ``path``."""
    found = []
    for node in ast.walk(_tree(path)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if (isinstance(func, ast.Name) and func.id == "open") or (
            isinstance(func, ast.Attribute) and func.attr in FILE_METHODS
        ):
            found.append(f"{path.relative_to(REPO)}:{node.lineno}")
    return found


def test_reference_model_imports_only_stdlib_attrs_and_itself():
    allowed = set(sys.stdlib_module_names) | ALLOWED_THIRD_PARTY
    bad = [
        f"{p.relative_to(REPO)}:{line}: {mod}"
        for p in _modules("reference_model")
        for line, mod in _imports(p)
        if mod not in allowed
    ]
    assert [] == bad


def test_reference_model_imports_no_io_clock_or_randomness_module():
    bad = [
        f"{p.relative_to(REPO)}:{line}: {mod}"
        for p in _modules("reference_model")
        for line, mod in _imports(p)
        if mod in FORBIDDEN_IN_MODEL
    ]
    assert [] == bad


def test_reference_model_never_calls_open():
    assert [] == [call for p in _modules("reference_model") for call in _open_calls(p)]


def test_reports_never_call_open():
    assert [] == [call for p in _modules("reports") for call in _open_calls(p)]


def test_reports_never_import_pyspark():
    bad = [
        f"{p.relative_to(REPO)}:{line}" for p in _modules("reports") for line, mod in _imports(p) if mod == "pyspark"
    ]
    assert [] == bad
