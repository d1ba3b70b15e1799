"""What an install of cfconform carries (issue 25): one import name, a core without Spark, pandas or
pyarrow, and a wheel holding every file the CLI and README.md point to.

The wheel is built in the test from a copy of the sources with ``pip wheel`` (about 5 s).
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from cfconform.cli.main import main

REPO = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]
#: Packages of data, not code.
DATA = ("cfconform.docs", "cfconform.examples")
#: What the core install must never need (the `spark` extra's).
SPARK_ONLY = ("pyspark", "pyarrow", "pandas")
#: Paths README.md or the CLI names that describe the repository, not an install: the project's own tests,
#: benchmarks and CI, the independent readings kept as regression material, the IBM texts beside it,
#: and the repository's top-level documents.
REPOSITORY_ONLY = (
    "tests/", "benchmarks/", ".ci/", "../shared/", "examples/second-reading", "examples/third-reading",
    "ARCHITECTURE.md", "CHANGELOG.md", "README.md",
)  # fmt: skip
#: Files an installed wheel must carry whatever the texts say.
REQUIRED = (
    "cfconform/docs/PROTOCOL.md",
    "cfconform/examples/node-adapter/adapter.js",
    "cfconform/examples/node-adapter/README.md",
    "cfconform/spark_fuzz/README.md",
    "cfconform/spark_fuzz/log4j2-quiet.properties",
    *(f"cfconform/docs/schemas/{p.name}" for p in sorted((REPO / "docs" / "schemas").glob("*.json"))),
)


def test_every_package_folder_installs_below_cfconform():
    """Each folder with an __init__.py is a listed package, mapped from its folder; nothing else is top-level."""
    mapping = SETUPTOOLS["package-dir"]
    folders = {folder: name for name, folder in mapping.items()}
    found = set()
    for init in REPO.glob("*/**/__init__.py"):
        rel = init.parent.relative_to(REPO)
        if rel.parts[0] in folders:
            found.add(".".join((folders[rel.parts[0]], *rel.parts[1:])))
    code = {p for p in SETUPTOOLS["packages"] if not p.startswith(DATA)}
    assert sorted(found) == sorted(code)
    assert {"cfconform"} == {name.split(".")[0] for name in SETUPTOOLS["packages"]}
    assert [] == [folder for folder in mapping.values() if not (REPO / folder).is_dir()]


def _named_paths() -> set[str]:
    """Repository paths README.md and the CLI's help name (``docs/PROTOCOL.md``, ``examples/node-adapter/``, ...)."""
    texts = [(REPO / "README.md").read_text(encoding="utf-8")]
    from cfconform.cli.main import build_parser

    parser = build_parser()
    texts.append(parser.format_help())
    for action in parser._subparsers._group_actions:  # (argparse has no public walk of its subparsers)
        texts += [sub.format_help() for sub in action.choices.values()]
    for path in sorted((REPO / "cli" / "commands").glob("*.py")):  # the commands' docstrings (their examples)
        texts.append(ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or "")
    tops = ("docs", "examples", "reference_model", "adapters", "judge", "properties", "reports", "conformance",
            "spark_fuzz", "cli", "tests", "benchmarks", "../shared", ".ci")  # fmt: skip
    pattern = re.compile(r"(?<![\w/.-])((?:" + "|".join(re.escape(t) for t in tops) + r")/[\w./*-]*)")
    found = set()
    for text in texts:
        for match in pattern.findall(text):
            found.add(match.rstrip(".,:;)"))
    found |= set(re.findall(r"\[[^\]]+\]\(([\w./-]+)\)", texts[0]))  # Markdown links of README.md
    return found


def _in_wheel(path: str) -> str:
    """Where a repository path is in an installed wheel (each folder is below cfconform/)."""
    folder, _, rest = path.partition("/")
    return f"cfconform/{folder}/{rest}".rstrip("/")


def _build_wheel(tmp_path: Path) -> zipfile.ZipFile:
    """``pip wheel`` of a copy of the sources (so nothing is written beside them)."""
    src = tmp_path / "src"
    skip = shutil.ignore_patterns(".venv", ".git", "build", "dist", "*.egg-info", "__pycache__", ".ruff_cache",
                                  ".hypothesis", "cfconform-report", "cfconform-campaign", "tests")  # fmt: skip
    shutil.copytree(REPO, src, ignore=skip)
    out = tmp_path / "dist"
    argv = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(out), str(src)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert 0 == done.returncode, done.stderr[-2000:]
    (wheel,) = out.glob("cfconform-*.whl")
    return zipfile.ZipFile(wheel)


def test_the_wheel_carries_every_path_the_cli_and_readme_name(tmp_path):
    names = _build_wheel(tmp_path).namelist()
    files = set(names)
    dirs = {str(parent) for n in names for parent in Path(n).parents}
    assert {"cfconform"} == {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert [] == [p for p in REQUIRED if p not in files]
    named = sorted(p for p in _named_paths() if not p.startswith(REPOSITORY_ONLY))
    assert "docs/PROTOCOL.md" in named and "spark_fuzz/README.md" in named
    missing = []
    for path in named:
        where = _in_wheel(path)
        ok = any(Path(n).match(where) for n in names) if "*" in where else where in files or where in dirs
        if not ok:
            missing.append(f"{path} (as {where})")
    assert [] == missing
    assert [] == [n for n in names if "/tests/" in n or n.endswith((".pyc", ".egg-info"))]


@pytest.mark.parametrize("module", SPARK_ONLY)
@pytest.mark.parametrize(
    "argv", [["fuzz", "--adapter", "reference", "--traces", "10", "--steps", "5"], ["diff", "run-a", "run-b"]]
)
def test_a_spark_command_without_the_spark_extra_exits_2_naming_it(monkeypatch, capsys, tmp_path, argv, module):
    monkeypatch.setitem(sys.modules, module, None)  # as if not installed: importing it fails, find_spec finds none
    monkeypatch.chdir(tmp_path)
    assert 2 == main(argv)
    err = capsys.readouterr().err.strip().splitlines()
    assert 1 == len(err), err
    assert f"cfconform {argv[0]}: needs the spark extra" in err[0]
    assert module in err[0] and "pip install 'cfconform[spark]'" in err[0]
    assert [] == sorted(tmp_path.iterdir())  # nothing written, no Spark started


@pytest.mark.parametrize("argv", [["fuzz"], ["diff"], ["fuzz", "--adapter", "reference"]])
def test_a_spark_command_without_the_extra_names_it_before_any_usage_error(monkeypatch, capsys, argv):
    monkeypatch.setitem(sys.modules, "pyspark", None)
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert 2 == exited.value.code
    err = capsys.readouterr().err.strip().splitlines()
    assert [f"cfconform {argv[0]}: needs the spark extra (missing pyspark): pip install 'cfconform[spark]'"] == err


def test_with_the_extra_a_spark_command_s_usage_error_is_argparse_s(capsys):
    pytest.importorskip("pyspark")
    with pytest.raises(SystemExit) as exited:
        main(["fuzz"])
    assert 2 == exited.value.code
    assert "the following arguments are required" in capsys.readouterr().err


def test_the_core_needs_no_spark_pandas_or_pyarrow(tmp_path):
    """Every module of the core imports, and `run` and `size` work, with pyspark, pyarrow and pandas unimportable."""
    core = []
    for name, folder in SETUPTOOLS["package-dir"].items():
        if name.startswith(DATA):
            continue
        for path in sorted((REPO / folder).rglob("*.py")):
            rel = path.relative_to(REPO / folder).with_suffix("")
            if (name == "cfconform.spark_fuzz" and rel.name in ("job", "session")) or rel.name == "__main__":
                continue  # the Spark glue (the extra's), and modules that run the CLI when imported
            parts = [p for p in rel.parts if p != "__init__"]
            core.append(".".join((name, *parts)))
    code = (
        "import importlib, sys\n"
        f"for m in {SPARK_ONLY!r}: sys.modules[m] = None\n"
        f"for m in {core!r}: importlib.import_module(m)\n"
        "from cfconform.cli.main import main\n"
        "assert 0 == main(['size', '--messages', '1000', '--avg-size', '1K'])\n"
        f"raise SystemExit(main(['-q', 'run', '--adapter', 'reference', '--hypothesis-profile', 'dev', '--seed', '1',"
        f" '--report-dir', {str(tmp_path / 'r')!r}]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert 0 == done.returncode, done.stderr[-3000:]
    assert "result: CONFORMS (exit 0)" in done.stdout
