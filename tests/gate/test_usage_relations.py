"""CAPACITY-012 on the implementation's own figures: "Each message on a shared queue is represented by
an entry", so an MQ put adds an entry in use and a get outside syncpoint frees one."""

from __future__ import annotations

from cfconform.judge.relations import UsageRelations
from cfconform.reference_model.operations import Get, Put
from cfconform.reference_model.outcomes import Outcome


def _check(op: object, before: tuple[int, int, int, int], after: tuple[int, int, int, int], **out: object):
    observed = Outcome(op.KIND, True, **out)  # type: ignore[attr-defined]
    return UsageRelations().check(op, observed, before, after, "APP1")


def test_capacity_012_a_put_that_adds_no_entry_breaks_the_relation():
    found = _check(Put("QM01", "Q1", 70_000), (1, 10, 2, 40), (1, 10, 4, 40), offloaded=True)
    assert found is not None and found.comparison == "usage.entry"


def test_capacity_012_a_put_that_adds_an_entry_keeps_it():
    assert _check(Put("QM01", "Q1", 70_000), (1, 10, 2, 40), (2, 10, 4, 40), offloaded=True) is None


def test_capacity_012_a_get_that_frees_elements_but_no_entry_breaks_the_relation():
    found = _check(Get("QM01", "Q1"), (2, 10, 8, 40), (2, 10, 4, 40), tag=1)
    assert found is not None and found.comparison == "usage.entry"


def test_capacity_012_a_get_under_syncpoint_frees_nothing_yet():
    assert _check(Get("QM01", "Q1", syncpoint=True), (2, 10, 8, 40), (2, 10, 8, 40), tag=1) is None


def _grown(shown_kb: int, entries: int, elements: int):
    relations = UsageRelations()
    relations.altered("APP1", 256, 400, (0, 109, 0, 329))
    shown = {"APP1": {"size_kb": shown_kb, "entries_total": entries, "elements_total": elements}}
    return relations.inspected(shown)


def test_capacity_004_a_structure_shown_at_its_new_size_with_no_more_storage_breaks_the_relation():
    found = _grown(400, 109, 329)
    assert found is not None and found.comparison == "usage.grown"


def test_capacity_004_more_elements_however_the_entries_moved_keeps_it():
    assert _grown(400, 100, 600) is None  # (the ratio may change: AUTOALTER)


def test_capacity_004_an_alter_not_shown_complete_is_not_judged_yet():
    assert _grown(256, 109, 329) is None


def test_capacity_004_a_few_kb_more_is_not_judged():
    relations = UsageRelations()
    relations.altered("APP2", 6299, 6300, (0, 5, 0, 450))  # a storage increment may swallow 1 KB
    shown = {"APP2": {"size_kb": 6300, "entries_total": 5, "elements_total": 450}}
    assert relations.inspected(shown) is None
