"""Undoing everything a run creates, whatever happens: each resource registers its removal *before* it
is created (removing something absent is harmless), removals run in reverse order with SIGINT/SIGTERM
held back so a second Ctrl-C cannot cut them short, and a later run removes what a killed run left."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType, TracebackType

from ..files import atomic_write_text
from ..kernel import loader
from ..kernel.errors import KernelError
from ..kernel.shell import run
from .topology import PREFIX

NETNS_DIR = Path("/var/run/netns")
STATE_DIR = Path("/run/delaycc-emulate")
"""One file per live run: the BPF algorithms it registered, so a later run can unregister them if it died."""

_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Cleanup:
    """A stack of removals, run on exit from the ``with`` block."""

    def __init__(self) -> None:
        self._actions: list[tuple[str, Callable[[], object]]] = []
        self.errors: list[str] = []

    def push(self, what: str, action: Callable[[], object]) -> None:
        self._actions.append((what, action))

    def run(self) -> None:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
        try:
            while self._actions:
                what, action = self._actions.pop()
                try:
                    action()
                except Exception as e:
                    self.errors.append(f"{what}: {e}")
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)
        for line in self.errors:
            print(f"delaycc emulate: cleanup: {line}", file=sys.stderr)

    def __enter__(self) -> Cleanup:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.run()


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM unwinds like Ctrl-C (KeyboardInterrupt), so the ``finally`` blocks run either way."""

    def handler(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    old = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def delete_netns(name: str) -> None:
    if (NETNS_DIR / name).exists():
        run(["ip", "netns", "delete", name])


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _pid_of(name: str) -> int | None:
    digits = name[len(PREFIX) :].split("n", 1)[0]
    return int(digits) if digits.isdigit() else None


def record_loaded(algorithms: list[str]) -> Path:
    STATE_DIR.mkdir(parents=True, exist_ok=True)
    path = STATE_DIR / str(os.getpid())
    # Whole or absent: a later run reads it (as JSON) once this process is gone, however it ended.
    atomic_write_text(path, json.dumps(algorithms))
    return path


def sweep_stale() -> list[str]:
    """Removes namespaces and BPF registrations left by runs whose process no longer exists."""
    removed: list[str] = []
    if NETNS_DIR.is_dir():
        for entry in sorted(NETNS_DIR.iterdir()):
            pid = _pid_of(entry.name) if entry.name.startswith(PREFIX) else None
            if pid is not None and not _alive(pid):
                delete_netns(entry.name)
                removed.append(entry.name)
    if STATE_DIR.is_dir():
        for state in STATE_DIR.iterdir():
            if state.name.isdigit() and not _alive(int(state.name)):
                for alg in json.loads(state.read_text() or "[]"):
                    with contextlib.suppress(KernelError):
                        if loader.unload(alg):
                            removed.append(f"bpf {alg}")
                state.unlink(missing_ok=True)
    return removed
