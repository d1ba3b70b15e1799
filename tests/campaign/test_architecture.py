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
        "import sys; import spark_fuzz.blocks, spark_fuzz.shard, spark_fuzz.triage, spark_fuzz.diff, "
        "spark_fuzz.progress, spark_fuzz.options, spark_fuzz.testing, spark_fuzz.arrowfs, reports.campaign_report; "
        "assert not any(m.split('.')[0] == 'pyspark' for m in sys.modules), 'pyspark imported'"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert 0 == done.returncode, done.stderr
