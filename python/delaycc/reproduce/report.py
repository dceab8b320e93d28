"""The reproduction report: Markdown, and one self-contained HTML page with every figure embedded."""

from __future__ import annotations

import base64
import html
from collections import Counter
from pathlib import Path

from ..files import atomic_write_text
from .model import BY_CONSTRUCTION, NOT_COMPARABLE, NOT_REPRODUCED, REPRODUCED, SETUP, Claim, Table

STYLE = (
    "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#1f2328}"
    "table{border-collapse:collapse;margin:1em 0;font-size:.9em}"
    "td,th{border:1px solid #d0d7de;padding:.3em .5em;text-align:left}th{background:#f6f8fa}"
    ".v{color:#fff;border-radius:4px;padding:.1em .4em;white-space:nowrap}img{max-width:100%}"
)
BADGE = {
    REPRODUCED: "#1a7f37",
    NOT_REPRODUCED: "#cf222e",
    NOT_COMPARABLE: "#6e7781",
    SETUP: "#9a6700",
    BY_CONSTRUCTION: "#9a6700",
}


class Section:
    def __init__(
        self,
        exp_id: str,
        paper: str,
        title: str,
        claims: list[Claim],
        tables: list[Table],
        figures: list[Path],
    ) -> None:
        self.exp_id, self.paper, self.title = exp_id, paper, title
        self.claims, self.tables, self.figures = claims, tables, figures
        self.referee: list[str] | None = None
        """With a referee: one line per algorithm it could not run, and why."""


def _caption(f: Path) -> str:
    """A figure drawn from ns-2's runs lives in an `ns2/` folder and says so."""
    return f"ns-2: {f.name} (algorithms ns-2 lacks left out)" if f.parent.name == "ns2" else f.name


def _md_table(columns: list[str], rows: list[list[str]]) -> str:
    esc = [[c.replace("|", "\\|") for c in r] for r in rows]
    return "\n".join(
        [
            "| " + " | ".join(columns) + " |",
            "|" + "---|" * len(columns),
            *("| " + " | ".join(r) + " |" for r in esc),
        ]
    )


def _counts(sections: list[Section]) -> Counter[str]:
    return Counter(c.verdict for s in sections for c in s.claims)


def _tally(sections: list[Section]) -> str:
    c = _counts(sections)
    return (
        f"{c[REPRODUCED]} reproduced, {c[NOT_REPRODUCED]} not reproduced, {c[SETUP]} set-up and "
        f"{c[BY_CONSTRUCTION]} by construction (not counted as evidence), {c[NOT_COMPARABLE]} not comparable."
    )


def _ns2_tally(sections: list[Section]) -> str:
    c = Counter(c.ns2_verdict for s in sections for c in s.claims)
    judged = sum(v for k, v in c.items() if k not in (None, "n/a"))
    disagree = sum(1 for s in sections for cl in s.claims if cl.ns2_note)
    return (
        f"ns-2 judged {judged} claims: {c[REPRODUCED]} reproduced, {c[NOT_REPRODUCED]} not reproduced, "
        f"{c[SETUP] + c[BY_CONSTRUCTION]} set-up or by construction, {c[NOT_COMPARABLE]} not comparable; on "
        f"{disagree} of them ns-2 and delaycc disagree."
    )


COLUMNS = ["claim", "paper", "criterion", "measured (ensemble mean ± 95 %)", "runs held", "verdict", "note"]
REFEREE_COLUMNS = [*COLUMNS[:6], "ns-2", "ns-2 verdict", "note"]
VERDICT_COLUMNS = (5,)
REFEREE_VERDICT_COLUMNS = (5, 7)


def _rows(s: Section, referee: bool) -> list[list[str]]:
    rows = []
    for c in s.claims:
        row = [c.text, c.paper, c.criterion or "-", c.measured, c.held or "-", c.verdict]
        if referee:
            row += [c.ns2_measured or "-", c.ns2_verdict or "n/a"]
        row.append("; ".join(x for x in (c.note, c.ns2_note if referee else "") if x))
        rows.append(row)
    return rows


def _referee_line(s: Section) -> str:
    if not s.referee:
        return ""
    return "ns-2 could not run: " + "; ".join(s.referee) + "."


def markdown(sections: list[Section], out: Path, header: str, referee: bool = False) -> str:
    parts = [
        f"# delaycc: reproducing the papers\n\n{header}\n",
        f"**{_tally(sections)}**\n",
    ]
    if referee:
        parts.append(f"**{_ns2_tally(sections)}**\n")
    for s in sections:
        parts.append(f"## {s.exp_id} ({s.paper}): {s.title}\n")
        rows = [[*r[:5], r[5].upper(), *r[6:]] for r in _rows(s, referee)]
        parts.append(_md_table(REFEREE_COLUMNS if referee else COLUMNS, rows) + "\n")
        if referee and _referee_line(s):
            parts.append(_referee_line(s) + "\n")
        for t in s.tables:
            parts.append(f"**{t.title}**\n\n" + _md_table(t.columns, t.rows) + "\n")
        for f in s.figures:
            parts.append(f"![{_caption(f)}]({f.relative_to(out).as_posix()})\n")
    return "\n".join(parts)


def _html_table(
    columns: list[str], rows: list[list[str]], verdict_col: int | tuple[int, ...] | None = None
) -> str:
    verdict_cols = (verdict_col,) if isinstance(verdict_col, int) else (verdict_col or ())
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = []
    for r in rows:
        cells = []
        for i, c in enumerate(r):
            if i in verdict_cols:
                color = BADGE.get(c.lower(), "#444")
                cells.append(f'<td><span class="v" style="background:{color}">{html.escape(c)}</span></td>')
            else:
                cells.append(f"<td>{html.escape(c)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def html_page(sections: list[Section], header: str, referee: bool = False) -> str:
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8"><title>delaycc: reproducing the papers</title>',
        f"<style>{STYLE}</style>",
        "</head><body>",
        "<h1>delaycc: reproducing the papers</h1>",
        f"<p>{html.escape(header)}</p>",
        f"<p><b>{_tally(sections)}</b></p>",
    ]
    if referee:
        parts.append(f"<p><b>{html.escape(_ns2_tally(sections))}</b></p>")
    for s in sections:
        eid, paper, title = html.escape(s.exp_id), html.escape(s.paper), html.escape(s.title)
        parts.append(f'<h2 id="{eid}">{eid} ({paper}): {title}</h2>')
        rows = _rows(s, referee)
        if referee:
            parts.append(_html_table(REFEREE_COLUMNS, rows, verdict_col=REFEREE_VERDICT_COLUMNS))
            if _referee_line(s):
                parts.append(f"<p>{html.escape(_referee_line(s))}</p>")
        else:
            parts.append(_html_table(COLUMNS, rows, verdict_col=VERDICT_COLUMNS))
        for t in s.tables:
            parts.append(f"<h3>{html.escape(t.title)}</h3>" + _html_table(t.columns, t.rows))
        for f in s.figures:
            data = base64.b64encode(f.read_bytes()).decode("ascii")
            img = f'<img alt="{html.escape(f.stem)}" src="data:image/png;base64,{data}">'
            parts.append(f"<figure>{img}<figcaption>{html.escape(_caption(f))}</figcaption></figure>")
    parts.append("</body></html>")
    return "\n".join(parts)


def write(sections: list[Section], out: Path, header: str, referee: bool = False) -> tuple[Path, Path]:
    md, page = out / "report.md", out / "report.html"
    text_md = markdown(sections, out, header, referee)
    text_html = html_page(sections, header, referee)
    atomic_write_text(md, text_md)
    atomic_write_text(page, text_html)
    return md, page
