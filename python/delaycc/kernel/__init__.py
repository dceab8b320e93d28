"""The kernel side of delaycc: BPF congestion controllers (kernel/bpf/) registered in the running Linux
kernel as tcp_congestion_ops, and the tools the emulation harness runs (kernel/tools/)."""

from .algorithms import KERNEL_ALGORITHMS, KernelAlgorithm, kernel_algorithm
from .errors import KernelError
from .loader import load, set_params, status, unload

__all__ = [
    "KERNEL_ALGORITHMS",
    "KernelAlgorithm",
    "KernelError",
    "kernel_algorithm",
    "load",
    "set_params",
    "status",
    "unload",
]
