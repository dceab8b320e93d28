"""The reproduction report: Markdown, and one self-contained HTML page with every figure embedded.

The page is made to browse, offline and from a file: a table of contents, a stable anchor for every
experiment (its id), claim (`EXPERIMENT--slug-of-the-claim`), table and figure, a filter by verdict, and
figures that open full size. Everything is inline: the figures as PNG data, a style sheet, and a short
script (the filter, Escape to close a figure). Without the script the page still reads and figures still
open (CSS `:target`); only the filter needs it.
"""

from __future__ import annotations

import base64
import html
import re
from collections import Counter
from pathlib import Path

from ..files import atomic_write_text
from .model import (
    BY_CONSTRUCTION,
    NOT_COMPARABLE,
    NOT_REPRODUCED,
    NOT_SUPPORTED,
    REPRODUCED,
    SETUP,
    SUPPORTED,
    VERDICTS,
    Claim,
    Table,
)

STYLE = (
    "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#1f2328}"
    "table{border-collapse:collapse;margin:1em 0;font-size:.9em}"
    "td,th{border:1px solid #d0d7de;padding:.3em .5em;text-align:left}th{background:#f6f8fa}"
    ".v{color:#fff;border-radius:4px;padding:.1em .4em;white-space:nowrap}img{max-width:100%}"
    # Contents, anchors and the claim a link points to.
    "nav ol{padding-left:1.5em}nav li{margin:.2em 0}nav details{margin:.2em 0 .4em}nav .v{font-size:.8em}"
    "a.anchor{color:#8c959f;text-decoration:none;margin-left:.3em;visibility:hidden}"
    "h2:hover a.anchor,h3:hover a.anchor,tr:hover a.anchor,a.anchor:focus{visibility:visible}"
    "tr:target td{background:#fff8c5}h2:target,h3:target{background:#fff8c5}"
    # What a link lands on is not left under the filter's bar.
    "[id]{scroll-margin-top:4em}"
    # The filter stays in view while scrolling.
    "#filter{position:sticky;top:0;z-index:1;background:#fff;border-bottom:1px solid #d0d7de;"
    "padding:.5em 0;margin:1em 0}#filter label{margin-right:1em;white-space:nowrap;cursor:pointer}"
    "#shown{color:#59636e}"
    # Figures side by side, each opening full size over the page when its `.zoom` is the target.
    "figure{display:inline-block;vertical-align:top;width:min(100%,520px);margin:.5em 1em .5em 0}"
    "figure img{width:100%;cursor:zoom-in}figcaption{font-size:.9em;color:#59636e}"
    "figure .close{display:none}"
    ".zoom:target+figure{position:fixed;inset:0;z-index:2;width:auto;margin:0;padding:2.5em 1em 1em;"
    "overflow:auto;background:rgba(0,0,0,.9);text-align:center}"
    ".zoom:target+figure img{width:auto;max-width:none;background:#fff;cursor:default}"
    ".zoom:target+figure figcaption{color:#fff}"
    ".zoom:target+figure .close{display:block;position:fixed;top:.2em;right:.6em;color:#fff;"
    "font-size:2em;text-decoration:none}"
)
BADGE = {
    REPRODUCED: "#1a7f37",
    NOT_REPRODUCED: "#cf222e",
    NOT_COMPARABLE: "#6e7781",
    SETUP: "#9a6700",
    BY_CONSTRUCTION: "#9a6700",
    SUPPORTED: "#1a7f37",
    NOT_SUPPORTED: "#cf222e",
}

# The filter: a checkbox per verdict sets `hide-VERDICT` on the body, and one rule per verdict hides the
# claims (table rows and contents entries) that carry it. A link to a hidden claim shows its verdict again.
SCRIPT = """(function () {
  var filter = document.getElementById('filter');
  var boxes = filter.querySelectorAll('input[type=checkbox]');
  var shown = document.getElementById('shown');
  var total = 0;
  for (var i = 0; i < boxes.length; i++) total += Number(boxes[i].getAttribute('data-count'));
  function apply() {
    var n = 0;
    for (var i = 0; i < boxes.length; i++) {
      document.body.classList.toggle('hide-' + boxes[i].value, !boxes[i].checked);
      if (boxes[i].checked) n += Number(boxes[i].getAttribute('data-count'));
    }
    shown.textContent = n + ' of ' + total + ' claims shown';
  }
  function reveal() {
    var id = location.hash.slice(1);
    try { id = decodeURIComponent(id); } catch (e) { return; }
    var el = id ? document.getElementById(id) : null;
    var verdict = el ? el.getAttribute('data-verdict') : null;
    if (!verdict) return;
    var box = filter.querySelector('input[value="' + verdict + '"]');
    if (box && !box.checked) {
      box.checked = true;
      apply();
      el.scrollIntoView();
    }
  }
  function zoomed() {
    var z = document.querySelector('.zoom:target');
    return z ? z.nextElementSibling : null;
  }
  filter.addEventListener('change', apply);
  window.addEventListener('hashchange', reveal);
  document.addEventListener('keydown', function (e) {
    var fig = zoomed();
    if (fig && e.key === 'Escape') location.hash = fig.id;
  });
  document.addEventListener('click', function (e) {
    var fig = zoomed();
    if (fig && e.target === fig) location.hash = fig.id;
  });
  filter.hidden = false;
  apply();
  reveal();
})();"""


def _slug(text: str, limit: int = 48) -> str:
    """Lower-case letters and digits joined by hyphens, cut at a word boundary near ``limit``."""
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    if len(s) > limit:
        cut = s[:limit]
        s = cut.rsplit("-", 1)[0] if "-" in cut else cut
    return s or "x"


def _anchor_id(exp_id: str) -> str:
    """An experiment's id as it stands (ids have no spaces), so links to it stay as they were."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", exp_id).strip("-") or "x"


class _Ids:
    """Hands out each id once: the second claim whose text slugs alike gets `-2`, and so on. An id depends
    only on its experiment, its own text and the claims before it with the same slug."""

    def __init__(self, reserved: tuple[str, ...] = ()) -> None:
        self.used = set(reserved)

    def take(self, base: str) -> str:
        cand, n = base, 1
        while cand in self.used:
            n += 1
            cand = f"{base}-{n}"
        self.used.add(cand)
        return cand


RESERVED_IDS = ("contents", "filter", "shown")


class Section:
    def __init__(
        self,
        exp_id: str,
        paper: str,
        title: str,
        claims: list[Claim],
        tables: list[Table],
        figures: list[Path],
        part: str = "",
    ) -> None:
        self.exp_id, self.paper, self.title = exp_id, paper, title
        self.claims, self.tables, self.figures = claims, tables, figures
        self.part = part
        """The part of the report the section opens or continues ("" for the papers' experiments): a
        heading and a paragraph go before the first section of each part."""
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
    """The papers' verdicts counted, then our hypotheses' (each only when the report holds any)."""
    c = _counts(sections)
    papers = (
        f"{c[REPRODUCED]} reproduced, {c[NOT_REPRODUCED]} not reproduced, {c[SETUP]} set-up and "
        f"{c[BY_CONSTRUCTION]} by construction (not counted as evidence), {c[NOT_COMPARABLE]} not comparable."
    )
    if not c[SUPPORTED] + c[NOT_SUPPORTED]:
        return papers
    ours = f"Our hypotheses: {c[SUPPORTED]} supported, {c[NOT_SUPPORTED]} not supported."
    return ours if sum(c.values()) == c[SUPPORTED] + c[NOT_SUPPORTED] else f"{papers} {ours}"


PART_INTRO = {
    "Beyond the papers": (
        "Experiments of our own, beyond the five papers: the FAST family, Vegas, CUBIC and BBR over RED, "
        "CoDel and FQ-CoDel bottlenecks (droptail the baseline) and over a cellular trace. Each claim is a "
        "hypothesis of ours with a criterion fixed before the runs, supported or not by what was measured; "
        "the figures draw each bottleneck's throughput-delay plane as Pantheon does (docs/beyond.md)."
    )
}


def _title(sections: list[Section]) -> str:
    """The papers' title, or the part's when every section belongs to it (`delaycc reproduce beyond`)."""
    parts = {s.part for s in sections}
    if sections and "" not in parts and len(parts) == 1:
        return f"delaycc: {sections[0].part.lower()}"
    return "delaycc: reproducing the papers"


def _parts(sections: list[Section]) -> list[str | None]:
    """Per section, the part it opens (None when it continues the part before it, or has none)."""
    out: list[str | None] = []
    before = ""
    for s in sections:
        out.append(s.part if s.part and s.part != before else None)
        before = s.part
    return out


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


def _columns(s: Section, columns: list[str]) -> list[str]:
    """A part's claims are hypotheses of ours: their second column is where each comes from."""
    return ["hypothesis and its source" if c == "paper" and s.part else c for c in columns]


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
        f"# {_title(sections)}\n\n{header}\n",
        f"**{_tally(sections)}**\n",
    ]
    if referee:
        parts.append(f"**{_ns2_tally(sections)}**\n")
    for s, opens in zip(sections, _parts(sections), strict=True):
        if opens:
            parts.append(f"## {opens}\n")
            if opens in PART_INTRO:
                parts.append(PART_INTRO[opens] + "\n")
        parts.append(f"## {s.exp_id} ({s.paper}): {s.title}\n")
        rows = [[*r[:5], r[5].upper(), *r[6:]] for r in _rows(s, referee)]
        parts.append(_md_table(_columns(s, REFEREE_COLUMNS if referee else COLUMNS), rows) + "\n")
        if referee and _referee_line(s):
            parts.append(_referee_line(s) + "\n")
        for t in s.tables:
            parts.append(f"**{t.title}**\n\n" + _md_table(t.columns, t.rows) + "\n")
        for f in s.figures:
            parts.append(f"![{_caption(f)}]({f.relative_to(out).as_posix()})\n")
    return "\n".join(parts)


def _badge(verdict: str) -> str:
    color = BADGE.get(verdict.lower(), "#444")
    return f'<span class="v" style="background:{color}">{html.escape(verdict)}</span>'


def _html_table(
    columns: list[str],
    rows: list[list[str]],
    verdict_col: int | tuple[int, ...] | None = None,
    row_ids: list[str] | None = None,
    row_verdicts: list[str] | None = None,
) -> str:
    """A table; with ``row_ids`` each row is an anchor (a link to it follows its first cell), with
    ``row_verdicts`` each row carries the verdict the filter reads."""
    verdict_cols = (verdict_col,) if isinstance(verdict_col, int) else (verdict_col or ())
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = []
    for n, r in enumerate(rows):
        rid = row_ids[n] if row_ids else None
        cells = []
        for i, c in enumerate(r):
            if i in verdict_cols:
                cells.append(f"<td>{_badge(c)}</td>")
            elif i == 0 and rid:
                link = f'<a class="anchor" href="#{rid}" title="link to this claim">#</a>'
                cells.append(f"<td>{html.escape(c)}{link}</td>")
            else:
                cells.append(f"<td>{html.escape(c)}</td>")
        attrs = f' id="{rid}"' if rid else ""
        if row_verdicts:
            attrs += f' data-verdict="{_slug(row_verdicts[n])}"'
        body.append(f"<tr{attrs}>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


class _Anchors:
    """Every id of the page, handed out before any is written so the contents and the body agree."""

    def __init__(self, sections: list[Section]) -> None:
        ids = _Ids(RESERVED_IDS)
        self.parts = [ids.take(_slug(p)) if p else None for p in _parts(sections)]
        """Per section, the id of the part it opens (None when it opens none)."""
        self.experiments = [ids.take(_anchor_id(s.exp_id)) for s in sections]
        self.claims: list[list[str]] = []
        self.tables: list[list[str]] = []
        self.figures: list[list[tuple[str, str]]] = []
        """Per figure: the figure's id, and the id whose target shows it full size."""
        for e, s in zip(self.experiments, sections, strict=True):
            self.claims.append([ids.take(f"{e}--{_slug(c.text)}") for c in s.claims])
            self.tables.append([ids.take(f"{e}--table-{_slug(t.title)}") for t in s.tables])
            figs = []
            for f in s.figures:
                fid = ids.take(f"{e}--fig-{_slug(('ns2-' if f.parent.name == 'ns2' else '') + f.stem)}")
                figs.append((fid, ids.take(f"{fid}-full")))
            self.figures.append(figs)


def _contents(sections: list[Section], anchors: _Anchors) -> str:
    """Every experiment with its claims; the experiments of a part listed under the part's own entry."""
    entries: list[str] = []
    part: tuple[str, str, list[str]] | None = None
    """The part being listed: its title, its id and its experiments' entries."""

    def close() -> None:
        if part is not None:
            title, pid, items = part
            entries.append(f'<li><a href="#{pid}">{title}</a><ol>{"".join(items)}</ol></li>')

    for s, eid, cids, pid in zip(sections, anchors.experiments, anchors.claims, anchors.parts, strict=True):
        if pid is not None:
            close()
            part = (html.escape(s.part), pid, [])
        elif not s.part:
            close()
            part = None
        title = html.escape(f"{s.exp_id} ({s.paper}): {s.title}")
        counts = Counter(c.verdict for c in s.claims)
        tally = ", ".join(f"{counts[v]} {v}" for v in VERDICTS if counts[v])
        claims = "".join(
            f'<li data-verdict="{_slug(c.verdict)}"><a href="#{cid}">{html.escape(c.text)}</a> '
            f"{_badge(c.verdict)}</li>"
            for c, cid in zip(s.claims, cids, strict=True)
        )
        summary = f"<summary>{len(s.claims)} claims: {html.escape(tally)}</summary>"
        details = f"<details>{summary}<ol>{claims}</ol></details>" if s.claims else ""
        (part[2] if part is not None else entries).append(f'<li><a href="#{eid}">{title}</a>{details}</li>')
    close()
    return f'<nav id="contents" aria-label="Contents"><h2>Contents</h2><ol>{"".join(entries)}</ol></nav>'


def _filter(sections: list[Section]) -> str:
    """One checkbox per verdict the report holds, each with its count; shown by the script."""
    counts = _counts(sections)
    boxes = "".join(
        f'<label><input type="checkbox" value="{_slug(v)}" data-count="{counts[v]}" checked> '
        f"{_badge(v)} {counts[v]}</label>"
        for v in VERDICTS
        if counts[v]
    )
    return (
        '<div id="filter" role="group" aria-label="Show claims" hidden>'
        f'<b>Show claims:</b> {boxes}<span id="shown"></span></div>'
    )


def _hide_rules() -> str:
    return "".join(f'body.hide-{_slug(v)} [data-verdict="{_slug(v)}"]{{display:none}}' for v in VERDICTS)


def _figure(f: Path, fid: str, zoom: str) -> str:
    data = base64.b64encode(f.read_bytes()).decode("ascii")
    img = f'<img alt="{html.escape(f.stem)}" src="data:image/png;base64,{data}">'
    close = f'<a class="close" href="#{fid}" title="close (Esc)" aria-label="close">&times;</a>'
    return (
        f'<span class="zoom" id="{zoom}"></span><figure id="{fid}">'
        f'<a class="open" href="#{zoom}" title="open full size">{img}</a>'
        f"<figcaption>{html.escape(_caption(f))}{close}</figcaption></figure>"
    )


def html_page(sections: list[Section], header: str, referee: bool = False) -> str:
    anchors = _Anchors(sections)
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="en"><head><meta charset="utf-8"><title>{_title(sections)}</title>',
        '<meta name="viewport" content="width=device-width,initial-scale=1">',
        # No favicon request: the page asks for nothing beyond itself.
        '<link rel="icon" href="data:,">',
        f"<style>{STYLE}{_hide_rules()}</style>",
        "</head><body>",
        f"<h1>{_title(sections)}</h1>",
        f"<p>{html.escape(header)}</p>",
        f"<p><b>{_tally(sections)}</b></p>",
    ]
    if referee:
        parts.append(f"<p><b>{html.escape(_ns2_tally(sections))}</b></p>")
    parts.append(_contents(sections, anchors))
    parts.append(_filter(sections))
    for n, s in enumerate(sections):
        pid = anchors.parts[n]
        if pid is not None:
            link = f'<a class="anchor" href="#{pid}" title="link to this part">#</a>'
            parts.append(f'<h2 id="{pid}" class="part">{html.escape(s.part)}{link}</h2>')
            if s.part in PART_INTRO:
                parts.append(f"<p>{html.escape(PART_INTRO[s.part])}</p>")
        eid, paper, title = anchors.experiments[n], html.escape(s.paper), html.escape(s.title)
        link = f'<a class="anchor" href="#{eid}" title="link to this experiment">#</a>'
        parts.append(f'<h2 id="{eid}">{html.escape(s.exp_id)} ({paper}): {title}{link}</h2>')
        rows = _rows(s, referee)
        ids, verdicts = anchors.claims[n], [c.verdict for c in s.claims]
        if referee:
            parts.append(
                _html_table(_columns(s, REFEREE_COLUMNS), rows, REFEREE_VERDICT_COLUMNS, ids, verdicts)
            )
            if _referee_line(s):
                parts.append(f"<p>{html.escape(_referee_line(s))}</p>")
        else:
            parts.append(_html_table(_columns(s, COLUMNS), rows, VERDICT_COLUMNS, ids, verdicts))
        for t, tid in zip(s.tables, anchors.tables[n], strict=True):
            link = f'<a class="anchor" href="#{tid}" title="link to this table">#</a>'
            parts.append(f'<h3 id="{tid}">{html.escape(t.title)}{link}</h3>' + _html_table(t.columns, t.rows))
        for f, (fid, zoom) in zip(s.figures, anchors.figures[n], strict=True):
            parts.append(_figure(f, fid, zoom))
    parts.append(f"<script>{SCRIPT}</script>")
    parts.append("</body></html>")
    return "\n".join(parts)


def write(sections: list[Section], out: Path, header: str, referee: bool = False) -> tuple[Path, Path]:
    md, page = out / "report.md", out / "report.html"
    text_md = markdown(sections, out, header, referee)
    text_html = html_page(sections, header, referee)
    atomic_write_text(md, text_md)
    atomic_write_text(page, text_html)
    return md, page
