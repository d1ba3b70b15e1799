"""The reference over the wire, counted: appends its pid to FAKE_PID_FILE, then becomes
``cfconform serve-reference`` (the same process), so a test can count the instances a run starts."""

import os
import sys

with open(os.environ["FAKE_PID_FILE"], "a") as out:
    out.write(f"{os.getpid()}\n")
os.execv(sys.executable, [sys.executable, "-m", "cfconform.cli", "serve-reference", *sys.argv[1:]])
