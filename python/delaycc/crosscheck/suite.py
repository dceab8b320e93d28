"""The reference suite (scenarios/crosscheck/suite.toml): every case run in both simulators, judged by the
tolerances its manifest entry states, into one table. A case that needs the FAST module is reported as
"not run" when the ns-2 binary has none; it never passes silently."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ScenarioError
from ..files import atomic_write_text
from ..ns2 import Ns2Error, Ns2Unsupported, locate, scenario
from ..output.jsontext import json_text
from ..packaged import data_root
from . import compare
from .run import crosscheck

DEFAULT_MANIFEST = Path("scenarios/crosscheck/suite.toml")
"""The suite's manifest, relative to `packaged.data_root()` (the checkout, or the installed package)."""
AGREE, DIFFER, NOT_RUN, ERROR = "agree", "differ", "not run", "error"


@dataclass(frozen=True)
class Case:
    name: str
    file: Path
    why: str
    tolerance: dict[str, float]
    expect: str
    agents: dict[str, str] = field(default_factory=dict)
    note: str = ""


@dataclass
class CaseResult:
    case: Case
    status: str  # agree, differ, not run or error
    message: str = ""
    comparison: dict[str, Any] | None = None
    ns2_wall_s: float | None = None
    overhead_s: float | None = None

    @property
    def failures(self) -> list[dict[str, Any]]:
        rows = (self.comparison or {}).get("rows", [])
        return [r for r in rows if r["within"] is False]


def load_manifest(path: Path | None = None) -> list[Case]:
    """The cases of a suite manifest (the reference suite's by default); ValueError naming the file and key
    for anything malformed."""
    path = data_root() / DEFAULT_MANIFEST if path is None else path
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{path}: not valid TOML: {e}") from None
    cases: list[Case] = []
    for i, raw in enumerate(doc.get("cases", [])):
        where = f"{path}: cases[{i}]"
        for key in ("file", "why", "tolerance", "expect"):
            if key not in raw:
                raise ValueError(f"{where}.{key}: required")
        unknown = set(raw) - {"file", "why", "tolerance", "expect", "agents", "note"}
        if unknown:
            raise ValueError(f"{where}.{sorted(unknown)[0]}: unknown key")
        bad = set(raw["tolerance"]) - set(compare.METRICS)
        if bad:
            raise ValueError(f"{where}.tolerance.{sorted(bad)[0]}: not one of {', '.join(compare.METRICS)}")
        if raw["expect"] not in (AGREE, DIFFER):
            raise ValueError(f"{where}.expect: must be '{AGREE}' or '{DIFFER}'")
        file = path.parent / str(raw["file"])
        cases.append(
            Case(
                name=file.stem,
                file=file,
                why=str(raw["why"]),
                tolerance={k: float(v) for k, v in raw["tolerance"].items()},
                expect=str(raw["expect"]),
                agents={str(k): str(v) for k, v in raw.get("agents", {}).items()},
                note=str(raw.get("note", "")),
            )
        )
    if not cases:
        raise ValueError(f"{path}: no [[cases]]")
    return cases


def needs_fast(case: Case) -> bool:
    """Whether the case, translated with its agents, runs an Agent/TCP/Fast flow."""
    s, _ = scenario.load(case.file, case.agents)
    return any(f.agent == "Fast" for f in s.flows)


def run_case(case: Case, out: Path, ns2: str | None, timeout_s: float) -> CaseResult:
    try:
        if needs_fast(case) and not locate(ns2).has_fast:
            return CaseResult(case, NOT_RUN, "not run: ns-2 without Agent/TCP/Fast")
        x = crosscheck(
            case.file,
            out / case.name,
            ns2=ns2,
            agents=case.agents,
            tolerances=case.tolerance,
            timeout_s=timeout_s,
        )
    except (ScenarioError, Ns2Unsupported) as e:
        return CaseResult(case, ERROR, "; ".join(e.errors))
    except Ns2Error as e:
        return CaseResult(case, ERROR, str(e))
    status = AGREE if x.comparison.agree else DIFFER
    return CaseResult(case, status, "", x.comparison.as_dict(), x.ns2_wall_s, x.overhead_s)


def _run_job(job: tuple[Case, Path, str | None, float]) -> CaseResult:
    return run_case(*job)


def run_suite(
    out: Path,
    manifest: Path | None = None,
    *,
    ns2: str | None = None,
    workers: int | None = None,
    timeout_s: float = 1800.0,
    on_done: Callable[[CaseResult], None] | None = None,
) -> list[CaseResult]:
    cases = load_manifest(manifest)
    jobs = [(c, out, ns2, timeout_s) for c in cases]
    workers = workers or os.cpu_count() or 1
    done: dict[str, CaseResult] = {}
    if workers <= 1:
        for job in jobs:
            r = _run_job(job)
            done[r.case.name] = r
            if on_done:
                on_done(r)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for fut in as_completed([pool.submit(_run_job, job) for job in jobs]):
                r = fut.result()
                done[r.case.name] = r
                if on_done:
                    on_done(r)
    results = [done[c.name] for c in cases]
    write(results, out)
    return results


def _failure_text(r: CaseResult) -> str:
    parts = []
    for row in r.failures:
        diff = "" if row["rel_diff"] is None else f" ({row['rel_diff'] * 100:+.0f} %)"
        parts.append(f"{row['id']} {row['metric']}: {_short(row['delaycc'])} vs {_short(row['ns2'])}{diff}")
    return "; ".join(parts)


def _short(v: float | None) -> str:
    if v is None:
        return "-"
    if abs(v) >= 1e5:
        return f"{v / 1e6:.3g}M"
    return f"{v:.3g}"


def table(results: list[CaseResult]) -> str:
    lines = [f"{'case':<22} {'result':<8} {'expected':<8} figures beyond tolerance (delaycc vs ns-2)"]
    for r in results:
        detail = r.message or _failure_text(r)
        lines.append(f"{r.case.name:<22} {r.status:<8} {r.case.expect:<8} {detail}")
    ran = [r for r in results if r.status in (AGREE, DIFFER)]
    lines.append(
        f"{len(ran)} of {len(results)} cases ran: {sum(r.status == AGREE for r in ran)} agree, "
        f"{sum(r.status == DIFFER for r in ran)} differ"
        + "".join(f"; {r.case.name}: {r.message}" for r in results if r.status not in (AGREE, DIFFER))
    )
    return "\n".join(lines)


def write(results: list[CaseResult], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    rows = [
        {
            "case": r.case.name,
            "file": str(r.case.file),
            "why": r.case.why,
            "status": r.status,
            "expected": r.case.expect,
            "message": r.message,
            "tolerance": r.case.tolerance,
            "agents": r.case.agents,
            "beyond_tolerance": r.failures,
            "ns2_wall_s": r.ns2_wall_s,
            "overhead_s": r.overhead_s,
        }
        for r in results
    ]
    text = table(results) + "\n"
    atomic_write_text(out / "suite.txt", text)
    atomic_write_text(out / "suite.json", json_text(rows))
