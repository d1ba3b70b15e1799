"""Seed blocks and campaign identity (pure)."""

import pytest

from cfconform.reference_model.errors import ConfigurationError
from cfconform.spark_fuzz.blocks import (
    SEED_STRIDE,
    Block,
    CampaignSpec,
    block_of_dirname,
    identity_mismatch,
    pending_blocks,
    plan_blocks,
    trace_index,
    trace_profile,
    trace_seed,
    wave_size,
    waves,
)


def test_blocks_cover_every_trace_once_in_order():
    blocks = plan_blocks(2503, 500)
    assert [0, 1, 2, 3, 4, 5] == [b.index for b in blocks]
    assert list(range(2503)) == [i for b in blocks for i in b.indexes()]
    assert Block(5, 2500, 3) == blocks[-1]


def test_trace_seeds_follow_the_documented_derivation():
    assert 7 * 1_000_003 + 12 == trace_seed(7, 12)
    assert 12 == trace_index(7, trace_seed(7, 12))
    assert SEED_STRIDE == trace_seed(1, 0)


def test_both_profiles_alternate():
    spec = CampaignSpec("reference", 10, 5, profiles="both")
    assert ("mq", "cqs") == spec.profiles
    assert ["mq", "cqs", "mq", "cqs"] == [trace_profile(spec.profiles, i) for i in range(4)]
    assert ("cqs",) == CampaignSpec("reference", 10, 5, profiles="cqs").profiles


def test_campaign_id_depends_only_on_identifying_arguments():
    a = CampaignSpec("reference", 100, 20, seed=3)
    assert a.campaign_id == CampaignSpec("reference", 100, 20, seed=3, timeout=99.0).campaign_id
    assert a.campaign_id != CampaignSpec("reference", 100, 21, seed=3).campaign_id
    assert a.campaign_id != CampaignSpec("reference", 100, 20, seed=3, block_size=10).campaign_id
    assert 16 == len(a.campaign_id)


def test_identity_mismatch_names_each_differing_argument():
    a = CampaignSpec("reference", 100, 20).identity()
    b = CampaignSpec("reference", 100, 30, seed=1).identity()
    problems = identity_mismatch(a, b)
    assert ["steps: 20 (existing) != 30 (this run)", "seed: 0 (existing) != 1 (this run)"] == problems
    assert [] == identity_mismatch(a, dict(a))


@pytest.mark.parametrize("field", ["traces", "steps", "block_size"])
def test_validate_rejects_non_positive_counts(field):
    spec = CampaignSpec(**{"adapter": "reference", "traces": 10, "steps": 5, field: 0})
    with pytest.raises(ConfigurationError, match=field.replace("_", "-")):
        spec.validate()


def test_validate_rejects_unknown_profile_and_negative_seed():
    with pytest.raises(ConfigurationError, match="--profile"):
        CampaignSpec("reference", 10, 5, profiles="ims").validate()
    with pytest.raises(ConfigurationError, match="--seed"):
        CampaignSpec("reference", 10, 5, seed=-1).validate()


def test_wire_adapters_get_the_timeout():
    assert {"timeout": 2.5} == CampaignSpec("wire:impl --x", 1, 1, timeout=2.5).adapter_kwargs()
    assert {} == CampaignSpec("reference", 1, 1, timeout=2.5).adapter_kwargs()


def test_pending_blocks_skip_done_ones_and_respect_the_limit():
    blocks = plan_blocks(10, 2)
    assert [1, 3, 4] == [b.index for b in pending_blocks(blocks, {0, 2})]
    assert [1, 3] == [b.index for b in pending_blocks(blocks, {0, 2}, limit=2)]
    assert [] == pending_blocks(blocks, range(5))


def test_waves_group_blocks_in_order():
    blocks = plan_blocks(10, 1)
    assert [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]] == [[b.index for b in w] for w in waves(blocks, 4)]


def test_the_first_wave_can_be_smaller_so_a_rate_is_known_early():
    blocks = plan_blocks(10, 1)
    assert [[0, 1], [2, 3, 4, 5], [6, 7, 8, 9]] == [[b.index for b in w] for w in waves(blocks, 4, first=2)]
    assert [[0]] == [[b.index for b in w] for w in waves(blocks[:1], 4, first=2)]
    assert [] == list(waves([], 4, first=2))


@pytest.mark.parametrize(
    ("name", "expected"),
    [("block=12", 12), ("block=0/", 0), ("file:/x/parts/block=3", 3), ("block=x", None), (".spark-staging-1", None),
     ("_SUCCESS", None), ("blocks=1", None)],
)  # fmt: skip
def test_block_of_dirname(name, expected):
    assert expected == block_of_dirname(name)


def test_campaign_sizes_are_bounded_with_one_line_naming_the_option():
    import pytest

    from cfconform.reference_model.errors import ConfigurationError
    from cfconform.spark_fuzz.blocks import MAX_STEPS, MAX_TRACES, CampaignSpec

    for kwargs, option in (({"traces": MAX_TRACES + 1}, "--traces"), ({"steps": MAX_STEPS + 1}, "--steps")):
        spec = CampaignSpec("reference", **{"traces": 10, "steps": 10, **kwargs})
        with pytest.raises(ConfigurationError) as err:
            spec.validate()
        assert (err.value.field, "\n" in str(err.value), "[none" in str(err.value)) == (option, False, False)


def test_the_default_block_size_keeps_the_plan_within_max_blocks():
    from cfconform.spark_fuzz.blocks import MAX_BLOCKS, MAX_TRACES, default_block_size

    assert MAX_TRACES // default_block_size(MAX_TRACES) <= MAX_BLOCKS
    assert default_block_size(20_000) == default_block_size(20_000)  # a function of traces alone


def test_a_job_holds_one_to_four_blocks_per_core_and_a_run_has_sixteen_jobs_where_it_can():
    assert 2 == wave_size(2, 16)  # a small campaign: one block per core, 8 jobs
    assert 4 == wave_size(2, 50)  # 13 jobs
    assert 8 == wave_size(2, 500)  # four per core: a job's fixed cost spread
    assert 1600 == wave_size(400, 200_000)  # 10^9 traces on 400 cores: 125 jobs
    assert 400 == wave_size(400, 1000) and 2 == wave_size(1, 1)
