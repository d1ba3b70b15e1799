"""Every fault of an implementation process becomes an AdapterError naming the step; nothing hangs or leaks."""

from __future__ import annotations

import gc
import os
import time

import pytest

from cfconform.adapters.protocol import AdapterError, NotSupported
from cfconform.adapters.wire.client import WireAdapter, WireError, WireNotSupported
from cfconform.cli.main import main
from cfconform.reference_model.operations import Get, Put
from tests.adapters.conftest import fake, small_mq_config


def opened(name: str, **kwargs) -> WireAdapter:
    adapter = WireAdapter(fake(name), timeout=kwargs.pop("timeout", 2.0), init_timeout=10, grace=0.5, **kwargs)
    adapter.open(small_mq_config())
    return adapter


def assert_reaped(adapter: WireAdapter) -> None:
    assert adapter.process is not None
    assert adapter.process.poll() is not None, "child process leaked"


def test_the_fake_base_implementation_is_correct():
    adapter = opened("fakebase")
    assert adapter.apply(Put("QM01", "Q1", 10)).ok
    assert [True, True] == [o.ok for o in adapter.apply_batch([Put("QM01", "Q1", 10), Get("QM01", "Q1")])]
    adapter.close()
    assert 0 == adapter.process.poll()


def test_process_exiting_mid_run_names_the_step_exit_code_and_stderr():
    adapter = opened("fake_exit_midrun")
    adapter.apply(Get("QM01", "Q1"))
    with pytest.raises(WireError) as caught:
        adapter.apply(Get("QM01", "Q1"))
    err = caught.value
    assert ("apply", "exited", False) == (err.phase, err.fault, err.definite)
    assert "wire apply (msg_id 4)" in str(err)
    assert "exited with code 3" in str(err)
    assert "simulated fatal error" in str(err)  # the tail of its stderr
    assert_reaped(adapter)


def test_hanging_implementation_times_out_quickly_as_indefinite_and_is_killed():
    adapter = opened("fake_hang", timeout=1.0)
    start = time.monotonic()
    with pytest.raises(WireError) as caught:
        adapter.apply(Put("QM01", "Q1", 10))
    assert time.monotonic() - start < 5
    err = caught.value
    assert ("apply", "timeout", False) == (err.phase, err.fault, err.definite)
    assert "no reply within 1 s" in str(err)
    assert_reaped(adapter)


def test_hanging_batch_times_out_too():
    adapter = opened("fake_hang", timeout=1.0)
    with pytest.raises(WireError) as caught:
        adapter.apply_batch([Put("QM01", "Q1", 10)] * 5)
    assert ("batch", "timeout", 0) == (caught.value.phase, caught.value.fault, caught.value.step)
    assert_reaped(adapter)


def test_garbage_on_stdout_is_a_fault():
    adapter = opened("fake_garbage")
    with pytest.raises(WireError) as caught:
        adapter.apply(Get("QM01", "Q1"))
    err = caught.value
    assert ("apply", "garbage") == (err.phase, err.fault)
    assert "not a JSON line" in str(err) and "Hello from a debug print" in str(err)
    assert_reaped(adapter)


def test_oversized_reply_line_is_a_fault():
    adapter = opened("fake_oversized")
    with pytest.raises(WireError) as caught:
        adapter.apply(Get("QM01", "Q1"))
    err = caught.value
    assert ("apply", "oversized") == (err.phase, err.fault)
    assert "1048576-byte limit" in str(err)
    assert_reaped(adapter)


def test_line_limit_is_configurable():
    adapter = opened("fake_oversized", max_line_bytes=4096)
    with pytest.raises(WireError, match="4096-byte limit"):
        adapter.apply(Get("QM01", "Q1"))
    assert_reaped(adapter)


def test_wrong_in_reply_to_is_a_fault():
    adapter = opened("fake_wrong_reply_to")
    with pytest.raises(WireError) as caught:
        adapter.apply(Get("QM01", "Q1"))
    err = caught.value
    assert ("apply", "in_reply_to") == (err.phase, err.fault)
    assert "in_reply_to 4, expected 3" in str(err)
    assert_reaped(adapter)


def test_wrong_protocol_version_in_init_ok_is_a_definite_init_fault():
    adapter = WireAdapter(fake("fake_wrong_version"), timeout=2, init_timeout=10, grace=0.5)
    with pytest.raises(WireError) as caught:
        adapter.capabilities()
    err = caught.value
    assert ("init", "version", True) == (err.phase, err.fault, err.definite)
    assert "'2.0'" in str(err)
    assert_reaped(adapter)


def test_crash_on_init_shows_the_traceback_tail():
    adapter = WireAdapter(fake("fake_crash_init"), timeout=2, init_timeout=10, grace=0.5)
    with pytest.raises(WireError) as caught:
        adapter.open(small_mq_config())
    err = caught.value
    assert ("init", "exited") == (err.phase, err.fault)
    assert "exited with code 1" in str(err)
    assert "RuntimeError: fake: cannot connect to the coupling facility" in str(err)
    assert_reaped(adapter)


def test_schema_invalid_reply_is_a_fault():
    adapter = opened("fake_schema_invalid")
    with pytest.raises(WireError) as caught:
        adapter.apply(Get("QM01", "Q1"))
    err = caught.value
    assert ("apply", "schema") == (err.phase, err.fault)
    assert "'yes' is not of type 'boolean'" in str(err)
    assert_reaped(adapter)


def test_schema_invalid_reply_is_caught_without_jsonschema_validation_too():
    adapter = opened("fake_schema_invalid", validate="none")
    with pytest.raises(WireError, match="at outcome/ok: 'yes' is not of type 'boolean'"):
        adapter.apply(Get("QM01", "Q1"))
    assert_reaped(adapter)


def test_unknown_reply_type_is_a_fault():
    adapter = opened("fake_unknown_type")
    with pytest.raises(WireError) as caught:
        adapter.apply(Get("QM01", "Q1"))
    assert ("apply", "unknown-type") == (caught.value.phase, caught.value.fault)
    assert "'apply_maybe'" in str(caught.value)
    assert_reaped(adapter)


def test_batch_stopping_with_an_error_gives_the_prefix_and_keeps_the_process():
    adapter = opened("fake_batch_error")
    ops = [Put("QM01", "Q1", 10), Put("QM01", "Q1", 10), Get("QM01", "Q1"), Put("QM01", "Q1", 10)]
    with pytest.raises(WireError) as caught:
        adapter.apply_batch(ops)
    err = caught.value
    assert (2, 12, False, "error-reply") == (err.step, err.code, err.definite, err.fault)
    assert ["put", "put"] == [o.kind for o in err.outcomes]
    assert adapter.apply(Put("QM01", "Q1", 10)).ok  # an error reply is not fatal
    adapter.close()


def test_a_broken_adapter_refuses_calls_until_open_restarts_it():
    adapter = opened("fake_garbage")
    with pytest.raises(WireError):
        adapter.apply(Get("QM01", "Q1"))
    with pytest.raises(WireError) as caught:
        adapter.apply(Get("QM01", "Q1"))
    assert "broken" == caught.value.fault
    first = adapter.process
    adapter.open(small_mq_config())
    assert first is not adapter.process and adapter.process.poll() is None
    adapter.close()


def test_close_of_an_implementation_that_ignores_close_terminates_it():
    adapter = opened("fake_ignores_close", timeout=1.0)
    start = time.monotonic()
    adapter.close()
    assert time.monotonic() - start < 6
    assert_reaped(adapter)


def test_an_adapter_never_closed_is_reaped_when_collected():
    adapter = opened("fakebase")
    process = adapter.process
    del adapter
    gc.collect()
    deadline = time.monotonic() + 5
    while process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert process.poll() is not None


def test_missing_executable_is_a_definite_init_error():
    adapter = WireAdapter(["/nonexistent/cfconform-impl"], timeout=1)
    with pytest.raises(AdapterError, match="cannot start") as caught:
        adapter.capabilities()
    assert caught.value.definite


@pytest.mark.parametrize(
    ("name", "failing"),
    [
        ("fake_garbage", "FAIL apply put: garbage"),
        ("fake_wrong_version", "FAIL handshake: init_ok protocol_version '2.0'"),
        ("fake_crash_init", "FAIL handshake: exited"),
        ("fake_hang", "FAIL apply put: timeout"),
        ("fake_ignores_close", "FAIL close: timeout"),
    ],
)
def test_check_protocol_fails_bad_implementations(capsys, name, failing):
    cmd = " ".join(fake(name))
    start = time.monotonic()
    assert 3 == main(["check-protocol", "--cmd", cmd, "--timeout", "1"])
    assert time.monotonic() - start < 20
    out = capsys.readouterr().out
    assert failing in out
    assert "summary:" in out


def opened_with_error_code(code: int, **kwargs) -> WireAdapter:
    env = {**os.environ, "FAKE_ERROR_CODE": str(code)}
    return opened("fake_batch_error_code", env=env, **kwargs)


@pytest.mark.parametrize(
    ("code", "cls", "definite"),
    [(10, WireNotSupported, True), (14, WireError, True), (19, WireError, True), (12, WireError, False)],
)
def test_an_error_at_the_first_op_of_a_batch_is_that_ops_error_not_a_crash(code, cls, definite):
    """batch_ok with no outcomes and an error: the error of op 0 (it once raised ZeroDivisionError)."""
    adapter = opened_with_error_code(code)
    with pytest.raises(AdapterError) as caught:
        adapter.apply_batch([Get("QM01", "Q1"), Put("QM01", "Q1", 10)])
    err = caught.value
    assert type(err) is cls
    assert isinstance(err, NotSupported) == (code == 10)
    assert (0, code, definite, "error-reply", []) == (err.step, err.code, err.definite, err.fault, err.outcomes)
    assert f"error {code}" in str(err)
    assert adapter.apply(Put("QM01", "Q1", 10)).ok  # an error reply is not fatal
    adapter.close()


def test_an_error_at_the_first_op_of_a_later_chunk_keeps_the_earlier_outcomes():
    adapter = opened_with_error_code(10, batch_size=2)
    ops = [Put("QM01", "Q1", 10), Put("QM01", "Q1", 10), Get("QM01", "Q1"), Put("QM01", "Q1", 10)]
    with pytest.raises(NotSupported) as caught:
        adapter.apply_batch(ops)
    err = caught.value
    assert (2, 10, True) == (err.step, err.code, err.definite)
    assert ["put", "put"] == [o.kind for o in err.outcomes]
    adapter.close()
