"""The Arrow side of a campaign without Spark: small files through pyarrow.fs, task rows as Arrow batches."""

from pathlib import Path

import pyarrow as pa
import pytest

from cfconform.reference_model.errors import ConfigurationError
from cfconform.spark_fuzz.arrowfs import ArrowFS, local_path
from cfconform.spark_fuzz.blocks import Block, CampaignSpec
from cfconform.spark_fuzz.progress import Tally
from cfconform.spark_fuzz.shard import PART_COLUMNS, arrow_partition, arrow_schema, as_row, part_ddl, run_block

MUTANT = "mutant:M-CFLEVEL-008-a"


def test_a_local_root_is_a_file_uri_spark_and_pyarrow_agree_on(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert f"file:{tmp_path}/out" == ArrowFS("out").root
    for spelling in (str(tmp_path / "out"), f"file:{tmp_path}/out", f"file://{tmp_path}/out/"):
        assert f"file:{tmp_path}/out" == ArrowFS(spelling).root
    assert str(tmp_path / "x") == local_path(f"file://{tmp_path}/x") == local_path(f"file:{tmp_path}/x")
    assert "s3a://bucket/x" == local_path("s3a://bucket/x")


def test_small_files_are_written_read_listed_and_deleted(tmp_path: Path):
    fs = ArrowFS(str(tmp_path / "c"))
    assert not fs.exists(fs.root) and [] == fs.list_names(fs.path("parts"))
    fs.write_text(fs.path("reproducers", "a.json"), "{}\n")  # parents are created
    fs.write_text(fs.path("reproducers", "a.json"), '{"x": 1}\n')  # replaced whole
    assert '{"x": 1}\n' == (tmp_path / "c" / "reproducers" / "a.json").read_text()
    assert '{"x": 1}\n' == fs.read_text(fs.path("reproducers", "a.json"))
    assert ["a.json"] == fs.list_names(fs.path("reproducers")), "no temporary file left behind"
    fs.mkdirs(fs.path("parts", "block=0"))
    fs.mkdirs(fs.path("parts", ".spark-staging-1", "block=3"))
    (tmp_path / "c" / "parts" / "_SUCCESS").write_text("")
    assert [".spark-staging-1", "_SUCCESS", "block=0"] == fs.list_names(fs.path("parts"))
    assert [".spark-staging-1", "block=0"] == fs.list_names(fs.path("parts"), dirs_only=True)
    assert fs.delete(fs.path("parts", ".spark-staging-1")) and not fs.delete(fs.path("parts", "nothing"))
    assert ["block=0"] == fs.list_names(fs.path("parts"), dirs_only=True)
    assert str(tmp_path / "c" / "x") == fs.local_path(fs.path("x"))


def test_a_uri_pyarrow_cannot_open_is_a_configuration_error():
    with pytest.raises(ConfigurationError, match="--out"):
        ArrowFS("nosuchscheme://bucket/x")


def test_the_arrow_schema_is_the_parts_schema():
    schema = arrow_schema()
    assert list(PART_COLUMNS) == schema.names
    assert pa.list_(pa.string()) == schema.field("rules").type
    assert (pa.int32(), pa.int64(), pa.float64()) == tuple(schema.field(c).type for c in ("step", "trace", "seconds"))
    assert "`block` INT" in part_ddl()


def test_a_task_turns_wave_positions_into_one_batch_per_block_with_the_rows_of_run_block():
    spec = CampaignSpec(MUTANT, 40, 10, seed=1, profiles="mq", block_size=10, full_traces=True)
    wave = ((3, 30, 10), (1, 10, 10))
    positions = [pa.record_batch({"id": pa.array([1], pa.int64())}), pa.record_batch({"id": pa.array([0], pa.int64())})]
    batches = list(arrow_partition(iter(positions), wave, spec))
    assert 2 == len(batches) and all(arrow_schema() == b.schema for b in batches)
    for batch, block in zip(batches, (Block(1, 10, 10), Block(3, 30, 10)), strict=True):
        expected = [as_row(r) for r in run_block(block, spec)]
        got = [tuple(tuple(v) if isinstance(v, list) else v for v in r.values()) for r in batch.to_pylist()]
        expected = [tuple(tuple(v) if isinstance(v, list) else v for v in r) for r in expected]
        seconds = PART_COLUMNS.index("seconds")
        assert [r[:seconds] + r[seconds + 1 :] for r in expected] == [r[:seconds] + r[seconds + 1 :] for r in got]
    assert any(r["kind"] == "divergence" for r in batches[0].to_pylist() + batches[1].to_pylist())


def test_tally_sums_what_finished_jobs_observed():
    tally = Tally()
    tally.add({"traces": 10, "divergences": 2, "faults": None, "steps": 100})
    tally.add({"traces": 5, "divergences": None, "faults": 1, "steps": None})  # (a job of no block: nulls)
    assert (15, 2, 1) == tally.read() and 100 == tally["steps"]
