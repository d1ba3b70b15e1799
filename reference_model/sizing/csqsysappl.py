"""CSQSYSAPPL's size from Table 3 and IBM's suggestion (TOPOLOGY-011, TOPOLOGY-012).

CSQSYSAPPL holds SYSTEM.QSG.CHANNEL.SYNCQ (2 messages of 500 bytes per active shared channel
instance) and SYSTEM.QSG.UR.RESOLUTION.QUEUE (2 KB per group unit of recovery), charged as Table 2
charges an application structure; INITSIZE is the larger of IBM's suggested 20480 KB and that need.
"""

from __future__ import annotations

import math

import attrs

from ..config import Accounting
from ..tables import CSQSYSAPPL_FULLTHRESHOLD, CSQSYSAPPL_INITSIZE_KB, CSQSYSAPPL_SIZE_KB
from ..topology import (
    SYNCQ_MESSAGE_BYTES,
    SYNCQ_MESSAGES_PER_CHANNEL,
    UR_RESOLUTION_MESSAGE_BYTES,
    UR_RESOLUTION_MESSAGES,
)
from ..units import KB, MB
from ..validation import SYSAPPL_NAME
from .inputs import MAXDEPTH_MAX, SEED_QSG, _check_fullthreshold, _check_int, _qsg_structure
from .need import DEFAULT_ACCOUNTING, message_bytes, size_for, whole_mb_kb
from .records import Comparison, Recommendation

#: Active shared channel instances CSQSYSAPPL can be sized for: SYSTEM.QSG.CHANNEL.SYNCQ
#: holds 2 messages per instance (Table 3), and at most MAXDEPTH messages.
MAX_CHANNELS = MAXDEPTH_MAX // SYNCQ_MESSAGES_PER_CHANNEL


@attrs.frozen
class CsqsysapplRecommendation(Recommendation):
    """:class:`Recommendation` for ``qsg-nameCSQSYSAPPL`` (TOPOLOGY-011/012).

    Attributes:
        channels: active shared channel instances (2 SYNCQ messages of 500 bytes each).
        group_urs: SYSTEM.QSG.UR.RESOLUTION.QUEUE messages of 2 KB (Table 3: 1000).
        suggestion_covers_channels: the most active shared channel instances IBM's
            suggested INITSIZE(20480) holds with ``group_urs`` by this accounting
            (``None``: not even the units of recovery fit).
    """

    channels: int = 0
    group_urs: int = UR_RESOLUTION_MESSAGES
    suggestion_covers_channels: int | None = None

    def to_record(self) -> dict[str, object]:
        return {
            "structure": "csqsysappl",
            "channels": self.channels,
            "group_urs": self.group_urs,
            "suggestion_covers_channels": self.suggestion_covers_channels,
            **super().to_record(),
        }


def csqsysappl_required_mb(
    channels: int, group_urs: int = UR_RESOLUTION_MESSAGES, accounting: Accounting = DEFAULT_ACCOUNTING
) -> float:
    """TOPOLOGY-012 (Table 3): MB CSQSYSAPPL needs for its two default queues.

    ``channels`` x 2 messages of 500 bytes on SYSTEM.QSG.CHANNEL.SYNCQ plus ``group_urs``
    messages of 2 KB on SYSTEM.QSG.UR.RESOLUTION.QUEUE, charged as Table 2 charges an
    application structure (:data:`SIZING_ACCOUNTING`).
    """
    c = _check_int("channels", channels, 0, MAX_CHANNELS, "TOPOLOGY-012")
    u = _check_int("group_urs", group_urs, 0, MAXDEPTH_MAX, "TOPOLOGY-012")
    stored = c * SYNCQ_MESSAGES_PER_CHANNEL * message_bytes(SYNCQ_MESSAGE_BYTES, accounting) + u * message_bytes(
        UR_RESOLUTION_MESSAGE_BYTES, accounting
    )
    return (accounting.fixed_kb * KB + stored * accounting.overhead) / MB


def _channels_within(size_kb: int, group_urs: int, accounting: Accounting) -> int | None:
    room = size_kb * KB - csqsysappl_required_mb(0, group_urs, accounting) * MB
    if room < 0:
        return None
    per_channel = SYNCQ_MESSAGES_PER_CHANNEL * message_bytes(SYNCQ_MESSAGE_BYTES, accounting) * accounting.overhead
    return min(MAX_CHANNELS, math.floor(room / per_channel))


def csqsysappl_recommend(
    channels: int = 0,
    group_urs: int = UR_RESOLUTION_MESSAGES,
    *,
    qsg: str = SEED_QSG,
    fullthreshold: int = CSQSYSAPPL_FULLTHRESHOLD,
    accounting: Accounting = DEFAULT_ACCOUNTING,
) -> CsqsysapplRecommendation:
    """TOPOLOGY-011/012: CFRM statements for ``qsg-nameCSQSYSAPPL``.

    Seed 001 suggests INITSIZE(20480) /* 20 MB */ SIZE(30720) /* 30 MB */
    FULLTHRESHOLD(85), and "These values can be adjusted depending on your use of
    shared channels and group units of recovery".  INITSIZE is the larger of IBM's
    20480 and the need of :func:`csqsysappl_required_mb` rounded up to a whole MB;
    SIZE is :data:`SIZE_FACTOR` x INITSIZE rounded up to a whole MB, which for 20480 is
    IBM's own 30720.  With the defaults (no shared channels, Table 3's 1000 units of
    recovery) the answer is IBM's suggestion exactly; it grows past it from about
    4,200 active shared channel instances.
    """
    need = csqsysappl_required_mb(channels, group_urs, accounting)
    _check_fullthreshold(fullthreshold)
    initsize = max(CSQSYSAPPL_INITSIZE_KB, whole_mb_kb(need))
    covers = _channels_within(CSQSYSAPPL_INITSIZE_KB, group_urs, accounting)
    nearest = Comparison(
        "CSQSYSAPPL suggestion (seed 001, with Table 3)",
        "figure",
        "INITSIZE(20480)",
        CSQSYSAPPL_INITSIZE_KB,
        initsize,
        True,
    )
    covered = "no shared channel instances" if covers is None else f"{covers:,} active shared channel instances"
    notes = (
        f"IBM's suggested INITSIZE(20480) holds {group_urs:,} group units of recovery and {covered} by this "
        f"accounting [TOPOLOGY-012]",
    )
    basis = "IBM's suggestion" if initsize == CSQSYSAPPL_INITSIZE_KB else "the need rounded up to a whole MB"
    size_kb = max(CSQSYSAPPL_SIZE_KB, size_for(initsize))  # 1.5 x 20480 is IBM's own 30720
    return CsqsysapplRecommendation(
        _qsg_structure(qsg, SYSAPPL_NAME),
        need,
        initsize,
        size_kb,
        fullthreshold,
        nearest,
        basis,
        notes,
        channels=channels,
        group_urs=group_urs,
        suggestion_covers_channels=covers,
    )
