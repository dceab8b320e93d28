"""Key paths into scenario dicts, as error messages spell them: `links[1].bandwidth`,
`flows[0].params.alpha`, and `flows[*].algorithm` for every element of an array."""

from __future__ import annotations

import re
from typing import Any

_PART = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(?:\[(\d+|\*)\])?")


def parse(key: str) -> list[tuple[str, str | None]]:
    parts = []
    for raw in key.split("."):
        m = _PART.fullmatch(raw)
        if not m:
            raise ValueError(f"'{key}' is not a key path (e.g. 'links[1].bandwidth' or 'flows[*].algorithm')")
        parts.append((m.group(1), m.group(2)))
    return parts


def set_path(doc: dict[str, Any], key: str, value: Any) -> None:
    """Sets `value` at `key`, creating tables on the way; `[*]` applies to every element of an array.
    Raises KeyError naming the key when an index or array does not exist."""
    _set(doc, parse(key), value, key)


def _set(node: Any, parts: list[tuple[str, str | None]], value: Any, key: str) -> None:
    (name, index), rest = parts[0], parts[1:]
    if not isinstance(node, dict):
        raise KeyError(f"{key}: '{name}' is not inside a table")
    if index is None:
        if not rest:
            node[name] = value
        else:
            _set(node.setdefault(name, {}), rest, value, key)
        return
    array = node.get(name)
    if not isinstance(array, list):
        raise KeyError(f"{key}: '{name}' is not an array in the scenario")
    targets = range(len(array)) if index == "*" else [int(index)]
    for i in targets:
        if i >= len(array):
            raise KeyError(f"{key}: '{name}' has only {len(array)} elements")
        if rest:
            _set(array[i], rest, value, key)
        else:
            array[i] = value
