"""The one exception of the kernel side: something the machine does not allow or has not got."""

from __future__ import annotations


class KernelError(RuntimeError):
    """A clear, one-line reason why kernel work cannot go on (not root, no BTF, a failed command ...)."""
