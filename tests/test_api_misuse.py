"""Misusing the Python API gives clean exceptions: TypeError for arguments that are not what the function
takes, ValueError for out-of-range values, ScenarioError (a ValueError) naming the key for bad scenarios."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import delaycc

from conftest import SCENARIOS

SMALL = SCENARIOS / "reno-vs-newreno-loss.toml"
GOOD: dict[str, Any] = {
    "name": "x",
    "duration": 1,
    "links": [{"a": "s", "b": "d", "bandwidth": "1Mbps", "delay": "1ms"}],
    "flows": [{"algorithm": "reno", "src": "s", "dst": "d"}],
}

NOT_SCENARIOS = [None, 42, 1.5, True, [GOOD], (1, 2), {1, 2}, b"name = 'x'", bytearray(b"x"), object()]
ENTRY_POINTS: list[Callable[[Any], Any]] = [
    delaycc.run,
    delaycc.validate,
    delaycc.duration_s,
    delaycc.estimate,
]


def errors_of(scenario: Any) -> list[str]:
    with pytest.raises(delaycc.ScenarioError) as e:
        delaycc.validate(scenario)
    assert isinstance(e.value, ValueError)
    return e.value.errors


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("value", NOT_SCENARIOS, ids=lambda v: type(v).__name__)
def test_a_value_that_is_not_a_scenario_is_a_type_error(entry: Callable[[Any], Any], value: Any) -> None:
    expected = f"scenario must be a path, TOML text or a dict, not {type(value).__name__}"
    with pytest.raises(TypeError, match=expected):
        entry(value)


def test_bytes_get_a_hint() -> None:
    with pytest.raises(TypeError, match="decode bytes to str first"):
        delaycc.run(b"\xff\xfe not utf-8")  # type: ignore[arg-type]


class BytesPath:
    def __fspath__(self) -> bytes:
        return b"/tmp/x.toml"


def test_a_path_like_giving_bytes_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="path must be text"):
        delaycc.validate(BytesPath())  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", ["1", 1.5, True, [1], np.float64(2.0)], ids=repr)
def test_a_seed_that_is_not_an_integer_is_a_type_error(seed: Any) -> None:
    with pytest.raises(TypeError, match="seed must be an integer"):
        delaycc.run(GOOD, seed=seed)


@pytest.mark.parametrize("seed", [-1, 2**63, 10**30])
def test_a_seed_out_of_range_is_a_value_error(seed: int) -> None:
    with pytest.raises(ValueError, match=r"seed must be in \[0, 2\*\*63 - 1\]"):
        delaycc.run(GOOD, seed=seed)


def test_the_largest_seed_runs() -> None:
    assert delaycc.run(GOOD, seed=2**63 - 1).summary["seed"] == 2**63 - 1


@pytest.mark.parametrize("progress", [5, "print", [print]], ids=repr)
def test_a_progress_that_is_not_callable_is_a_type_error(progress: Any) -> None:
    with pytest.raises(TypeError, match="progress must be callable"):
        delaycc.run(GOOD, progress=progress)


def test_unknown_keyword_arguments_are_type_errors() -> None:
    with pytest.raises(TypeError):
        delaycc.run(GOOD, sed=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        delaycc.validate(GOOD, GOOD)  # type: ignore[call-arg]


def test_a_deleted_file(tmp_path: Path) -> None:
    path = tmp_path / "gone.toml"
    path.write_text(SMALL.read_text())
    delaycc.validate(path)
    path.unlink()
    assert errors_of(path) == [f"{path}: no such file"]
    with pytest.raises(delaycc.ScenarioError, match="no such file"):
        delaycc.run(str(path))


def test_a_directory(tmp_path: Path) -> None:
    assert errors_of(tmp_path) == [f"{tmp_path}: is a directory, not a scenario file"]


def test_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes('name = "x"\n# caf\u00e9\n'.encode("latin-1"))
    assert errors_of(path) == [
        f"{path}:2: not UTF-8 text: byte 16 (0xe9) cannot be decoded; save the file as UTF-8"
    ]


def test_a_byte_order_mark_is_not_part_of_the_scenario(tmp_path: Path) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + SMALL.read_bytes())
    delaycc.validate(path)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs file permissions that bind")
def test_an_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "secret.toml"
    path.write_text(SMALL.read_text())
    path.chmod(0)
    assert errors_of(path) == [f"{path}: cannot be read: Permission denied"]


def test_odd_strings() -> None:
    assert errors_of("") == ["<string>: is empty; pass a file path, TOML text or a dict"]
    assert errors_of("a\0b.toml") == ["a\\0b.toml: is not a valid path (it contains a NUL character)"]
    assert errors_of('name = "\ud800"\nduration = 1\n') == [
        "<string>: character 8 is not valid Unicode (a lone surrogate)"
    ]


def test_values_a_dict_cannot_hold_are_named_by_key() -> None:
    deep: dict[str, Any] = {}
    cur = deep
    for _ in range(100):
        cur["x"] = {}
        cur = cur["x"]
    bad = {
        **GOOD,
        "seed": 2**64,
        "description": {1: "a"},
        "sample_interval": {"a", "b"},
        "header_size": b"40",
        "transport": deep,
    }
    bad["name"] = "\udcff"
    errors = errors_of(bad)
    assert errors[:5] == [
        "<dict>: name: character 0 of the string is not valid Unicode (a lone surrogate)",
        "<dict>: seed: integer does not fit in 64 bits",
        "<dict>: description.1: keys must be strings, not int",
        "<dict>: sample_interval: set is not a valid value",
        "<dict>: header_size: bytes is not a valid value",
    ]
    assert errors[5].startswith("<dict>: transport.x.x.")
    assert errors[5].endswith(": is nested more than 64 levels deep")
    assert len(errors) == 6


def test_numpy_numbers_are_numbers() -> None:
    delaycc.validate({**GOOD, "seed": np.int64(3), "duration": np.float32(0.5)})


def test_the_cli_refuses_a_bad_seed(capsys: pytest.CaptureFixture[str]) -> None:
    from delaycc.cli import main

    for seed in ("-1", "x", str(2**63)):
        with pytest.raises(SystemExit) as e:
            main(["run", str(SMALL), "--seed", seed, "--quiet"])
        assert e.value.code == 2
        assert "--seed" in capsys.readouterr().err


def test_the_bindings_tolerate_any_progress_period() -> None:
    from delaycc import _core

    text = SMALL.read_text()
    for every in (float("inf"), float("nan"), -1.0, 0.0):
        raw = _core.run(text, "x.toml", "toml", None, None, every)
        assert raw["summary"]
