"""How ``cfconform diff`` classifies a (seed, profile) key (pure)."""

import pytest

from cfconform.spark_fuzz.blocks import CampaignSpec, trace_seed
from cfconform.spark_fuzz.diff import classify, comparable, ran


@pytest.mark.parametrize(
    ("a", "b", "a_ran", "b_ran", "expected"),
    [
        (("S", 3), ("S", 3), True, True, "same"),
        (("S", 3), ("S", 4), True, True, "changed"),
        (("S", 3), ("T", 3), True, True, "changed"),
        (("S", 3), (None, None), True, True, "fixed"),
        (("S", 3), (None, None), True, False, "not-compared"),
        ((None, None), ("S", 3), True, True, "new"),
        ((None, None), ("S", 3), False, True, "not-compared"),
    ],
)
def test_classify(a, b, a_ran, b_ran, expected):
    assert expected == classify(*a, *b, a_ran, b_ran)


def test_classify_needs_a_failure():
    with pytest.raises(ValueError):
        classify(None, None, None, None, True, True)


def test_ran_knows_which_traces_a_campaign_generated():
    identity = CampaignSpec("reference", 10, 5, seed=4).identity()
    assert ran(identity, trace_seed(4, 0), "mq")
    assert ran(identity, trace_seed(4, 9), "cqs")
    assert not ran(identity, trace_seed(4, 9), "mq")
    assert not ran(identity, trace_seed(4, 10), "mq")
    assert not ran(identity, trace_seed(3, 0), "mq")


def test_campaigns_with_other_steps_are_not_comparable():
    a = CampaignSpec("reference", 10, 5).identity()
    assert [] == comparable(a, CampaignSpec("mutant:M", 20, 5).identity())
    assert "--steps differ" in comparable(a, CampaignSpec("reference", 10, 6).identity())[0]
