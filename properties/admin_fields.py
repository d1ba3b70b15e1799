"""What the administrative operations change: one keyword at a time, mostly.

A command with several keywords is rejected as a whole when any one of them is
out of range, which hides whether the others are checked; so most commands
change exactly one keyword (valid boundary values and invalid ones), and some
change several.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from cfconform.reference_model.units import SIZE_100MB

from . import boundaries as b


def one_or_some(fields: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[dict[str, Any]]:
    """A dict with exactly one of ``fields`` (most of the time) or any subset of them."""
    singles = [st.fixed_dictionaries({name: values}) for name, values in fields.items()]
    return st.one_of(*singles, st.fixed_dictionaries({}, optional=fields))


#: CFLEVEL changes: relative to the structure's level ("down", "up": resolved by the machine) or absolute.
CFLEVEL_CHANGES = st.sampled_from(("down", "up", "down", 0, 1, 2, 3, 4, 5, 6))
ALTER_STRUCTURE_CHANGES = one_or_some({
    "cflevel": CFLEVEL_CHANGES, "recover": st.booleans(),
    "offload": st.sampled_from((None, "SMDS", "DB2", "DISK")),
    "fullthreshold": st.sampled_from((*b.FULLTHRESHOLDS, -1, 101)),
    **{f"offld{n}th": st.sampled_from((*b.THRESHOLDS, -1, 101)) for n in (1, 2, 3)},
    **{f"offld{n}sz": st.sampled_from((*b.OFFLOAD_SIZES, 65536, 65537)) for n in (1, 2, 3)},
})  # fmt: skip
#: ALTER CFSTRUCT keywords with a documented range, and that range (CFLEVEL-001, CAPACITY-009, OFFLOAD-011).
STRUCTURE_RANGES = {
    "cflevel": (1, 5), "fullthreshold": (0, 100),
    **{f"offld{n}th": (0, 100) for n in (1, 2, 3)}, **{f"offld{n}sz": (0, 64 * 1024) for n in (1, 2, 3)},
}  # fmt: skip
ALTER_QUEUE_CHANGES = one_or_some({
    "qdphiev": st.booleans(), "qdploev": st.booleans(), "qdpmaxev": st.booleans(),
    "qdepthhi": st.sampled_from((-1, 0, 50, 80, 100, 101)), "qdepthlo": st.sampled_from((-1, 0, 20, 100, 101)),
    "maxdepth": st.sampled_from((-1, 0, 1, 5, 999_999_999, 1_000_000_000)),
    "maxmsgl": st.sampled_from((-1, 0, 64 * 1024, SIZE_100MB, SIZE_100MB + 1)),
})  # fmt: skip
#: Extra DEFINE QLOCAL keywords: none (a plain valid definition), a reserved or unknown structure,
#: a bad or duplicate name, or depth and length limits.
DEFINE_QUEUE_FIELDS = st.one_of(
    st.just({}),
    st.fixed_dictionaries({"cfstruct": st.sampled_from(("CSQ_ADMIN", "NOSUCH"))}),
    st.fixed_dictionaries({"name": st.sampled_from(("bad name!", "Q0"))}),
    one_or_some({
        "qdepthhi": st.sampled_from((-1, 0, 80, 100, 101)), "maxdepth": st.sampled_from((-1, 0, 5)),
        "maxmsgl": st.sampled_from((-1, 64 * 1024, SIZE_100MB, SIZE_100MB + 1)),
    }),
)  # fmt: skip
#: Extra DEFINE CFSTRUCT keywords for the mq profile, including CQS's, which it must refuse (CQS-016).
DEFINE_MQ_STRUCTURE_FIELDS = st.one_of(
    st.just({}),
    st.fixed_dictionaries({"name": st.sampled_from(("CSQ_ADMIN", "lower", "TOOLONGNAME12X", "9START", "CSQSYSAPPL"))}),
    one_or_some({
        "cflevel": st.integers(0, 6), "recover": st.booleans(), "offload": st.sampled_from(("SMDS", "DB2", "X")),
        "offld1th": st.sampled_from((-1, 0, 100, 101)), "offld2sz": st.sampled_from((-1, 0, 65536, 65537)),
        "fullthreshold": st.sampled_from((-1, 0, 85, 100, 101)), "size_kb": st.sampled_from((-1, 0, 6400)),
        "initsize_kb": st.sampled_from((6300, 7000)),
        "ovflwmax": st.sampled_from((50, 70)), "ovflwstr": st.just("OVFL2"), "resource": st.just(True),
    }),
)  # fmt: skip
DEFINE_CQS_STRUCTURE_FIELDS = one_or_some({
    "resource": st.booleans(), "ovflwmax": st.sampled_from((-1, 0, 70, 100, 101)),
    "ovflwstr": st.sampled_from(("OVFL2", "PRIM1", "bad")), "size_kb": st.sampled_from((0, 6200)),
})  # fmt: skip
