"""Generated parts of docs/PROTOCOL.md and the files of docs/schemas/.

docs/PROTOCOL.md is written by hand except between marker comments::

    <!-- generated:NAME -->
    ...
    <!-- /generated:NAME -->

whose contents come from the code (the error registry, the operation records,
the outcome fields, the reason codes).  Regenerate everything with

    .venv/bin/python -m cfconform.adapters.wire.docgen

and ``--check`` (used by the tests) lists what is stale without writing.
"""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path
from typing import Any

import attrs

from cfconform.reference_model import outcomes as outcome_module
from cfconform.reference_model.operations import OPERATIONS

from . import schemas
from .messages import ERRORS

REPO = Path(__file__).resolve().parents[2]
PROTOCOL_MD = REPO / "docs" / "PROTOCOL.md"
SCHEMA_DIR = REPO / "docs" / "schemas"
_SECTION = re.compile(r"(<!-- generated:(?P<name>[a-z-]+) -->\n)(?P<body>.*?)(<!-- /generated:(?P=name) -->)", re.S)


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


_WORDS = {"str": "string", "int": "integer", "bool": "boolean", "float": "number"}


def _type_text(annotation: Any) -> str:
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
    text = (
        text.replace("tuple[str, ...]", "list of str")
        .replace("StructureDef | dict[str, Any]", "structure record")
        .replace("QueueDef | dict[str, Any]", "queue record")
        .replace("Changes", "object (keyword: value)")
        .replace(" | None", " or null")
    )
    return re.sub(r"\b(str|int|bool|float)\b", lambda m: _WORDS[m.group(1)], text)


def _default_text(a: attrs.Attribute) -> str:
    if a.default is attrs.NOTHING:
        return "required"
    value = a.default
    if isinstance(value, attrs.Factory):  # type: ignore[arg-type]
        return "optional"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "false" if not value else "true"
    return f"{value}"


def errors_table() -> str:
    lines = ["| code | name | definite | when |", "| ---: | --- | --- | --- |"]
    for e in ERRORS:
        lines.append(f"| {e.code} | `{e.name}` | {'yes' if e.definite else 'no'} | {_cell(e.doc)} |")
    return "\n".join(lines) + "\n"


def operations_table() -> str:
    lines = ["| `op` | meaning | fields (type, default) |", "| --- | --- | --- |"]
    for cls in OPERATIONS:
        doc = (inspect.getdoc(cls) or "").split("\n\n")[0].replace("\n", " ")
        fields = (
            "; ".join(f"`{a.name}` ({_type_text(a.type)}, {_default_text(a)})" for a in attrs.fields(cls)) or "none"
        )
        lines.append(f"| `{cls.KIND}` | {_cell(doc)} | {_cell(fields)} |")
    return "\n".join(lines) + "\n"


_OUTCOME_FIELDS = {
    "kind": "the operation's `op` (always present)",
    "ok": "whether it succeeded (always present)",
    "reason": "an MQRC number or an abstract reason string (see the reason table); omit or null on success",
    "rules": "rule IDs that decided the outcome; informative, never compared",
    "offloaded": "for a successful MQ put to a shared queue: whether its data went to SMDS/Db2",
    "tag": "for a successful get: the `tag` of the message retrieved",
    "events": "queue depth event messages produced: objects {qmgr, kind (QDPHI/QDPLO/QFULL), queue, correl, enq, deq}",
    "signals": 'other observable effects as "NAME SUBJECT" strings, e.g. "IXC585E APP1"',
    "usage": "[entries_used, entries_total, elements_used, elements_total] of the structure the op touched",
    "value": "for inspect: the observable state (see Inspect)",
    "location": "since 1.1, optional: for a successful MQ put to a shared queue, where its data is kept: "
    '`"CF"` (in the structure), `"SMDS"` or `"DB2"` (offloaded, per the structure\'s OFFLOAD; DB2 at CFLEVEL(4))',
}


def outcome_table() -> str:
    lines = ["| field | type | meaning |", "| --- | --- | --- |"]
    props = schemas.schemas()["outcome"]["properties"]
    for a in attrs.fields(outcome_module.Outcome):
        prop = props[a.name]
        kind = prop.get("type") or ("array or null" if "anyOf" in prop else "any")
        if "enum" in prop and a.name == "kind":
            kind = "string (an op kind)"
        if isinstance(kind, list):
            kind = " or ".join(kind)
        lines.append(f"| `{a.name}` | {kind} | {_cell(_OUTCOME_FIELDS.get(a.name, ''))} |")
    return "\n".join(lines) + "\n"


def reasons_table() -> str:
    lines = ["| reason | constant | profile |", "| --- | --- | --- |"]
    for name, value in vars(outcome_module).items():
        if name.startswith("MQRC_") and isinstance(value, int):
            lines.append(f"| `{value}` | `{name}` | mq |")
    for name, value in vars(outcome_module).items():
        if name.startswith(("CQS_", "CMD_")) and isinstance(value, str):
            profile = "cqs" if name.startswith("CQS_") else "both (commands)"
            lines.append(f'| `"{value}"` | `{name}` | {profile} |')
    return "\n".join(lines) + "\n"


def schema_list() -> str:
    lines = []
    for name in schemas.schemas():
        lines.append(f"- [`{name}.json`](schemas/{name}.json): {schemas.schemas()[name].get('title', name)}")
    return "\n".join(lines) + "\n"


SECTIONS = {
    "errors": errors_table,
    "operations": operations_table,
    "outcome": outcome_table,
    "reasons": reasons_table,
    "schemas": schema_list,
}


def render_protocol(text: str) -> str:
    """``text`` with every generated section replaced by its current contents."""

    def replace(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in SECTIONS:
            raise KeyError(f"unknown generated section {name!r} in docs/PROTOCOL.md")
        return f"{match.group(1)}{SECTIONS[name]()}{match.group(4)}"

    return _SECTION.sub(replace, text)


def stale() -> list[str]:
    """Files that differ from what the code generates (empty when all are up to date)."""
    out = []
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    if render_protocol(text) != text:
        out.append(str(PROTOCOL_MD.relative_to(REPO)))
    for name, schema in schemas.schemas().items():
        path = SCHEMA_DIR / f"{name}.json"
        if not path.exists() or path.read_text(encoding="utf-8") != schemas.render(schema):
            out.append(str(path.relative_to(REPO)))
    expected = {f"{name}.json" for name in schemas.schemas()}
    out += [str(p.relative_to(REPO)) for p in sorted(SCHEMA_DIR.glob("*.json")) if p.name not in expected]
    return out


def write() -> list[str]:
    """Regenerate docs/PROTOCOL.md's sections and docs/schemas/; return the files written."""
    written = []
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    new = render_protocol(text)
    if new != text:
        PROTOCOL_MD.write_text(new, encoding="utf-8")
        written.append(str(PROTOCOL_MD))
    written += [str(p) for p in schemas.write(SCHEMA_DIR)]
    return written


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if "--check" in args:
        old = stale()
        for path in old:
            print(f"stale: {path}")
        return 1 if old else 0
    for path in write():
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
