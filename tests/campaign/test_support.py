"""Campaigns generate only what an implementation claims and supports (spark_fuzz/support.py, issue 23)."""

from __future__ import annotations

from typing import Any

from cfconform.adapters.protocol import NotSupported
from cfconform.adapters.reference import ReferenceAdapter
from cfconform.properties.generator import generate, maker_keys
from cfconform.spark_fuzz.support import skipped, unclaimed_makers, unsupported_makers

NODE_FAMILIES = ("QUEUE", "QDEPTH", "OFFLOAD", "CFLEVEL")


class NoRecovery(ReferenceAdapter):
    """Answers BACKUP, structure failures and RECOVER "not supported"."""

    def apply(self, op: Any):
        if op.KIND in ("backup", "fail_structure", "recover"):
            raise NotSupported(f"{op.KIND} is not supported", definite=True)
        return super().apply(op)


def test_the_makers_of_unclaimed_families_are_left_out():
    left_out = unclaimed_makers(NODE_FAMILIES)
    assert {"backup", "fail", "recover", "setxcf_alter", "alter_outcome", "advance_clock"} <= left_out
    assert not {"put", "get", "commit", "set_perfmev", "alter_queue"} & left_out


def test_skipping_nothing_generates_the_same_traces_as_before():
    assert generate(7, "mq", 40) == generate(7, "mq", 40, ())


def test_skipped_makers_are_never_generated():
    skip = ("backup", "fail", "recover", "start_stop")
    kinds = {op.KIND for seed in range(60) for op in generate(seed, "mq", 40, skip)[1]}
    assert not kinds & {"backup", "fail_structure", "recover", "start_qmgr", "stop_qmgr"}
    assert {"put", "get"} <= kinds


def test_a_kind_answered_not_supported_is_found_by_its_probe():
    assert {"backup", "fail", "recover"} == unsupported_makers(NoRecovery, ["mq"], set())


def test_the_reference_supports_every_kind_it_claims():
    assert () == skipped(ReferenceAdapter, ReferenceAdapter().capabilities().to_record(), ["mq", "cqs"])


def test_every_maker_has_its_families_or_is_kept_always():
    from cfconform.properties.generator import ALWAYS, MAKER_FAMILIES

    keys = set(maker_keys("mq")) | set(maker_keys("cqs"))
    assert keys - set(MAKER_FAMILIES) - set(ALWAYS) == {"inspect"}
