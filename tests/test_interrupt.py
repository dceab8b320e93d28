"""Ctrl-C: ``delaycc run`` stops cleanly (results so far written and marked partial, no temporary files, no
traceback, exit status 130), and ``delaycc.run`` raises RunInterrupted, a KeyboardInterrupt carrying the
results so far."""

from __future__ import annotations

import fcntl
import os
import pty
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import delaycc

from conftest import ROOT, read_pty

# About a day of simulated time at 1 Gbps: hours of wall time, so it is always interrupted. The sampling
# interval is set: the default for such a duration (50 s) could leave a run interrupted early with no sample.
ENDLESS: dict[str, Any] = {
    "name": "endless",
    "duration": 100_000,
    "sample_interval": "100ms",
    "links": [{"a": "s", "b": "d", "bandwidth": "1Gbps", "delay": "10ms"}],
    "flows": [{"algorithm": "newreno", "src": "s", "dst": "d"}],
}
ENDLESS_TOML = """name = "endless"
duration = 100000
sample_interval = "100ms"
[[links]]
a = "s"
b = "d"
bandwidth = "1Gbps"
delay = "10ms"
[[flows]]
algorithm = "newreno"
src = "s"
dst = "d"
"""


def interrupt_when_running(send: Any) -> tuple[Any, threading.Thread]:
    """A progress callback, and a thread that calls ``send()`` once the engine has simulated a second: the
    SIGINT then arrives while the run is inside the engine (or inside this callback), with samples taken."""
    started = threading.Event()

    def progress(t: float) -> None:
        if t >= 1.0:
            started.set()

    def killer() -> None:
        if started.wait(timeout=60):
            time.sleep(0.2)
            send()

    return progress, threading.Thread(target=killer, daemon=True)


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="needs the main thread")
def test_sigint_stops_run_with_a_keyboard_interrupt_carrying_the_results() -> None:
    main = threading.main_thread().ident or 0
    progress, killer = interrupt_when_running(lambda: signal.pthread_kill(main, signal.SIGINT))
    # Python keeps SIGINT ignored when it started ignored (as under `nohup` or a non-interactive `cmd &`):
    # Ctrl-C's own handler, for this test only.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    killer.start()
    t0 = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt) as e:
            delaycc.run(ENDLESS, progress=progress)
    finally:
        signal.signal(signal.SIGINT, previous)
    killer.join()
    elapsed = time.monotonic() - t0
    assert elapsed < 30, elapsed
    assert isinstance(e.value, delaycc.RunInterrupted), repr(e.value)
    r = e.value.result
    s = r.summary
    assert r.partial and s["stop_reason"] == "interrupted" and s["complete"] is False, s
    assert s["stop_message"].startswith("interrupted at ")
    assert s["stop_message"].endswith(" of 100000 s simulated")
    assert 0 < s["simulated_s"] < 100_000, s
    assert r.flows.loc[0, "received_pkts"] > 0, s
    assert r.timeseries["time_s"].max() <= s["simulated_s"]


def test_an_interrupt_from_the_progress_callback_is_the_same() -> None:
    def progress(_t: float) -> None:
        raise KeyboardInterrupt

    with pytest.raises(delaycc.RunInterrupted) as e:
        delaycc.run(ENDLESS, progress=progress)
    assert e.value.result.summary["stop_reason"] == "interrupted"


def test_other_exceptions_from_the_progress_callback_propagate_unchanged() -> None:
    class Stop(Exception):
        pass

    def progress(_t: float) -> None:
        raise Stop("enough")

    with pytest.raises(Stop, match="enough"):
        delaycc.run(ENDLESS, progress=progress)


def test_ctrl_c_on_the_command_line_writes_partial_results_and_exits_130(tmp_path: Path) -> None:
    """The real command in its own process, its stderr on a terminal so it shows the progress bar: once the
    bar is there the engine is running, and SIGINT goes to the process as Ctrl-C would."""
    scenario = tmp_path / "endless.toml"
    scenario.write_text(ENDLESS_TOML)
    out = tmp_path / "out"
    master, slave = pty.openpty()
    # A terminal of 24 x 100 characters (a fresh pseudo-terminal has 0 x 0, where tqdm draws nothing).
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    proc = subprocess.Popen(
        [sys.executable, "-m", "delaycc", "run", str(scenario), "--out", str(out), "--no-figures"],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=slave,
        env=env,
        # Ctrl-C's default disposition, even when this test runs with SIGINT ignored (see above).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    os.close(slave)
    try:
        shown = read_pty(master, timeout_s=120, until=b"sim-s")
        assert b"sim-s" in shown, shown
        proc.send_signal(signal.SIGINT)
        rest = read_pty(master, timeout_s=120, until=b"partial results written")
        stdout, _ = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    stderr = (shown + rest).decode(errors="replace")
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert f"delaycc: {scenario}: interrupted at " in stderr
    assert f"partial results written to {out}/" in stderr
    assert b"results written to" in stdout
    summary = (out / "summary.json").read_text()
    assert '"partial": true' in summary and '"stop_reason": "interrupted"' in summary
    assert not [f.name for f in out.iterdir() if f.name.startswith(".")], "no temporary files left"
