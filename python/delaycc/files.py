"""Writing files atomically: the content goes to a temporary name beside the file, which is then renamed
into place, so a reader (or a run stopped half-way) sees either the old file or the whole new one. Every
module that writes a file writes it through here."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path


def atomic_write(path: Path, write: Callable[[Path], object]) -> None:
    """Calls ``write(tmp)`` and renames tmp to path; on failure the temporary file is removed."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """Writes ``text`` to ``path`` atomically (``atomic_write`` with ``Path.write_text``)."""
    atomic_write(path, lambda tmp: tmp.write_text(text))
