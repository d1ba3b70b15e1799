"""Spark is a thin shell: only job.py and session.py import pyspark; the rest runs without a JVM."""

import ast
import subprocess
import sys
from pathlib import Path

SPARK_FUZZ = Path(__file__).resolve().parents[2] / "spark_fuzz"
MAY_IMPORT_PYSPARK = {"job.py", "session.py"}


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def test_only_the_spark_glue_imports_pyspark():
    offenders = sorted(p.name for p in SPARK_FUZZ.glob("*.py") if "pyspark" in _imports(p))
    assert sorted(MAY_IMPORT_PYSPARK) == offenders


def test_pure_modules_import_without_pyspark():
    code = (
        "import sys; import cfconform.spark_fuzz.blocks, cfconform.spark_fuzz.shard, cfconform.spark_fuzz.triage, "
        "cfconform.spark_fuzz.diff, cfconform.spark_fuzz.progress, cfconform.spark_fuzz.options, "
        "cfconform.spark_fuzz.testing, cfconform.spark_fuzz.arrowfs, cfconform.reports.campaign_report; "
        "assert not any(m.split('.')[0] == 'pyspark' for m in sys.modules), 'pyspark imported'"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert 0 == done.returncode, done.stderr


def test_spark_is_reached_through_the_dataframe_api_only():
    """No RDD, no SparkContext, no driver JVM in the code: the same code runs on Spark Connect (issue 26)."""
    attributes = {"sparkContext", "_jvm", "_jsc", "_gateway", "rdd", "parallelize", "mapPartitions"}
    names = {"SparkContext", "SparkConf", "py4j"}
    found = []
    for path in sorted(SPARK_FUZZ.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in attributes:
                found.append(f"{path.name}:{node.lineno} .{node.attr}")
            elif isinstance(node, ast.Name) and node.id in names:
                found.append(f"{path.name}:{node.lineno} {node.id}")
            elif isinstance(node, ast.ImportFrom | ast.Import):
                modules = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                imported = [a.name for a in node.names]
                if any(m.split(".")[0] == "py4j" or m.startswith("pyspark.core") for m in modules) or names & set(
                    imported
                ):
                    found.append(f"{path.name}:{node.lineno} import {modules} {imported}")
    assert [] == found
