"""Progress lines and command-line arguments of a campaign (pure)."""

import argparse
import time

import pytest

from cfconform.cli.main import build_parser
from cfconform.reference_model.errors import ConfigurationError
from cfconform.spark_fuzz.options import adapter_spec, configure_fuzz, spark_conf, spec_from_args, with_task_retries
from cfconform.spark_fuzz.progress import ProgressReporter, progress_line


def test_progress_line_shows_done_total_divergences_and_rate():
    line = progress_line(12_000, 100_000, 3, 1, 10.0, 2_000)
    assert "traces 12,000/100,000 (12.0%), 3 divergences, 1 faults, 200 traces/s, ETA 440 s" == line
    assert progress_line(5, 5, 0, 0, 1.0, 5).endswith("ETA -")


def test_reporter_polls_until_stopped_and_emits_a_final_line():
    lines: list[str] = []
    counts = iter([(0, 0, 0), (10, 1, 0), (20, 2, 0), (20, 2, 0), (20, 2, 0)])
    reporter = ProgressReporter(40, 20, lambda: next(counts, (20, 2, 0)), every=0.01, emit=lines.append)
    deadline = time.monotonic() + 10
    with reporter:
        while len(lines) < 2 and time.monotonic() < deadline:
            time.sleep(0.005)
    assert len(lines) >= 3, "two periodic lines and a final one"
    assert lines[-1].startswith("traces 40/40 (100.0%), 2 divergences")


def test_no_progress_thread_when_every_is_zero():
    lines: list[str] = []
    with ProgressReporter(1, 0, lambda: (1, 0, 0), every=0, emit=lines.append):
        pass
    assert [] == lines


@pytest.mark.parametrize(
    ("master", "expected"),
    [("local", "local[1,4]"), ("local[2]", "local[2,4]"), ("local[*]", "local[*,4]"), ("local[2,3]", "local[2,3]"),
     ("spark://h:7077", "spark://h:7077"), ("yarn", "yarn")],
)  # fmt: skip
def test_local_masters_get_task_retries(master, expected):
    assert expected == with_task_retries(master)


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    configure_fuzz(parser)
    return parser.parse_args(list(argv))


def test_spec_from_args():
    spec = spec_from_args(_args("--adapter", "reference", "--traces", "50", "--steps", "7", "--seed", "3",
                                "--profile", "cqs", "--block-size", "9", "--full-traces"))  # fmt: skip
    assert ("reference", 50, 7, 3, ("cqs",), 9, True) == (spec.adapter, spec.traces, spec.steps, spec.seed,
                                                         spec.profiles, spec.block_size, spec.full_traces)  # fmt: skip


def test_default_block_size_depends_on_traces_only():
    def size(n):
        return spec_from_args(_args("--adapter", "reference", "--traces", str(n), "--steps", "5")).block_size

    assert (100, 625, 2000, 2000) == (size(1000), size(10_000), size(100_000), size(10_000_000))


def test_adapter_cmd_becomes_a_wire_spec():
    assert "wire:node 'my adapter.js'" == adapter_spec(None, "node 'my adapter.js'")
    assert "wire:node x.js" == spec_from_args(_args("--adapter-cmd", "node x.js", "--traces", "1", "--steps",
                                                    "1")).adapter  # fmt: skip


def test_conf_pairs():
    assert {"spark.executor.memory": "4g", "a": "b=c"} == spark_conf(["spark.executor.memory=4g", "a=b=c"])
    with pytest.raises(ConfigurationError, match="--conf"):
        spark_conf(["no-equals-sign"])


def test_bad_numbers_are_configuration_errors():
    with pytest.raises(ConfigurationError, match="--traces"):
        spec_from_args(_args("--adapter", "reference", "--traces", "0", "--steps", "1"))
    with pytest.raises(ConfigurationError, match="--partitions"):
        spec_from_args(_args("--adapter", "reference", "--traces", "1", "--steps", "1", "--partitions", "0"))


def test_fuzz_and_diff_are_cfconform_commands():
    args = build_parser().parse_args(["fuzz", "--adapter", "reference", "--traces", "5", "--steps", "2"])
    assert (None, None, "cfconform-campaign", None, "both") == (args.master, args.remote, args.out, args.block_size,
                                                              args.profile)  # fmt: skip
    args = build_parser().parse_args(["diff", "a", "b"])
    assert ("a", "b") == (args.run_a, args.run_b)


def test_job_py_takes_the_same_arguments_as_cfconform_fuzz():
    cli = {a.dest for a in build_parser()._subparsers._group_actions[0].choices["fuzz"]._actions}
    parser = argparse.ArgumentParser()
    configure_fuzz(parser)
    assert cli == {a.dest for a in parser._actions}


@pytest.mark.parametrize(
    ("master", "memory"),
    [("local", "512m"), ("local[2]", "512m"), ("local[2,4]", "512m"), ("local[16]", "2048m"),
     ("spark://h:7077", "512m"), ("yarn", "512m")],
)  # fmt: skip
def test_the_driver_heap_is_small_but_grows_with_a_local_masters_cores(master, memory):
    from cfconform.spark_fuzz.session import driver_memory

    assert memory == driver_memory(master)


def test_spark_progress_shows_the_phase_then_the_campaign_line():
    from cfconform.spark_fuzz.progress import SparkProgress

    progress = SparkProgress("cfconform fuzz", 100, quiet=True)
    progress.enter("starting Spark")
    assert progress.line().startswith("cfconform fuzz: starting Spark (")
    progress.follow(lambda: (25, 1, 0), done_before=50)
    line = progress.line()
    assert line.startswith("cfconform fuzz: traces 75/100 (75.0%), 1 divergences, 0 faults") and "ETA" in line
    assert (75, "1 divergences, 0 faults") == (progress.position(), progress.postfix())
    progress.enter("consolidating the tables")
    assert "consolidating the tables" in progress.line()


def test_the_jvm_launchers_incubator_warning_is_dropped_and_the_rest_copied_as_it_comes():
    import os
    import threading

    from cfconform.spark_fuzz.session import _copy_stderr

    jvm_read, jvm_write = os.pipe()
    user_read, user_write = os.pipe()
    copier = threading.Thread(target=_copy_stderr, args=(jvm_read, user_write))
    copier.start()
    os.write(jvm_write, b"bar 1\rbar 2\r")  # a live bar's unfinished line goes out at once
    os.write(jvm_write, b"WARNING: Using incu")
    os.write(jvm_write, b"bator modules: jdk.incubator.vector\nWARNING: something else\nlast")
    os.close(jvm_write)
    copier.join(timeout=10)
    os.close(user_write)
    assert b"bar 1\rbar 2\rWARNING: something else\nlast" == os.read(user_read, 4096)
