"""The layers of ARCHITECTURE.md, as import-linter contracts (pyproject.toml, [tool.importlinter]).

In the repository the package folders sit side by side, not below cfconform/ (setuptools maps them
there on install), so grimp cannot find them; the test lays them out as an install does in a temporary
directory and runs ``lint-imports`` there.  Every import counts: ``if TYPE_CHECKING:`` imports and
imports inside functions too.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def _lay_out(into: Path) -> None:
    """Copy each package folder's Python files to where an install puts them (cfconform/<folder>/...)."""
    for name, folder in PYPROJECT["tool"]["setuptools"]["package-dir"].items():
        target = into.joinpath(*name.split("."))
        for path in (REPO / folder).rglob("*.py"):
            if "__pycache__" in path.parts or name in ("cfconform.docs", "cfconform.examples"):
                continue
            dst = target / path.relative_to(REPO / folder)
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dst)


def test_the_contracts_are_the_architectures():
    config = PYPROJECT["tool"]["importlinter"]
    assert ["cfconform"] == config["root_packages"]
    assert config["exclude_type_checking_imports"] is False
    ids = [c["id"] for c in config["contracts"]]
    assert ["layers", "acyclic", "core-without-spark", "pure-model", "pure-reports"] == ids
    (layers,) = (c for c in config["contracts"] if c["id"] == "layers")
    expected = [
        "cfconform.cli", "cfconform.spark_fuzz", "cfconform.conformance", "cfconform.properties | cfconform.reports",
        "cfconform.judge", "cfconform.adapters", "cfconform.reference_model",
    ]  # fmt: skip
    assert expected == layers["layers"]


def test_every_contract_is_kept(tmp_path):
    pytest.importorskip("importlinter")
    _lay_out(tmp_path)
    script = Path(sys.executable).with_name("lint-imports")
    argv = [str(script)] if script.exists() else [sys.executable, "-m", "importlinter.cli"]
    done = subprocess.run(
        [*argv, "--no-cache", str(REPO / "pyproject.toml")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert 0 == done.returncode, done.stdout[-6000:] + done.stderr[-2000:]
    assert "Contracts: 5 kept, 0 broken." in done.stdout
    analyzed = int(done.stdout.split("Analyzed ", 1)[1].split(" files", 1)[0])
    assert analyzed >= len(list(tmp_path.rglob("*.py")))  # the laid-out tree, not the 2 files of cfconform/
