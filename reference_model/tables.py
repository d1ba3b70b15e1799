"""IBM's published tables, transcribed from the seeds (data only).

Table 1 and Table 2 come from seed 001 ("Planning your coupling facility and
offload storage environment"); the V6 edition of Table 1 from the notes
(ibm-facts 6.2).
"""

from __future__ import annotations

from collections.abc import Mapping

from .units import KB

#: Table 1, minimum CSQ_ADMIN size in KB by number of queue managers (CFCC level 14).
ADMIN_MIN_KB_CFCC14: Mapping[int, int] = {
    1: 6144, 2: 6912, 3: 7976, 4: 8704, 5: 9728, 6: 10496, 7: 11520, 8: 12288,
    9: 13056, 10: 14080, 11: 14848, 12: 15616, 13: 16640, 14: 17408, 15: 18176,
    16: 19200, 17: 19968, 18: 20736, 19: 21760, 20: 22528, 21: 23296, 22: 24320,
    23: 25088, 24: 25856, 25: 27136, 26: 27904, 27: 28672, 28: 29696, 29: 30464,
    30: 31232, 31: 32256,
}  # fmt: skip

#: The V6 (CFCC level 9) edition of Table 1: only these rows are published.
ADMIN_MIN_KB_V6: Mapping[int, int] = {1: 2560, 2: 3328, 4: 4608, 8: 7680, 16: 13568, 31: 24832}

ADMIN_TABLES: Mapping[str, Mapping[int, int]] = {"cfcc14": ADMIN_MIN_KB_CFCC14, "v6": ADMIN_MIN_KB_V6}

#: Table 2: structure size in MB for (number of messages, message size in bytes).
TABLE2_SIZES = (1 * KB, 2 * KB, 4 * KB, 8 * KB, 16 * KB, 32 * KB, 63 * KB)
TABLE2_MB: Mapping[int, tuple[int, ...]] = {
    100: (6, 6, 7, 7, 8, 10, 14),
    1000: (8, 9, 12, 17, 27, 48, 88),
    10000: (25, 38, 64, 115, 218, 423, 821),
    100000: (199, 327, 584, 1097, 2124, 4177, 8156),
}

#: Table 3: CSQSYSAPPL default queues and their sizing (seed 001).
CSQSYSAPPL_QUEUES: Mapping[str, str] = {
    "SYSTEM.QSG.CHANNEL.SYNCQ": "2 messages of 500 bytes per active instance of a shared channel",
    "SYSTEM.QSG.UR.RESOLUTION.QUEUE": "1000 messages of 2 KB",
}
#: The suggested CSQSYSAPPL CFRM statements (seed 001).
CSQSYSAPPL_INITSIZE_KB = 20480
CSQSYSAPPL_SIZE_KB = 30720
CSQSYSAPPL_FULLTHRESHOLD = 85


def admin_min_kb(qmgr_count: int, table: str = "cfcc14") -> int | None:
    """Table 1 minimum for ``qmgr_count`` (TOPOLOGY-008), or ``None`` when the
    edition does not publish a row at or above that count.

    For an unpublished count the next published row above it applies.
    """
    rows = ADMIN_TABLES[table]
    for count in sorted(rows):
        if count >= qmgr_count:
            return rows[count]
    return None
