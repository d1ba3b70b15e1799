"""The documented boundaries generation leans toward (shared by Hypothesis strategies and the seeded generator).

Each value is a boundary named by IBM's text, or one unit either side of it.
"""

from __future__ import annotations

from cfconform.reference_model.units import KB, SIZE_63_75K, SIZE_63K, SIZE_100MB


def around(*points: int, lo: int = 0, hi: int | None = None) -> tuple[int, ...]:
    """Each point and one unit either side, sorted, kept within ``lo..hi``."""
    return tuple(sorted({v for p in points for v in (p - 1, p, p + 1) if v >= lo and (hi is None or v <= hi)}))


#: Message lengths: 0, 4K, 32K, 63K, 63.75K, 64K (OFFLDnSZ values) and 100 MB (CFLEVEL-005).
MQ_LENGTHS = (*around(0, 4 * KB, 32 * KB, SIZE_63K, SIZE_63_75K, 64 * KB), SIZE_100MB - 1, SIZE_100MB)
#: The large-message boundaries: 63K (CFLEVEL(4) needed above it), 63.75K (forced offload), 64K.
LARGE_MESSAGE_BOUNDARIES = (SIZE_63K, SIZE_63_75K, 64 * KB)
#: Lengths strictly between boundaries, where two readings of a boundary disagree (63K < 64896 < 63.75K),
#: and small messages that move usage in small steps.
MQ_INTERIOR_LENGTHS = (100, 600, 1000, 3000, 64_896)
#: Thresholds (percent): each default and the ends of the range, and two interior values.
THRESHOLDS = (*around(0, 70, 80, 90, 100, hi=100), 20, 50)
#: One threshold for all three offload rules: low enough that a structure passing it still has room.
SHARED_THRESHOLDS = (1, 20, 50, 70)
#: FULLTHRESHOLD values: off (0), the ends of the range and the usual settings.
FULLTHRESHOLDS = (0, 1, 50, 80, 85, 99, 100)
#: OFFLDnSZ values: the defaults, the off switch and one KB either side.
OFFLOAD_SIZES = (0, 1 * KB, 3 * KB, 4 * KB, 5 * KB, 31 * KB, 32 * KB, 33 * KB, 63 * KB, 64 * KB)
#: Clock advances for CQS: around the 15-minute scan.
CLOCK_STEPS = (1, 60, 300, 600, 899, 900, 901, 1800)
#: MQ: time for z/OS's structure-full monitoring to catch up, or not yet (FULL_MONITOR_BOUND, 3600).
MQ_CLOCK_STEPS = (60, 3599, 3600)
#: Fixed structure overhead of the model's accounting is 6144 KB; sizes just above keep thresholds reachable.
SMALL_STRUCTURE_KB = (6146, 6148, 6151, 6160, 6200, 6300, 6400, 7000)
#: Entry:element ratios, from entries running out first (1) to elements running out first (90).
RATIOS = (1, 2, 4, 6, 12, 60, 90)
#: LGMSGSZ values: multiples of 4 and not (rounded up), and above the 30632 cap (CQS-021).
LGMSGSZ = (1, 127, 128, 512, 601, 1024, 4095, 4096, 30632, 30633, 40000)
#: OVFLWMAX values: the default and the ends of the range (0 and 1 twice: OVFLWMAX(0) starts the
#: alter on the first put, a reading mutants get wrong), and around the usual settings.
OVFLWMAX = (None, None, None, None, 0, 0, 1, 1, 100, *around(30, 50, 70), 75)
#: Queue-count boundary (TOPOLOGY-005): filler queues so the 512th and 513th can be defined.
QUEUE_TOTALS = (511, 512)
#: Application-structure boundary (TOPOLOGY-003/004): so the 63rd and 64th can be defined.
STRUCTURE_TOTALS = (62, 63)
#: MAXDEPTH values: small ones (a multiple of 100 would need hundreds of puts to reach QDEPTHHI), and the
#: default 5000 for queues that must take many messages (structure usage, offload thresholds).
MAXDEPTHS = (0, 1, 2, 3, 5, 7, 10, 20, 5000, 5000)
DEPTH_PERCENTS = around(0, 20, 50, 80, 100, hi=100)
