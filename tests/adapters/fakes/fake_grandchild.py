"""Fake implementation: starts a grandchild (a long sleep it never waits for) and writes its pid to
FAKE_PID_FILE, then serves the protocol normally."""

import os
import subprocess
import sys

import fakebase

child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
with open(os.environ["FAKE_PID_FILE"], "w") as out:
    out.write(str(child.pid))
fakebase.run()
