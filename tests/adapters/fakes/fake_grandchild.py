"""Fake implementation: starts a grandchild (a long sleep it never waits for) and writes its pid to
FAKE_PID_FILE, then serves the protocol normally.  With FAKE_DETACH set the grandchild leaves the
process group in a session of its own (``setsid``), as a daemon does."""

import os
import subprocess
import sys

import fakebase

detach = bool(os.environ.get("FAKE_DETACH"))
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"], start_new_session=detach)
with open(os.environ["FAKE_PID_FILE"], "w") as out:
    out.write(str(child.pid))
fakebase.run()
