"""The rule record and the catalogue's lookup functions.

Rules are data (DEVELOPERS.md, principle 2): every documented rule has a stable
``FAMILY-NNN`` ID that is never renumbered, a citation, a status and the
observables it constrains.  Ambiguous rules list their admissible readings by
the ambiguity IDs of :mod:`cfconform.reference_model.readings`.
"""

from __future__ import annotations

import re

import attrs

RULE_ID = re.compile(r"^(CQS|OFFLOAD|CFLEVEL|CAPACITY|TOPOLOGY|SIZING|QDEPTH|RECOVERY|QUEUE)-\d{3}$")
STATUSES = ("normative", "inferred", "implementation-defined")

#: The seed files rules cite (``../shared/seeds/``), and the profile tuples they apply to.
SEED_000 = "seed 000_869f717547e3a89a.txt"
SEED_001 = "seed 001_bbb586403b3000fc.txt"
SEED_002 = "seed 002_adc847a8fc6c1ca2.txt"
SEED_003 = "seed 003_83ac8579f7e0d9f5.txt"
SEED_004 = "seed 004_97a0fff9f37ed76b.txt"
MQ = ("mq",)
CQS = ("cqs",)
BOTH = ("mq", "cqs")


#: The IBM documents the seed files hold, by seed number: what users are shown (never file names).
SEED_TITLES = {
    "000": "IMS: CQS structure overflow function",
    "001": "IBM MQ for z/OS: Planning your coupling facility and offload storage environment",
    "002": "IBM MQ for z/OS: Specifying offload options for shared messages",
    "003": "IBM MQ for z/OS: Where are shared queue messages held?",
    "004": "IBM MQ for z/OS: Shared queues and queue depth events",
}
_SECTION_NUMBER = re.compile(r"^\d+(\.\d+)*\s+")


_SEED_MENTION = re.compile(r"seeds? (\d{3})(?:_[0-9a-f]+\.txt)?(?:/(\d{3}))?")
_NOTES_MENTION = re.compile(r"ibm-facts:?(?: \d+(?:\.\d+)*)?")


def readable(text: str) -> str:
    """``text`` with the project's internal names of its sources replaced by what users know:
    a seed's document title, "IBM documentation" for the notes that summarise IBM's wider text."""

    def seed(match: re.Match[str]) -> str:
        titles = [SEED_TITLES.get(n, "IBM documentation") for n in match.groups() if n]
        return " and ".join(f"“{t}”" for t in titles)

    return _NOTES_MENTION.sub("IBM documentation", _SEED_MENTION.sub(seed, text))


@attrs.frozen
class Citation:
    """Where a rule comes from: a seed file and a short quote, or an IBM source title."""

    source: str
    quote: str

    @property
    def document(self) -> str:
        """The IBM document (and topic) the quote comes from, as users are shown it: a seed's
        title, or the IBM topic the notes (shared/notes/ibm-facts.md) quote, without file names
        or the notes' own section numbers."""
        if self.source.startswith("seed "):
            return SEED_TITLES.get(self.source[5:8], "IBM documentation")
        topic = _SECTION_NUMBER.sub("", self.source.removeprefix("ibm-facts:").strip())
        return f"IBM documentation: {topic}" if topic else "IBM documentation"


@attrs.frozen
class Rule:
    """One documented rule.

    Attributes:
        id: stable ``FAMILY-NNN`` identifier.
        family: the rule family (the ID prefix).
        title: the rule in our words, one line.
        citation: seed file name and quote, or IBM source title from the notes.
        status: ``normative``, ``inferred`` or ``implementation-defined``.
        observables: the outcome or state fields this rule constrains.
        readings: IDs of the ambiguities (see ``cfconform.reference_model.readings``) whose
            admissible readings apply to this rule; empty when unambiguous.
        profiles: the model profiles (``mq``, ``cqs``) where the rule applies.
    """

    id: str
    title: str
    citation: Citation
    status: str
    observables: tuple[str, ...]
    readings: tuple[str, ...] = ()
    profiles: tuple[str, ...] = ("mq",)

    @property
    def family(self) -> str:
        return self.id.split("-", 1)[0]
