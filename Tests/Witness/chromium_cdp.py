"""Headless Chromium driven through the Chrome DevTools Protocol: what the browser witnesses share
(docs/testing.md#witnesses). Imported by Tests/RoomServerTests/Witness/dashboard_cdp.py and
Tests/PeerManagerTests/Witness/chromium_peer.py; not a test target of its own (Package.swift lists no target here).

A witness script calls `run(chromium, profile, session)`: it starts CHROMIUM headless with its DevTools endpoint on a
free port of 127.0.0.1, runs `session(tools)` with a `DevTools` attached to a new about:blank page, and stops the
browser however the session ends. The Swift test speaks to the script line by line over stdio (`say`, `commands`).

Every wait has a deadline (KS_DEADLINE_SCALE multiplies them); no fixed sleeps.
"""
import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

import websockets

SCALE = int(os.environ.get("KS_DEADLINE_SCALE", "1") or "1")
DEADLINE = 15.0 * SCALE


def say(line):
    """One answer line to the Swift test (line breaks inside become spaces)."""
    sys.stdout.write(line.replace("\n", " ") + "\n")
    sys.stdout.flush()


async def commands():
    """The test's command lines, as (command, argument) pairs, until its stdin ends."""
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            return
        command, _, argument = line.strip().partition(" ")
        yield command, argument


class DevTools:
    """One browser-level DevTools socket, with a flattened session attached to the page."""

    def __init__(self, socket):
        self.socket = socket
        self.next_id = 0
        self.session = None

    async def call(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        await self.socket.send(json.dumps(message))
        while True:
            reply = json.loads(await asyncio.wait_for(self.socket.recv(), DEADLINE))
            if reply.get("id") != self.next_id:
                continue  # an event, or a late reply
            if "error" in reply:
                raise RuntimeError(f"{method}: {reply['error']}")
            return reply.get("result", {})

    async def evaluate(self, expression, await_promise=False):
        """Runtime.evaluate by value: the expression's value, or RuntimeError with the page's exception text."""
        result = await self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                      "awaitPromise": await_promise})
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            thrown = details.get("exception", {}).get("description") or details.get("text")
            raise RuntimeError(f"the page threw: {thrown}")
        return result.get("result", {}).get("value")


def die_with_parent():
    """In the child: the kernel kills the browser when this script dies, however it dies."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def start_browser(chromium, profile, width, height):
    return subprocess.Popen(
        [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars",
         "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1", f"--user-data-dir={profile}",
         f"--window-size={width},{height}", "about:blank"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
        preexec_fn=die_with_parent)


def devtools_url(process):
    """The browser's DevTools WebSocket URL, from the line Chromium writes to stderr when it listens."""
    start = time.monotonic()
    seen = []
    while time.monotonic() - start < DEADLINE:
        line = process.stderr.readline()
        if not line:
            break
        text = line.decode("utf-8", "replace").strip()
        seen.append(text)
        found = re.search(r"DevTools listening on (ws://\S+)", text)
        if found:
            # Keep reading its stderr, so that a chatty browser never blocks on a full pipe.
            threading.Thread(target=lambda: [None for _ in process.stderr], daemon=True).start()
            return found.group(1), seen
    return None, seen


def stop_browser(process, profile):
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=5 * SCALE)
        except (subprocess.TimeoutExpired, ProcessLookupError):
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait()
    shutil.rmtree(profile, ignore_errors=True)


async def attach(browser, session, width, height):
    async with websockets.connect(browser, max_size=None, open_timeout=DEADLINE) as socket:
        tools = DevTools(socket)
        target = await tools.call("Target.createTarget", {"url": "about:blank"}, session=False)
        attached = await tools.call("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True},
                                    session=False)
        tools.session = attached["sessionId"]
        await tools.call("Emulation.setDeviceMetricsOverride",
                         {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        await tools.call("Page.enable")
        return await session(tools)


def run(chromium, profile, session, width=1000, height=300):
    """Starts the browser, runs `await session(tools)` on a new page and returns its exit status; on any error says
    `fail <why>` and returns 1. The browser is stopped and its profile removed in every case."""
    # SIGTERM (the test gave up) ends the script through `finally`, which stops the browser. The Swift test starts
    # this script from a thread that blocks SIGTERM (libdispatch's worker threads do), and the blocked mask is
    # inherited: unblock it, or the test's terminate() would stay pending forever.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    process = start_browser(chromium, profile, width, height)
    try:
        browser, seen = devtools_url(process)
        if browser is None:
            say("fail chromium did not open its DevTools endpoint: " + " | ".join(seen[-10:]))
            return 1
        return asyncio.run(attach(browser, session, width, height))
    except Exception as error:  # the test reads the reason from the line
        say(f"fail {type(error).__name__}: {error}")
        return 1
    finally:
        stop_browser(process, profile)
