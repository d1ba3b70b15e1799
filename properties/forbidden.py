"""Forbidden configurations: a valid configuration's record changed to break one documented limit.

Each case names the rule it breaks (one of :data:`cfconform.judge.opening.DECIDED_AT_OPEN`) and
changes one thing, just past the limit: a five-character QSG name, a QSG named like one of its
queue managers, a 64th application structure (a 63rd for messages
beside CSQSYSAPPL), a 513th queue on one structure, a 13-character or digit-first structure name,
CFLEVEL(0) and (6), FULLTHRESHOLD(101), QDEPTHHI(101) and MAXDEPTH one past
999 999 999.  :func:`record` returns the record only if the model refuses it on that rule alone,
so a case never judges a limit it did not mean to break.  The directed cases
(:mod:`cfconform.properties.directed`) open each once per run of the mq profile; the judge is
:func:`cfconform.judge.opening.judge_open`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from cfconform.judge.opening import forbidden_by
from cfconform.reference_model.config import Config
from cfconform.reference_model.validation import (
    MAX_QUEUES_PER_STRUCTURE,
    MAX_STRUCTURES_PER_QSG,
    QSG_MAX_LENGTH,
    SYSAPPL_NAME,
)

Record = dict[str, Any]


def _qsg_too_long(r: Record) -> None:
    r["qsg"] = (r["qsg"] + "QSGXY")[: QSG_MAX_LENGTH + 1]


def _qsg_is_a_qmgr(r: Record) -> None:
    """The first queue manager renamed to the QSG's name (its queues and PERFMEV setting follow)."""
    old, new = r["qmgrs"][0], r["qsg"]
    r["qmgrs"] = [new if m == old else m for m in r["qmgrs"]]
    r["perfmev_disabled"] = [new if m == old else m for m in r["perfmev_disabled"]]
    for q in r["queues"]:
        if q["qmgr"] == old:
            q["qmgr"] = new


def _structures_up_to(total: int, sysappl: bool) -> Callable[[Record], None]:
    def change(r: Record) -> None:
        template = {**r["structures"][0], "ovflwmax": None, "ovflwstr": None}
        if not sysappl:  # (TOPOLOGY-003 alone: without CSQSYSAPPL, whose limit is TOPOLOGY-004's)
            r["structures"] = [s for s in r["structures"] if s["name"] != SYSAPPL_NAME]
            r["queues"] = [q for q in r["queues"] if q["cfstruct"] != SYSAPPL_NAME]
        names = [s["name"] for s in r["structures"]]
        if sysappl and SYSAPPL_NAME not in names:
            r["structures"].append({**template, "name": SYSAPPL_NAME})
        i = 0
        while len(r["structures"]) < total:
            i += 1
            if f"X{i}" not in names:
                r["structures"].append({**template, "name": f"X{i}"})

    return change


def _queues_on_first_structure(total: int) -> Callable[[Record], None]:
    def change(r: Record) -> None:
        on = r["structures"][0]["name"]
        names = {q["name"] for q in r["queues"]}
        held = sum(1 for q in r["queues"] if q["cfstruct"] == on)
        i = 0
        while held < total:
            i += 1
            if f"FILL.{i}" not in names:
                r["queues"].append({"name": f"FILL.{i}", "cfstruct": on, "qmgr": None, "maxdepth": 10})
                held += 1

    return change


def _first_structure_named(name: str) -> Callable[[Record], None]:
    def change(r: Record) -> None:
        old = r["structures"][0]["name"]
        r["structures"][0]["name"] = name
        for q in r["queues"]:
            if q["cfstruct"] == old:
                q["cfstruct"] = name

    return change


def _first_structure(**fields: Any) -> Callable[[Record], None]:
    def change(r: Record) -> None:
        r["structures"][0].update(fields)

    return change


def _first_queue(**fields: Any) -> Callable[[Record], None]:
    def change(r: Record) -> None:
        if not r["queues"]:
            r["queues"].append({"name": "Q0", "cfstruct": r["structures"][0]["name"], "qmgr": None})
        r["queues"][0].update(fields)

    return change


#: Case name: (the rule it breaks, the change).
CASES: dict[str, tuple[str, Callable[[Record], None]]] = {
    "qsg of five characters": ("TOPOLOGY-015", _qsg_too_long),
    "qsg named like a queue manager": ("TOPOLOGY-015", _qsg_is_a_qmgr),
    "64 application structures": ("TOPOLOGY-003", _structures_up_to(MAX_STRUCTURES_PER_QSG, sysappl=False)),
    "63 beside CSQSYSAPPL": ("TOPOLOGY-004", _structures_up_to(MAX_STRUCTURES_PER_QSG, sysappl=True)),
    "513 queues on a structure": ("TOPOLOGY-005", _queues_on_first_structure(MAX_QUEUES_PER_STRUCTURE + 1)),
    "structure name of 13 characters": ("TOPOLOGY-009", _first_structure_named("APPLICATIONSX")),
    "structure name starting with a digit": ("TOPOLOGY-009", _first_structure_named("1APP")),
    "CFLEVEL(6)": ("CFLEVEL-001", _first_structure(cflevel=6)),
    "CFLEVEL(0)": ("CFLEVEL-001", _first_structure(cflevel=0)),
    "FULLTHRESHOLD(101)": ("CAPACITY-009", _first_structure(fullthreshold=101)),
    "QDEPTHHI(101)": ("QDEPTH-014", _first_queue(qdepthhi=101)),
}


def record(config: Config, case: str) -> Record | None:
    """``config``'s record changed by ``case``, if the model refuses it on the case's rule (else None:
    this configuration cannot break that limit alone)."""
    rule, change = CASES[case]
    if config.profile != "mq" or not config.structures:
        return None
    out = copy.deepcopy(config.to_record())
    change(out)
    err = forbidden_by(out)
    return out if err is not None and err.rule_id == rule else None
