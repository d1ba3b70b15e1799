"""The out-of-process wire protocol (docs/PROTOCOL.md): implementations in any language.

- :mod:`cfconform.adapters.wire.messages`: message builders and checks, the error registry, size limits.
- :mod:`cfconform.adapters.wire.schemas`: JSON Schemas (draft 2020-12) of every message and record.
- :mod:`cfconform.adapters.wire.client`: :class:`~cfconform.adapters.wire.client.WireAdapter`, the suite's side:
  an Adapter that runs an implementation process; :mod:`.process` (the process and the line framing,
  :class:`~cfconform.adapters.wire.process.WireConnection`), :mod:`.peer` (errors, version negotiation)
  and :mod:`.strays` (descendants left behind) are its parts.
- :mod:`cfconform.adapters.wire.server`: :func:`~cfconform.adapters.wire.server.serve`, any in-process Adapter
  exposed over the protocol (``cfconform serve-reference``).
- :mod:`cfconform.adapters.wire.docgen`: the generated parts of docs/PROTOCOL.md and docs/schemas/.
"""

from ..protocol import PROTOCOL_VERSION
from .messages import ERRORS, MAX_LINE_BYTES

__all__ = ["ERRORS", "MAX_LINE_BYTES", "PROTOCOL_VERSION", "WireAdapter", "serve"]


def __getattr__(name: str):  # lazy: importing the package does not start threads or import subprocess
    if name == "WireAdapter":
        from .client import WireAdapter

        return WireAdapter
    if name == "serve":
        from .server import serve

        return serve
    raise AttributeError(name)
