"""report.html in a real browser (headless Chromium, tests/browser.py): it loads from a file with no error
and no request beyond itself, every figure shows, every link of its contents lands, the verdict filter
hides and shows claims, and a figure opens full size. Two reports: one `delaycc reproduce` writes for its
quickest experiment, and one built from a fixture that holds every verdict. Screenshots are kept in
pytest's temporary directory and listed at the end of the run."""

from __future__ import annotations

import json
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from browser import Browser, Page, skip_reason
from matplotlib.figure import Figure

from delaycc.reproduce import report, reproduce
from delaycc.reproduce.model import PART_BEYOND, VERDICTS, Claim, Table

from conftest import ARTIFACTS, ROOT

requires_chromium = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")

QUICK = "rttbased-simple"
"""The experiment `delaycc reproduce` runs fastest (ten runs, about 5 s on two cores)."""

WIDE_PX = 1400
"""The fixture's first figure: wider than the page, so that full size differs from the page's view."""


def _figure(path: Path, width_px: int, height_px: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig = Figure(figsize=(width_px / 100, height_px / 100), dpi=100)
    ax = fig.add_subplot()
    ax.plot([0, 1, 2, 3], [1, 3, 2, 4])
    ax.set_title(path.stem)
    fig.savefig(path, dpi=100)
    return path


def _claim(exp: str, text: str, verdict: str) -> Claim:
    return Claim(exp, text, "0.9", "0.91 ± 0.02", verdict, criterion="within 5 %", held="4/5")


def fixture_sections(out: Path) -> list[report.Section]:
    """Two experiments; every verdict; two claims whose texts slug alike; a figure and an ns-2 figure
    of the same name; text that must be escaped; and a third experiment in the part beyond the papers."""
    a = [_claim("demo-a", f"fast: <{v}> claim & more", v) for v in VERDICTS]
    a += [
        _claim("demo-a", "fast: throughput is unfair between 20 and 60 s", "reproduced"),
        _claim("demo-a", "FAST: throughput is unfair, between 20 and 60 s!", "not reproduced"),
    ]
    b = [_claim("demo-b", "Vegas-ALT maintains 16 Mb/s at k = 2", "not reproduced")]
    b.append(_claim("demo-b", "the ratio is about 2 at k = 2", "reproduced"))
    table = Table("P001 Table 1: throughput & fairness", ["scheme", "paper", "ours"], [["vegas", "1", "2"]])
    figs_a = [
        _figure(out / "demo-a" / "demo-a.png", WIDE_PX, 500),
        _figure(out / "demo-a" / "ns2" / "demo-a.png", 600, 300),
    ]
    figs_b = [_figure(out / "demo-b" / "demo-b.png", 800, 400)]
    c = [_claim("demo-c", "FQ-CoDel shares <fairly>", "supported")]
    c.append(_claim("demo-c", "CoDel corrects FAST's late joiner", "not supported"))
    figs_c = [_figure(out / "demo-c" / "demo-c-codel.png", 700, 450)]
    return [
        report.Section("demo-a", "P000", "two flows <one link>", a, [table], figs_a),
        report.Section("demo-b", "P004", "asymmetric links", b, [], figs_b),
        report.Section("demo-c", "ours", "an AQM & a trace", c, [], figs_c, part=PART_BEYOND),
    ]


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    b = Browser(tmp_path_factory.mktemp("chromium-profile"))
    yield b
    b.close()


@pytest.fixture(scope="module")
def fixture_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("fixture-report")
    _, page = report.write(fixture_sections(out), out, "A report built from a fixture.")
    return page


@pytest.fixture(scope="module")
def quick_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("quick-report")
    return reproduce(QUICK, out, workers=2, progress=False, root=ROOT)


def _open(browser: Browser, path: Path) -> Page:
    page = browser.page()
    page.goto(path.resolve().as_uri())
    return page


def _keep(page: Page, path: Path, what: str) -> None:
    page.screenshot(path)
    ARTIFACTS.append((what, path))
    print(f"{what}: {path}")


# The page's state, read in the browser: what is shown is what has a layout box.
SHOWN = "(sel) => [...document.querySelectorAll(sel)].filter(e => e.checkVisibility()).length"


def _shown(page: Page, selector: str) -> int:
    return int(page.eval(f"({SHOWN})({json.dumps(selector)})"))


def _check_loads_clean(page: Page) -> None:
    assert page.errors() == []
    assert page.failed_requests() == []
    outside = [u[:80] for u in page.requests() if not u.startswith(("file:", "data:"))]
    assert outside == [], "the page must ask for nothing beyond itself"
    images = page.eval("[...document.images].map(i => [i.complete, i.naturalWidth, i.naturalHeight])")
    assert images and all(done and w > 0 and h > 0 for done, w, h in images), images
    # Every link of the contents, and every in-page link at all, lands on an element with that id.
    toc = page.eval("[...document.querySelectorAll('#contents a')].map(a => a.getAttribute('href'))")
    assert toc and all(h.startswith("#") for h in toc)
    links = page.eval("[...document.querySelectorAll('a[href^=\"#\"]')].map(a => a.getAttribute('href'))")
    dangling = page.eval(
        f"{json.dumps(links)}.filter(h => !document.getElementById(decodeURIComponent(h.slice(1))))"
    )
    assert dangling == []
    ids = page.eval("[...document.querySelectorAll('[id]')].map(e => e.id)")
    assert len(ids) == len(set(ids)), "ids are unique"
    # The filter is shown (the script ran) and every claim is visible at first.
    assert page.eval("document.getElementById('filter').hidden") is False
    rows = _shown(page, "tr[data-verdict]")
    assert rows > 0 and rows == page.eval("document.querySelectorAll('tr[data-verdict]').length")


@requires_chromium
def test_the_report_of_an_experiment_loads_clean_in_a_browser(
    browser: Browser, quick_report: Path, tmp_path: Path
) -> None:
    page = _open(browser, quick_report)
    _check_loads_clean(page)
    assert page.eval(f"document.getElementById('{QUICK}').tagName") == "H2"
    assert page.eval("document.querySelectorAll('#contents a').length") > page.eval(
        "document.querySelectorAll('tr[data-verdict]').length"
    ), "the contents link every experiment and every claim"
    _keep(page, tmp_path / "quick-report.png", f"report.html of {QUICK}")


@requires_chromium
def test_the_verdict_filter_hides_and_shows_claims(
    browser: Browser, fixture_report: Path, tmp_path: Path
) -> None:
    page = _open(browser, fixture_report)
    _check_loads_clean(page)
    total = len(VERDICTS) + 6
    assert _shown(page, "tr[data-verdict]") == total
    assert page.eval("document.getElementById('shown').textContent") == f"{total} of {total} claims shown"
    boxes = page.eval("[...document.querySelectorAll('#filter input')].map(i => i.value)")
    papers = ["reproduced", "not-reproduced", "set-up", "by-construction", "not-comparable"]
    assert boxes == [*papers, "supported", "not-supported"]
    # The part beyond the papers: its heading, and its entry in the contents holding its experiment.
    assert page.eval("document.getElementById('beyond-the-papers').tagName") == "H2"
    part = "#contents a[href='#beyond-the-papers'] + ol a[href='#demo-c']"
    assert page.eval(f"document.querySelectorAll({json.dumps(part)}).length") == 1
    page.click('#filter input[value="not-supported"]')
    assert _shown(page, '[data-verdict="not-supported"]') == 0
    page.click('#filter input[value="not-supported"]')
    assert _shown(page, "tr[data-verdict]") == total

    not_reproduced = '[data-verdict="not-reproduced"]'
    assert _shown(page, f"tr{not_reproduced}") == 3 and _shown(page, f"#contents li{not_reproduced}") == 0
    page.click("#contents details summary")  # open the first experiment's claims in the contents
    assert _shown(page, f"#contents li{not_reproduced}") == 2

    page.click('#filter input[value="not-reproduced"]')
    assert _shown(page, f"tr{not_reproduced}") == 0
    assert _shown(page, f"#contents li{not_reproduced}") == 0
    assert _shown(page, "tr[data-verdict]") == total - 3
    assert page.eval("document.getElementById('shown').textContent") == f"{total - 3} of {total} claims shown"
    page.click('#filter input[value="reproduced"]')
    assert _shown(page, "tr[data-verdict]") == total - 6
    _keep(page, tmp_path / "filtered.png", "report.html, reproduced and not reproduced hidden")

    page.click('#filter input[value="not-reproduced"]')
    assert _shown(page, f"tr{not_reproduced}") == 3
    assert _shown(page, '#contents li[data-verdict="not-reproduced"]') == 2
    assert _shown(page, "tr[data-verdict]") == total - 3

    # A link to a claim the filter hides shows its verdict again, and the claim is the target.
    claim = "demo-a--fast-throughput-is-unfair-between-20-and-60-s"
    page.eval(f"location.hash = '{claim}'")
    page.settle()
    assert page.eval(f"document.getElementById('{claim}').matches(':target')")
    assert _shown(page, f"#{claim}") == 1
    assert page.eval("document.querySelector('#filter input[value=reproduced]').checked") is True
    assert _shown(page, "tr[data-verdict]") == total
    assert page.errors() == []


@requires_chromium
def test_a_figure_opens_full_size(browser: Browser, fixture_report: Path, tmp_path: Path) -> None:
    page = _open(browser, fixture_report)
    fig = "demo-a--fig-demo-a"
    img = f"#{fig} img"
    in_page = page.eval(f"document.querySelector('{img}').getBoundingClientRect().width")
    assert 0 < in_page < WIDE_PX
    assert page.eval(f"getComputedStyle(document.getElementById('{fig}')).position") == "static"

    page.click(img)
    assert page.eval("location.hash") == f"#{fig}-full"
    assert page.eval(f"getComputedStyle(document.getElementById('{fig}')).position") == "fixed"
    assert page.eval(f"document.querySelector('{img}').getBoundingClientRect().width") == WIDE_PX
    assert page.eval(f"document.querySelector('{img}').naturalWidth") == WIDE_PX
    _keep(page, tmp_path / "figure.png", "report.html, a figure at full size")

    page.key("Escape", 27)
    assert page.eval("location.hash") == f"#{fig}"
    assert page.eval(f"getComputedStyle(document.getElementById('{fig}')).position") == "static"

    # The close button does the same; so does a click beside the image.
    page.click(img)
    page.click(f"#{fig} a.close")
    assert page.eval(f"getComputedStyle(document.getElementById('{fig}')).position") == "static"
    page.click(img)
    page.click_at(5, page.eval("innerHeight") - 5)
    assert page.eval(f"getComputedStyle(document.getElementById('{fig}')).position") == "static"
    assert page.errors() == []


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.append(a["id"] or "")
        if tag == "script":
            self.scripts += 1
            assert "src" not in a, "scripts are inline"
        if tag == "link":
            assert (a.get("href") or "").startswith("data:"), "nothing is linked from outside the page"


@pytest.mark.parametrize("referee", [False, True], ids=["delaycc", "with-ns2-column"])
def test_anchors_are_stable_and_unique(tmp_path: Path, referee: bool) -> None:
    """Ids come from the experiment's id and the claim's text (or the table's title, the figure's name),
    so a link stays valid when a report is run again; they never depend on a browser."""
    sections = fixture_sections(tmp_path)
    page = report.html_page(sections, "header", referee)
    parser = _Ids()
    parser.feed(page)
    assert len(parser.ids) == len(set(parser.ids))
    assert parser.scripts == 1
    for expected in (
        "demo-a",
        "demo-b",
        "demo-a--fast-throughput-is-unfair-between-20-and-60-s",
        "demo-a--fast-throughput-is-unfair-between-20-and-60-s-2",
        "demo-a--fast-not-reproduced-claim-more",
        "demo-b--vegas-alt-maintains-16-mb-s-at-k-2",
        "demo-a--table-p001-table-1-throughput-fairness",
        "demo-a--fig-demo-a",
        "demo-a--fig-ns2-demo-a",
        "demo-a--fig-demo-a-full",
        "beyond-the-papers",
        "demo-c",
        "demo-c--fq-codel-shares-fairly",
        "demo-c--fig-demo-c-codel",
    ):
        assert expected in parser.ids, expected
    # The same claims in a report of one experiment get the same ids.
    alone = _Ids()
    alone.feed(report.html_page(sections[1:2], "header", referee))
    assert {i for i in parser.ids if i.startswith("demo-b")} == set(alone.ids) - set(report.RESERVED_IDS)
    # Markdown is unchanged by all this: no anchors or markup of the page in it.
    md = report.markdown(sections, tmp_path, "header")
    assert "<a " not in md and "data-verdict" not in md and "<span" not in md
