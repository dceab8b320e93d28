"""No text in the repository points outside it.

The docs, code comments, parameter sources and scenario files once cited a specification kept outside
the repository (`shared/spec/algorithms.md`, `spec/scenario-format.md`, `experiments.md`, its labels
such as "algorithms.md §6.2", "(F9)" or "V1 reading (b)") and a local audit file. Everything they cited
now lives in docs/ (algorithms.md has one heading per gap, whose text is its id; experiments.md one per
experiment). This test scans every git-tracked text file and fails with a file:line list of:

- paths into a `shared/` directory, except `../shared/tools/` in tests/, tools/ and .ci/, which locate
  the prebuilt tools CI provides beside the clone;
- paths to a `spec/*.md` document, and documents under /tmp or /work;
- the specification's names (algorithms.md, experiments.md, scenario-format.md) outside docs/ without
  their `docs/` directory, and any of them followed by a specification label;
- the specification's gap labels in parentheses ("(F9)", "(E1, E3)", "(V1 reading b)", "(R1-R10)") and
  its bare section numbers for RRFast's thresholds ("§6.2 N_probe"), and the audit's labels;
- Markdown links to a file that is not in the repository, and links or `docs/<page>.md#<anchor>`
  references to an anchor the page does not have.

Set DELAYCC_ROOT to check another work tree.
"""

from __future__ import annotations

import os
import re
import subprocess
from functools import cache
from pathlib import Path

ROOT = Path(os.environ.get("DELAYCC_ROOT", Path(__file__).resolve().parent.parent))
SELF = "tests/test_self_contained.py"

# Where `../shared/tools/` may appear: scripts that find the tools CI lays beside the clone.
SHARED_TOOLS_OK = ("tests/", "tools/", ".ci/")

_LABEL = r"(?:RR[1-4]b?|R1[01]|R[1-9]|F[1-9]|V[1-6]|E[1-6]|A[1-6]|G[12])"
_SEP = r"(?:, | and |/|-|\u2013)"  # the last is an en dash

PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("a path into shared/", re.compile(r"(?<![\w-])(?:\.\./)*shared/[\w.-]")),
    ("a spec/ document", re.compile(r"(?<![\w-])spec/[\w.-]+\.md")),
    ("a document outside the repository", re.compile(r"(?<![\w.~-])/(?:tmp|work)/\S*?\.md\b")),
    (
        "a specification label after a document name",
        re.compile(rf"\b(?:algorithms|experiments)\.md,? \(?(?:§[0-9]|{_LABEL}\b|P00[0-4] )"),
    ),
    (
        "a specification gap label",
        re.compile(rf"\({_LABEL}(?:{_SEP}{_LABEL})*(?: reading \(?[abc]\)?)?\)"),
    ),
    ("a specification section", re.compile(r"§6\.2 (?:N_probe|N_max|rho|epsilon_\w+)|tolerances of §7\.5")),
    ("a label of the local audit", re.compile(r"\baudit(?::| [A-E][0-9]\b)")),
]
# The specification's own file names, which outside docs/ must carry their directory.
BARE_NAME = re.compile(r"(?<![\w/#.-])(?:algorithms|experiments|scenario-format)\.md\b")
MD_LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^()\s]+)\)")
DOC_REF = re.compile(r"(?<![\w/.-])docs/([\w-]+\.md)#([\w-]+)")


@cache
def tracked() -> tuple[str, ...]:
    out = subprocess.run(["git", "-C", str(ROOT), "ls-files"], capture_output=True, text=True, check=True)
    return tuple(out.stdout.splitlines())


@cache
def tracked_dirs() -> frozenset[str]:
    dirs = set()
    for f in tracked():
        parts = f.split("/")
        for i in range(1, len(parts)):
            dirs.add("/".join(parts[:i]))
    return frozenset(dirs)


def text_files() -> list[tuple[str, list[str]]]:
    files = []
    for rel in tracked():
        if rel == SELF:
            continue
        try:
            data = (ROOT / rel).read_bytes()
        except (FileNotFoundError, IsADirectoryError):
            continue
        if b"\0" in data:
            continue
        try:
            files.append((rel, data.decode("utf-8").splitlines()))
        except UnicodeDecodeError:
            continue
    return files


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@cache
def anchors(rel: str) -> frozenset[str]:
    found: set[str] = set()
    counts: dict[str, int] = {}
    in_code = False
    for line in (ROOT / rel).read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        m = re.match(r"#{1,6} +(.*?) *#*$", line)
        if m:
            s = slug(m.group(1))
            n = counts.get(s, 0)
            counts[s] = n + 1
            found.add(s if n == 0 else f"{s}-{n}")
        found.update(re.findall(r"<a (?:id|name)=\"([^\"]+)\"", line))
    return frozenset(found)


def link_problem(rel: str, target: str) -> str | None:
    if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("//"):
        return None  # a URL
    path, _, anchor = target.partition("#")
    if path:
        resolved = os.path.normpath(os.path.join(os.path.dirname(rel), path))
        if resolved.startswith(".."):
            return f"link leaves the repository: {target}"
        if resolved not in tracked() and resolved not in tracked_dirs():
            return f"link to a file not in the repository: {target}"
    else:
        resolved = rel
    if anchor and resolved.endswith(".md") and anchor not in anchors(resolved):
        return f"link to an anchor {resolved} does not have: {target}"
    return None


def offenders() -> list[str]:
    found = []
    for rel, lines in text_files():
        in_docs = rel.startswith("docs/")
        is_md = rel.endswith(".md")
        in_code_block = False
        for n, line in enumerate(lines, 1):
            where = f"{rel}:{n}"
            for what, pat in PATTERNS:
                for m in pat.finditer(line):
                    if (
                        what == "a path into shared/"
                        and rel.startswith(SHARED_TOOLS_OK)
                        and line[m.start() :].startswith("../shared/tools/")
                    ):
                        continue
                    found.append(f"{where}: {what}: {m.group(0)!r}")
            if not in_docs:
                for m in BARE_NAME.finditer(line):
                    before, after = line[m.start() - 1 : m.start()], line[m.end() : m.end() + 1]
                    if before in "\"'" and before and after == before:
                        continue  # a whole string literal: a file name joined to a path in code
                    found.append(f"{where}: a specification document without docs/: {m.group(0)!r}")
            for m in DOC_REF.finditer(line):
                page, anchor = m.groups()
                if f"docs/{page}" not in tracked():
                    found.append(f"{where}: reference to a missing page: {m.group(0)!r}")
                elif anchor not in anchors(f"docs/{page}"):
                    found.append(f"{where}: reference to a missing anchor: {m.group(0)!r}")
            if is_md:
                if line.startswith("```"):
                    in_code_block = not in_code_block
                if in_code_block:
                    continue
                for m in MD_LINK.finditer(re.sub(r"`[^`]*`", "", line)):
                    problem = link_problem(rel, m.group(1))
                    if problem:
                        found.append(f"{where}: {problem}")
    return found


def test_no_text_points_outside_the_repository() -> None:
    bad = offenders()
    assert not bad, "references that leave the repository or do not resolve:\n" + "\n".join(bad)


def test_the_shared_tools_exception_is_narrow() -> None:
    """Only `../shared/tools/` is allowed, and only where CI's tools are located."""
    users = [rel for rel, lines in text_files() if any("../shared/tools/" in line for line in lines)]
    assert all(rel.startswith(SHARED_TOOLS_OK) for rel in users), users
