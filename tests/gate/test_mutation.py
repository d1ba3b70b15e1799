"""``cfconform mutants``: the kill table (conformance/mutation.py)."""

from __future__ import annotations

from cfconform.adapters.mutants import MUTANT_BY_ID
from cfconform.conformance import mutation


def test_kill_all_kills_a_mutant_and_measures_its_reproducer():
    (row,) = mutation.kill_all([MUTANT_BY_ID["M-CQS-005-b"]], hypothesis_profile="dev", seeds=[1], processes=1)
    assert (True, "M-CQS-005-b", "CQS-005") == (row.killed, row.mutant, row.rule)
    assert row.reproducer_steps is not None and row.reproducer_steps >= 1


def test_a_gate_crash_is_a_not_killed_row_naming_the_error(monkeypatch):
    def crash(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(mutation, "kill", crash)
    (row,) = mutation.kill_all([MUTANT_BY_ID["M-CQS-005-b"]], processes=1)
    assert (False, "gate error: RuntimeError: boom") == (row.killed, row.field)


def test_summary_counts_the_score_and_lists_the_survivors():
    rows = [
        mutation.Kill("M-A-001-a", "A-001", True, 1.0, 3, 2, True, "events"),
        mutation.Kill("M-A-001-b", "A-001", False, 2.0, None, 2, False, None),
    ]
    summary = mutation.summary(rows)
    assert (2, 1, 0.5, 1, ["M-A-001-b"]) == (
        summary["mutants"],
        summary["killed"],
        summary["score"],
        summary["max_excess_steps"],
        summary["survivors"],
    )


def test_over_several_seeds_a_mutant_is_killed_only_if_every_seed_kills_it():
    rows = [
        mutation.Kill("M-A-001-a", "A-001", True, 1.0, None, 2, True, "events", seed=1),
        mutation.Kill("M-A-001-a", "A-001", False, 9.0, None, 2, False, None, seed=2),
        mutation.Kill("M-A-001-b", "A-001", True, 1.0, None, 2, True, "events", seed=1),
        mutation.Kill("M-A-001-b", "A-001", True, 1.0, None, 2, True, "events", seed=2),
    ]
    summary = mutation.summary(rows)
    assert (2, 1, {"1": 2, "2": 1}, {"M-A-001-a": [2]}) == (
        summary["mutants"],
        summary["killed"],
        summary["per_seed"],
        summary["survived_seeds"],
    )


def test_without_a_reproducer_the_kill_is_the_first_failing_case_not_minimised():
    (row,) = mutation.kill_all(
        [MUTANT_BY_ID["M-CQS-005-b"]], hypothesis_profile="dev", seeds=[1], processes=1, reproduce=False
    )
    assert (True, None, 1) == (row.killed, row.reproducer_steps, row.seed)


def test_mutants_seeds_option_reads_a_range_or_a_list():
    from cfconform.cli.commands.mutants import _seed_range

    assert ([1, 2, 3], [4, 9]) == (_seed_range("1-3"), _seed_range("4,9"))


def test_mutants_seeds_option_names_the_bad_value():
    import argparse

    import pytest

    from cfconform.cli.commands.mutants import _seed_range

    with pytest.raises(argparse.ArgumentTypeError, match="'3-1'"):
        _seed_range("3-1")


def test_a_verdict_only_run_generates_no_case_after_the_first_failing_one(monkeypatch):
    from cfconform.adapters.mutants import MUTANT_BY_ID as mutants
    from cfconform.properties import base
    from cfconform.properties.run import run_machine

    failing_cases: list[int] = []
    record = base.Recorder.record_failure

    def counted(self: base.Recorder, failure: base.Failure) -> None:
        failing_cases.append(self.cases)
        record(self, failure)

    monkeypatch.setattr(base.Recorder, "record_failure", counted)
    mutant = mutants["M-CQS-005-b"]
    run = run_machine(mutant.factory, mutant.config.profile, hypothesis_profile="dev", seed=1, reproduce=False)
    # Hypothesis replays the failing case once more to report it: that is the only case after it
    assert run.cases - failing_cases[0] <= 1


def test_mutants_rows_option_appends_each_row_as_a_json_line(tmp_path, capsys):
    import json

    from cfconform.cli.main import main

    rows = tmp_path / "rows.jsonl"
    args = ["--only", "M-CQS-005-b", "--hypothesis-profile", "dev", "--seed", "1", "--no-reproducer"]
    main(["mutants", *args, "--rows", str(rows)])
    (row,) = [json.loads(line) for line in rows.read_text().splitlines()]
    assert ("M-CQS-005-b", True, 1) == (row["mutant"], row["killed"], row["seed"])
