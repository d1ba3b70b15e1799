"""Units and size spellings used by the IBM texts (``32K``, ``63.75 KB``, ``100 MB``)."""

from __future__ import annotations

KB = 1024
MB = 1024 * KB
GB = 1024 * MB

#: 63 KB, the "larger than 63 KB" boundary of seeds 001 and 003 (64 512 bytes, CFSizer help).
SIZE_63K = 63 * KB
#: 63.75 KB, "too large to store in the structure" in seed 002 (255 elements of 256 bytes).
SIZE_63_75K = 65_280
#: 100 MB, the largest message at CFLEVEL(4) and (5) and the MQ MAXMSGL ceiling.
SIZE_100MB = 100 * MB


def parse_k(value: int | str) -> int:
    """Return an OFFLDnSZ-style size (``"32K"``, ``"64K"``, ``4096``) in bytes.

    Integers are taken as bytes; strings must end in ``K``.  Raises ``ValueError``
    for anything else; callers turn that into a :class:`ConfigurationError`.
    """
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, int):
        return value
    text = str(value).strip().upper()
    if text.endswith("K") and text[:-1].isdigit():
        return int(text[:-1]) * KB
    raise ValueError(value)


def format_k(nbytes: int) -> str:
    """The OFFLDnSZ spelling of a size in bytes (``32768`` -> ``"32K"``)."""
    if nbytes % KB == 0:
        return f"{nbytes // KB}K"
    return str(nbytes)
