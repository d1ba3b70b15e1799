"""An independent reading seen through less: ``python3 withholding.py IMPL VARIANT`` serves the
implementation at IMPL (a kit's ``impl.py`` with ``Server(fault, out)`` or ``Server(out)``) and, by VARIANT, declares
no readings (``unknown``: the suite must infer them) or withholds observables it then declares
unobserved (``none``: no usage, events, signals or inspect; ``events``: events only; ``nousage``:
no usage; ``usage``: usage only; ``nosignals``: all but the CQS signals).  A fair checker judges
such a build only on what it shows (principle 2)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # (run as a script: the repository's benchmarks/)

from benchmarks.loopback import _load, _Replies

KEEP = {
    "unknown": None,
    "none": [],
    "events": ["events"],
    "nousage": ["events", "signals", "inspect"],
    "usage": ["usage"],
    "nosignals": ["usage", "events", "inspect"],
}


def _strip(outcome: dict, keep: list[str]) -> None:
    for key in ("usage", "signals", "events"):
        if key not in keep:
            outcome.pop(key, None)


def main(impl: str, variant: str) -> None:
    module = _load(Path(impl).resolve())  # (with the kit's folder on sys.path, as a script would have it)
    keep, out = KEEP[variant], _Replies()
    try:
        server = module.Server(None, out)
    except TypeError:  # (the third and fourth readings' Server takes only its output)
        server = module.Server(out)
    handle = getattr(server, "handle_line", None) or (lambda raw: server.handle(raw.decode()))  # (the eleventh: text)
    for line in sys.stdin.buffer:
        request = json.loads(line) if line.strip() else None
        op = request.get("op") if isinstance(request, dict) else None
        if keep is not None and "inspect" not in keep and isinstance(op, dict) and op.get("op") == "inspect":
            text = "inspect is not observed"
            reply = {"type": "error", "in_reply_to": request["msg_id"], "code": 10, "text": text, "definite": True}
        else:
            handle(line.rstrip(b"\n"))
            reply = json.loads(out.take())
            if reply.get("type") == "init_ok":
                caps = reply["capabilities"]
                if keep is None:
                    caps["readings"] = {key: "unknown" for key in caps.get("readings", {})}
                else:
                    caps["observes"] = keep
            elif keep is not None and reply.get("type") == "apply_ok":
                _strip(reply["outcome"], keep)
            elif keep is not None and reply.get("type") == "batch_ok":
                for outcome in reply["outcomes"]:
                    _strip(outcome, keep)
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
        if reply.get("type") == "close_ok":
            break


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
