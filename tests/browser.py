"""A headless Chromium driven over the Chrome DevTools Protocol, for the tests of the HTML report.

Chromium is started with `--remote-debugging-pipe`: it reads protocol messages (JSON, each ended by a NUL
byte) on its file descriptor 3 and writes replies and events on 4. No port, no WebSocket, no driver
binary whose version must match the browser's, no Python package: the standard library is enough.

`make browser-deps` installs Debian's `chromium` when it is missing and the user is root; otherwise
`skip_reason()` says why the browser tests do not run. DELAYCC_CHROMIUM names another binary.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

TIMEOUT_S = 30.0


def executable() -> str | None:
    named = os.environ.get("DELAYCC_CHROMIUM")
    return shutil.which(named) if named else shutil.which("chromium")


def skip_reason() -> str | None:
    """Why this machine cannot run the browser tests, or None."""
    if executable() is None:
        if os.environ.get("DELAYCC_CHROMIUM"):
            return f"DELAYCC_CHROMIUM={os.environ['DELAYCC_CHROMIUM']} is not an executable"
        return "chromium missing: `make browser-deps` installs it (needs root and apt-get)"
    return None


class BrowserError(RuntimeError):
    pass


class Browser:
    """One headless Chromium with a fresh profile in ``profile``; `page()` opens a tab."""

    def __init__(self, profile: Path) -> None:
        exe = executable()
        if exe is None:
            raise BrowserError("chromium not found")
        profile.mkdir(parents=True, exist_ok=True)
        self._log = profile / "chromium.log"
        # Our ends and Chromium's, the latter moved above 9 so that bash's redirections to 3 and 4 cannot
        # overwrite one with the other (dash takes single-digit descriptors only).
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        child_r = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10)
        child_w = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)
        for fd in (to_browser_r, from_browser_w):
            os.close(fd)
        args = [
            "--headless",
            "--remote-debugging-pipe",
            # As root Chromium refuses its sandbox; the page is our own file.
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--mute-audio",
            "--hide-scrollbars",
            f"--user-data-dir={profile}",
            "about:blank",
        ]
        # Its messages to a file, not to a pipe nobody reads while it runs (a full pipe would block it).
        with self._log.open("wb") as log:
            self.proc = subprocess.Popen(
                [
                    "bash",
                    "-c",
                    f'exec "$@" 3<&{child_r} 4>&{child_w} {child_r}<&- {child_w}>&-',
                    "bash",
                    exe,
                    *args,
                ],
                pass_fds=(child_r, child_w),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        os.close(child_r)
        os.close(child_w)
        self._buf = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        self.send("Browser.getVersion")

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> Any:
        """Sends one command and returns its result; events that arrive meanwhile go to `events`."""
        self._next_id += 1
        msg: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._to_browser, json.dumps(msg).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_for(self, method: str, session: str, since: int = 0) -> dict[str, Any]:
        """The first event ``method`` of ``session`` from `events[since:]` on, waiting for it."""
        i = since
        while True:
            while i < len(self.events):
                e = self.events[i]
                i += 1
                if e["method"] == method and e.get("sessionId") == session:
                    return e
            self.events.append(self._read())

    def _read(self) -> dict[str, Any]:
        deadline = time.monotonic() + TIMEOUT_S
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._from_browser], [], [], max(left, 0))
            if not ready:
                raise BrowserError(f"Chromium said nothing for {TIMEOUT_S:.0f} s")
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                err = self._log.read_text(errors="replace")[-2000:]
                raise BrowserError(f"Chromium exited ({self.proc.wait()}): {err}")
            self._buf += chunk
        raw, self._buf = self._buf.split(b"\0", 1)
        return json.loads(raw)  # type: ignore[no-any-return]

    def page(self, width: int = 1280, height: int = 900) -> Page:
        """A new tab whose viewport is ``width`` x ``height`` CSS pixels, one device pixel each."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        return Page(self, session, width, height)

    def close(self) -> None:
        with contextlib.suppress(BrowserError):
            self.send("Browser.close")
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_browser, self._from_browser):
            os.close(fd)


class Page:
    """A tab: navigation, script, real mouse clicks and keys, screenshots, and what went wrong in it."""

    def __init__(self, browser: Browser, session: str, width: int, height: int) -> None:
        self.b, self.session = browser, session
        self._since = len(browser.events)
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.cmd(f"{domain}.enable")
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
        self.cmd("Emulation.setDeviceMetricsOverride", metrics)

    def cmd(self, method: str, params: dict[str, Any] | None = None) -> Any:
        return self.b.send(method, params, self.session)

    def goto(self, url: str) -> None:
        """Loads ``url`` and returns after its load event (every image loaded or failed)."""
        since = len(self.b.events)
        self.cmd("Page.navigate", {"url": url})
        self.b.wait_for("Page.loadEventFired", self.session, since)

    def eval(self, expression: str) -> Any:
        """The value of a JavaScript expression (returned by value; promises awaited)."""
        r = self.cmd(
            "Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True}
        )
        if "exceptionDetails" in r:
            raise BrowserError(f"{expression}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def click(self, selector: str) -> None:
        """A real mouse click in the middle of the element ``selector``, scrolled into view first."""
        box = self.eval(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
            " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2]; })()"
        )
        self.click_at(*box)

    def click_at(self, x: float, y: float) -> None:
        for kind in ("mousePressed", "mouseReleased"):
            self.cmd(
                "Input.dispatchMouseEvent",
                {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1},
            )
        self.settle()

    def key(self, key: str, code: int) -> None:
        for kind in ("keyDown", "keyUp"):
            self.cmd(
                "Input.dispatchKeyEvent",
                {"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code},
            )
        self.settle()

    def settle(self) -> None:
        """Waits until the page has handled what was sent and drawn a frame."""
        self.eval("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")

    def screenshot(self, path: Path) -> Path:
        data = self.cmd("Page.captureScreenshot", {"format": "png"})["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    def _events(self) -> list[dict[str, Any]]:
        return [e for e in self.b.events[self._since :] if e.get("sessionId") == self.session]

    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and error log entries (failed loads among them)."""
        out = []
        for e in self._events():
            p = e["params"]
            if e["method"] == "Runtime.consoleAPICalled" and p["type"] in ("error", "assert"):
                out.append(
                    "console: " + " ".join(str(a.get("value", a.get("description"))) for a in p["args"])
                )
            elif e["method"] == "Runtime.exceptionThrown":
                d = p["exceptionDetails"]
                out.append(f"exception: {d.get('exception', {}).get('description') or d.get('text')}")
            elif e["method"] == "Log.entryAdded" and p["entry"]["level"] == "error":
                out.append(f"log: {p['entry']['text']} {p['entry'].get('url', '')}")
        return out

    def requests(self) -> list[str]:
        """The URL of every request the page made."""
        return [
            e["params"]["request"]["url"]
            for e in self._events()
            if e["method"] == "Network.requestWillBeSent"
        ]

    def failed_requests(self) -> list[str]:
        urls = {
            e["params"]["requestId"]: e["params"]["request"]["url"][:100]
            for e in self._events()
            if e["method"] == "Network.requestWillBeSent"
        }
        return [
            f"{urls.get(e['params']['requestId'], '?')}: {e['params'].get('errorText')}"
            for e in self._events()
            if e["method"] == "Network.loadingFailed"
        ]
