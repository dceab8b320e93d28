"""The files that ship inside the package besides its code: the scenarios, so that ``delaycc reproduce``,
``delaycc demo`` and the crosscheck suite work from any directory, in a checkout and from a wheel alike.

Git holds one copy, the repository's ``scenarios/``. In a checkout ``python/delaycc/scenarios`` is a
symbolic link to it, so an editable install (``make build``) reads the checkout's files as they are
edited; building a wheel, maturin's ``include`` (``[tool.maturin]`` in pyproject.toml) follows the link
and puts the files into the wheel as ``delaycc/scenarios/``. A checkout made without symbolic links
(git's ``core.symlinks = false`` writes the link as a small text file) falls back to the repository's
directory two levels up.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def scenarios_dir() -> Path:
    """The scenarios directory (``papers/``, ``crosscheck/``, ``kernel/``, ``sweeps/`` and the examples):
    the checkout's ``scenarios/`` when the package runs from a checkout, the installed copy otherwise."""
    for candidate in (_PACKAGE / "scenarios", _PACKAGE.parent.parent / "scenarios"):
        if candidate.is_dir():
            return candidate.resolve()
    raise FileNotFoundError(f"delaycc: no scenarios directory in {_PACKAGE} (a broken installation)")


def data_root() -> Path:
    """The directory that paths written as in the repository, ``scenarios/papers/vfast-I.toml``, are
    relative to: the checkout's root, or the installed package's directory."""
    return scenarios_dir().parent
