"""``--remote`` (Spark Connect) is checked before anything starts: one line, exit 2 (no JVM, no server)."""

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from cfconform.reference_model.errors import ConfigurationError
from cfconform.spark_fuzz.options import connect_endpoint, remote_address

REPO = Path(__file__).resolve().parents[2]


def test_the_url_comes_from_remote_or_spark_remote():
    assert "sc://h:1" == remote_address(None, "sc://h:1", environ={"SPARK_REMOTE": "sc://other:2"})
    assert "sc://other:2" == remote_address(None, None, environ={"SPARK_REMOTE": "sc://other:2"})
    assert remote_address("local[2]", None, environ={}) is None
    assert ("h", 15002) == connect_endpoint("sc://h") and ("h", 7) == connect_endpoint("sc://h:7/;token=x")


@pytest.mark.parametrize("url", ["http://h:15002", "sc://", "sc://h:notaport", "sc://h:0", "h:15002"])
def test_a_malformed_url_is_refused(url: str):
    with pytest.raises(ConfigurationError, match="--remote"):
        remote_address(None, url, environ={})


def test_a_spark_connect_url_is_not_a_master():
    with pytest.raises(ConfigurationError, match=r"--master.*goes to --remote"):
        remote_address("sc://h:1", None, environ={})


def test_master_and_remote_together_are_refused():
    with pytest.raises(ConfigurationError, match="not both"):
        remote_address("local[2]", "sc://h:1", environ={})
    with pytest.raises(ConfigurationError, match="SPARK_REMOTE"):
        remote_address("local[2]", None, environ={"SPARK_REMOTE": "sc://h:1"})


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["fuzz", "--adapter", "reference", "--traces", "10", "--steps", "5", "--remote", "http://x"], "--remote"),
        (["fuzz", "--adapter", "reference", "--traces", "10", "--steps", "5", "--remote", "sc://127.0.0.1:{port}"],
         "answers at 127.0.0.1:{port}"),
        (["fuzz", "--adapter", "reference", "--traces", "10", "--steps", "5", "--master", "local[1]", "--remote",
          "sc://127.0.0.1:{port}"], "not both"),
        (["diff", "{tmp}/a", "{tmp}/b", "--remote", "sc://127.0.0.1:{port}"], "RUN_A"),
    ],
)  # fmt: skip
def test_bad_remote_is_exit_2_in_one_line(args: list[str], says: str, tmp_path: Path):
    port = _closed_port()
    argv = [a.format(port=port, tmp=tmp_path) for a in args]
    done = subprocess.run([sys.executable, "-m", "cfconform.cli", *argv, "--out", str(tmp_path / "o")]
                          if argv[0] == "fuzz" else [sys.executable, "-m", "cfconform.cli", *argv],
                          cwd=REPO, capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    assert (2, 1, False) == (done.returncode, len(done.stderr.strip().splitlines()), "Traceback" in done.stderr)
    assert says.format(port=port) in done.stderr


def test_a_diff_with_a_server_that_does_not_answer_is_exit_2(tmp_path: Path):
    for run in ("a", "b"):
        (tmp_path / run / "divergences").mkdir(parents=True)
        (tmp_path / run / "campaign.json").write_text("{}")
    url = f"sc://127.0.0.1:{_closed_port()}"
    argv = [sys.executable, "-m", "cfconform.cli", "diff", str(tmp_path / "a"), str(tmp_path / "b"), "--remote", url]
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=60, check=False)
    assert (2, 1) == (done.returncode, len(done.stderr.strip().splitlines())), done.stderr
    assert "a Spark Connect server that answers" in done.stderr
