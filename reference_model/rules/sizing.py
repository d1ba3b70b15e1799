"""SIZING rules: application structure sizing (seed 001, 002; ibm-facts 6.1). Profile ``mq``."""

from __future__ import annotations

from .catalogue import MQ, SEED_001, SEED_002, Citation, Rule

RULES: tuple[Rule, ...] = (
    Rule(
        id="SIZING-001",
        title="A structure holds what Table 2 sizes it for (judged with a fourfold margin).",
        citation=Citation(SEED_001, "Table 2. Calculating the size of a coupling facility structure"),
        status="normative",
        observables=(
            "put.ok",
            "put.usage",
            "inspect.structures.*.entries_total",
            "inspect.structures.*.elements_total",
        ),
        profiles=MQ,
    ),
    Rule(
        id="SIZING-002",
        title="200,000 messages of 1 KB need a structure of 256 through 512 MB.",
        citation=Citation(
            SEED_001,
            "For example, for 200 000 messages of length 1 KB gives a value in the range 256 through 512 MB.",
        ),
        status="normative",
        observables=("config.structures.*.size_kb",),  # a worked example: `cfconform size` checks it
        profiles=MQ,
    ),
    Rule(
        id="SIZING-003",
        title="CFRM: INITSIZE the need in KB up to a whole MB; SIZE 1.5x that, within a factor 2; FULLTHRESHOLD(85).",
        citation=Citation(SEED_001, "INITSIZE(value from graph in KB, that is, multiplied by 1024)"),
        status="normative",
        observables=(
            "config.structures.*.initsize_kb",
            "config.structures.*.size_kb",
            "config.structures.*.fullthreshold",
        ),
        profiles=MQ,
    ),
    Rule(
        id="SIZING-004",
        title="OFFLD3TH reserving room for N offloaded messages: usable share minus N x 0.75 KB of the structure.",
        citation=Citation(
            SEED_002,
            "to ensure space is reserved for that predetermined number of messages.",
        ),
        status="normative",
        observables=("config.structures.*.offld3th", "config.structures.*.size_kb"),
        profiles=MQ,
    ),
    Rule(
        id="SIZING-005",
        title="Per message: one entry plus ceil((length + header) / 256) elements; constants calibrated by us.",
        citation=Citation(
            "ibm-facts: 6.1 Application structure size table",
            "Use the fit only for interpolation, and say it is ours, not IBM's.",
        ),
        status="implementation-defined",
        observables=(
            "put.usage",
            "inspect.structures.*.entries_used",
            "inspect.structures.*.elements_used",
            "inspect.structures.*.entries_total",
            "inspect.structures.*.elements_total",
            "config.structures.*.ratio",
            "config.accounting.element_bytes",
            "config.accounting.entry_bytes",
            "config.accounting.header_bytes",
            "config.accounting.overhead",
            "config.accounting.fixed_kb",
            "config.accounting.offloaded_elements",
        ),
        profiles=("mq", "cqs"),
    ),
)
