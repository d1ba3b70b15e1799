"""``cfconform replay``: replay a reproducer transcript against an implementation.

Examples::

    cfconform replay cfconform-report/reproducers/OFFLOAD-002-1a2b3c4d.json --adapter mypkg.impl:MyAdapter
    cfconform replay OFFLOAD-002-1a2b3c4d.json --adapter reference     # passes: the model conforms

Prints each step's verdict and, at the divergence, the rule IDs, field, expected
and observed values.  Exit codes: 1 the trace still diverges (failure
confirmed), 0 it now conforms, 3 adapter fault, 2 bad transcript or adapter
spec, 4 the recorded failure was not judged (a transcript with no operation, or
one that ended unjudged: an operation not supported, a divergence on unclaimed
rules only).
"""

from __future__ import annotations

import argparse
from typing import Any

from cfconform.judge.trace import TraceResult

from .run import add_adapter_arguments

NAME = "replay"
HELP = "replay a reproducer transcript; exit 1 if it still diverges, 0 if it now conforms"
EXIT_OK, EXIT_NONCONFORMING, EXIT_ADAPTER, EXIT_NOTHING_JUDGED = 0, 1, 3, 4


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a transcript written by `cfconform run` (reproducers/*.json)")
    add_adapter_arguments(parser)


def step_lines(transcript: dict[str, Any], result: TraceResult) -> list[str]:
    """One line per step: ``ok``, the divergence (rules, field, expected vs observed), the fault, or not run."""
    from cfconform.conformance.reproducer import op_text

    d, fault = result.divergence, result.fault
    if d is not None and d.op.get("op") == "open":  # a configuration a sentence forbids, opened
        return ["open: DIVERGES", f"    rules:    {', '.join(d.rules)}", f"    field:    {d.field}",
                f"    expected: {d.expected!r}", f"    observed: {d.observed!r}"]  # fmt: skip
    stop = d.step if d is not None else fault.step if fault is not None and fault.step is not None else None
    if result.unjudged is not None:
        stop = result.steps_checked
    lines = []
    for i, op in enumerate(transcript["ops"]):
        head = f"step {i:>3} {op_text(op)}"
        if stop is not None and i > stop:
            lines.append(f"{head}: not judged")
        elif d is not None and i == d.step:
            lines += [
                f"{head}: DIVERGES",
                f"    rules:    {', '.join(d.rules)}",
                f"    field:    {d.field}",
                f"    expected: {d.expected!r}",
                f"    observed: {d.observed!r}",
            ]
        elif fault is not None and i == stop:
            lines.append(f"{head}: ADAPTER FAULT: {fault.message}")
        elif result.unjudged is not None and i == stop:
            lines.append(f"{head}: NOT JUDGED: {result.unjudged}")
        else:
            lines.append(f"{head}: ok")
    if fault is not None and fault.step is None:
        lines.append(f"adapter fault before the first step: {fault.message}")
    return lines


def _matches(transcript: dict[str, Any], result: TraceResult) -> bool:
    exp, d = transcript["expected"], result.divergence
    if d is None:
        return exp.get("kind") == "fault" and result.fault is not None
    return (d.step, d.field, list(d.rules[:1])) == (exp["step"], exp["field"], list(exp["rules"][:1]))


def run(args: argparse.Namespace) -> int:
    from cfconform.conformance.reproducer import adapter_factory, load_transcript, replay

    transcript = load_transcript(args.file)
    factory, spec = adapter_factory(args.adapter, args.adapter_cmd, timeout=args.timeout)
    exp = transcript["expected"]
    print(
        f"replaying {args.file} ({len(transcript['ops'])} operations, {transcript['profile']} profile) "
        f"against {spec}; recorded against {transcript['adapter']}"
    )
    adapter = factory()
    try:
        result = replay(transcript, adapter)
    finally:
        adapter.close()
    print("\n".join(step_lines(transcript, result)))
    recorded = f"step {exp['step']}, field {exp['field']} [{', '.join(exp['rules'])}]"
    if result.fault is not None:
        print(f"result: ADAPTER FAULT (exit 3); recorded failure: {recorded}")
        return EXIT_ADAPTER
    if result.divergence is not None:
        same = "the recorded failure" if _matches(transcript, result) else f"a different failure (recorded: {recorded})"
        print(f"result: DIVERGES (exit 1): {same} is confirmed")
        return EXIT_NONCONFORMING
    if result.unjudged is not None:
        print(f"result: NOT JUDGED (exit 4): {result.unjudged}; the recorded failure ({recorded}) is not cleared")
        return EXIT_NOTHING_JUDGED
    if not transcript["ops"] and result.rules_exercised:  # a forbidden configuration, refused
        rules = ", ".join(result.rules_exercised)
        print(f"result: CONFORMS (exit 0): the configuration was refused at open, as {rules} requires; "
              f"recorded failure was {recorded}")  # fmt: skip
        return EXIT_OK
    if not result.steps_checked:  # a transcript with no operation: nothing judged is not a pass
        print(f"result: NOTHING JUDGED (exit 4): the transcript has no operation; recorded failure was {recorded}")
        return EXIT_NOTHING_JUDGED
    print(f"result: CONFORMS (exit 0): all {result.steps_checked} steps pass; recorded failure was {recorded}")
    return EXIT_OK
