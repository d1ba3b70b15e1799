"""The gate keeps one implementation instance per run and resets it with ``open`` (conformance/reuse.py)."""

from __future__ import annotations

from cfconform.adapters.reference import ReferenceAdapter
from cfconform.conformance.gate import EXIT_OK, run_gate
from cfconform.conformance.reuse import reusing
from tests.gate.faulty import KeepsStateOnReopen


class _Counting(ReferenceAdapter):
    created = 0
    closed = 0

    def __init__(self) -> None:
        super().__init__()
        type(self).created += 1

    def close(self) -> None:
        type(self).closed += 1


def test_gate_creates_one_instance_for_every_case_and_closes_it():
    _Counting.created = _Counting.closed = 0
    result = run_gate(_Counting, profiles=["mq"], hypothesis_profile="dev", seed=1)
    assert (EXIT_OK, 1, 1) == (result.exit_code, _Counting.created, _Counting.closed)  # as README.md says


def test_leases_share_one_instance_and_closing_a_lease_keeps_it_open():
    _Counting.created = _Counting.closed = 0
    with reusing(_Counting) as factory:
        for _ in range(3):
            factory().close()
        assert (1, 0) == (_Counting.created, _Counting.closed)
    assert (1, 1) == (_Counting.created, _Counting.closed)


def test_implementation_that_keeps_state_across_open_fails_the_gate():
    result = run_gate(KeepsStateOnReopen, profiles=["mq"], hypothesis_profile="dev", seed=1)
    assert EXIT_OK != result.exit_code
