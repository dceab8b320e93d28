"""The JSON documents delaycc writes for people and tools to read: strict JSON (NaN and infinities are
refused, never written), indented, ending with a newline."""

from __future__ import annotations

import json
from typing import Any


def json_text(doc: Any, *, sort_keys: bool = False) -> str:
    """A report such as comparison.json or compare.json; ValueError for a NaN or an infinity."""
    return json.dumps(doc, indent=2, sort_keys=sort_keys, allow_nan=False) + "\n"


def summary_text(summary: dict[str, Any]) -> str:
    """summary.json: keys sorted, so the same run gives the same bytes."""
    return json_text(summary, sort_keys=True)
