"""The BPF parameter header is generated from the simulator's registry and the kernel layouts, and kept so."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from delaycc import api
from delaycc.kernel import params_header
from delaycc.kernel.algorithms import KERNEL_ALGORITHMS, default_params
from delaycc.kernel.errors import KernelError

ROOT = Path(__file__).resolve().parent.parent
BPF = ROOT / "kernel" / "bpf"
HEADER = BPF / "dcc_params.h"
BPF_ALGORITHMS = [a for a in KERNEL_ALGORITHMS.values() if a.is_bpf]


def test_the_committed_header_is_the_generated_one() -> None:
    assert HEADER.read_text() == params_header.render(), "stale: run `make -C kernel params` and commit"


def _macro(text: str, name: str) -> dict[str, str]:
    """The designated initialisers of a generated DCC_*_DEFAULTS macro."""
    body = re.search(rf"#define {name} \\\n(.*?)\t}}\n", text, re.S)
    assert body is not None, name
    return dict(re.findall(r"\.(\w+) = (\w+),", body.group(1)))


def _members(text: str, struct: str) -> list[str]:
    body = re.search(rf"struct {struct} {{\n(.*?)\n}};", text, re.S)
    assert body is not None, struct
    return re.findall(r"^\t(?:__u32|struct \w+) (\w+);", body.group(1), re.M)


@pytest.mark.parametrize("alg", BPF_ALGORITHMS, ids=lambda a: a.name)
def test_the_header_lays_out_and_starts_from_what_the_loader_writes(alg: Any) -> None:
    """Read as C: members in the loader's order, initial values the encoded simulator defaults."""
    text = HEADER.read_text()
    values: list[int] = []
    members: list[str] = []
    for member in _members(text, f"dcc_params_{alg.name}"):
        group = next((g for g in alg.groups if g.name == member), None)
        if group is None:
            members.append(member)
            values.append(int(_macro(text, f"DCC_PARAMS_{alg.name.upper()}_DEFAULTS")[member]))
            continue
        assert (
            _macro(text, f"DCC_PARAMS_{alg.name.upper()}_DEFAULTS")[member]
            == f"DCC_{member.upper()}_DEFAULTS"
        )
        inner = _macro(text, f"DCC_{member.upper()}_DEFAULTS")
        for m in _members(text, f"dcc_{member}_params"):
            members.append(m)
            values.append(int(inner[m]))
    assert members == [f.c_member for f in alg.fields]
    assert values == list(np.frombuffer(alg.encode(default_params(alg.name)), "<u4"))


@pytest.mark.parametrize("alg", BPF_ALGORITHMS, ids=lambda a: a.name)
def test_each_bpf_object_takes_its_parameters_from_the_header(alg: Any) -> None:
    source = (BPF / f"{alg.name}.bpf.c").read_text()
    assert '#include "dcc_params.h"' in source
    assert re.search(
        rf"struct dcc_params_{alg.name} \w+ SEC\(.*\) = DCC_PARAMS_{alg.name.upper()}_DEFAULTS;", source
    )
    assert "__u32" not in source.split("SEC(")[0], "parameter fields belong in the generated header"


def _registry() -> dict[str, dict[str, dict[str, Any]]]:
    return {a["name"]: {p["name"]: p for p in a["params"]} for a in api.algorithms()}


def test_a_kernel_layout_the_registry_contradicts_is_refused() -> None:
    registry = _registry()
    missing = copy.deepcopy(registry)
    del missing["rrfast"]["min_cut"]
    with pytest.raises(KernelError, match="rrfast: the kernel layout names min_cut"):
        params_header.render(missing)
    other_choices = copy.deepcopy(registry)
    other_choices["vfast"]["filter"]["range"] = "one of per-update, per-rtt"
    with pytest.raises(KernelError, match=r"vfast\.filter: the kernel.s choices"):
        params_header.render(other_choices)


def test_check_mode_reports_a_stale_header_and_writing_fixes_it(tmp_path: Path) -> None:
    out = tmp_path / "dcc_params.h"
    out.write_text("/* hand-edited */\n")
    assert params_header.main(["--check", "--out", str(out)]) == 1
    assert params_header.main(["--out", str(out)]) == 0
    assert params_header.main(["--check", "--out", str(out)]) == 0
    assert out.read_text() == HEADER.read_text()
