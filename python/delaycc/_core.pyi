from collections.abc import Callable
from typing import Any

__version__: str

def validate(text: str, file: str, format: str) -> list[str]: ...
def duration_s(text: str, file: str, format: str) -> float | None: ...
def run(
    text: str,
    file: str,
    format: str,
    seed: int | None = None,
    progress: Callable[[float], Any] | None = None,
    progress_every_s: float = 0.02,
    max_events: int | None = None,
    max_memory: int | None = None,
) -> dict[str, Any]: ...
def algorithms_json() -> str: ...
def parse_size(text: str) -> int: ...
def default_max_memory() -> int: ...
