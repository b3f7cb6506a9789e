#!/usr/bin/env python3
"""Headless Chromium as an independent witness of the dashboard (docs/operations.md#dashboard, docs/testing.md#witnesses).

Usage: dashboard_cdp.py CHROMIUM URL PROFILE_DIR

Starts CHROMIUM headless with its DevTools endpoint on a free port, opens URL in a new page and drives it through
the Chrome DevTools Protocol (Python `websockets`). The Swift test speaks to it line by line over stdio:

  (start)                  -> "ready" once the page has loaded, or "fail <why>"
  expect <json>            -> polls the DOM (Runtime.evaluate) until it matches, then "ok <dom json>"; after the
                              deadline "fail <why> <dom json>". <json>: {"state": "live", "rooms": {"demo":
                              {"participants": ["alice", "bob"], "cells": {"bob": ["alice"]}}}}: the connection
                              state, and for each room listed exactly these participant rows in this order, whose
                              row text contains each of the given strings. A room mapped to null must be absent.
                              "measured": ["alice"] in a room: those rows show a number as their RTT (last cell).
  screenshot <path>        -> Page.captureScreenshot as PNG to <path>, then "ok <path>"
  quit                     -> closes the browser and exits 0

Every wait has a deadline (KS_DEADLINE_SCALE multiplies them); no fixed sleeps: the DOM is polled.
"""
import asyncio
import base64
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
POLL = 0.05

DOM_STATE = r"""
JSON.stringify({
  state: (document.getElementById("state") || {dataset: {}}).dataset.state || null,
  stateText: (document.getElementById("state") || {}).textContent || null,
  updated: (document.getElementById("updated") || {}).textContent || null,
  rooms: Array.from(document.querySelectorAll("table[data-room]")).map(table => ({
    name: table.dataset.room,
    caption: (table.querySelector("caption") || {}).textContent || null,
    headers: Array.from(table.querySelectorAll("thead th")).map(th => th.textContent),
    participants: Array.from(table.querySelectorAll("tbody tr")).map(row => ({
      name: row.dataset.participant,
      header: (row.querySelector("th") || {}).textContent || null,
      text: row.innerText
    }))
  }))
})
"""


def say(line):
    sys.stdout.write(line.replace("\n", " ") + "\n")
    sys.stdout.flush()


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

    async def dom(self):
        result = await self.call("Runtime.evaluate", {"expression": DOM_STATE, "returnByValue": True})
        value = result.get("result", {}).get("value")
        return json.loads(value) if value else None


def matches(expectation, dom):
    """None when `dom` shows what `expectation` asks for, otherwise what differs."""
    if dom is None:
        return "no DOM yet"
    if "state" in expectation and dom["state"] != expectation["state"]:
        return f"connection state is {dom['state']!r}, not {expectation['state']!r}"
    rooms = {room["name"]: room for room in dom["rooms"]}
    for name, wanted in expectation.get("rooms", {}).items():
        room = rooms.get(name)
        if wanted is None:
            if room is not None:
                return f"room {name!r} is still shown"
            continue
        if room is None:
            return f"room {name!r} is not shown"
        if room["caption"] != name:
            return f"room {name!r} has caption {room['caption']!r}"
        names = [row["name"] for row in room["participants"]]
        if names != wanted.get("participants", names):
            return f"room {name!r} shows {names}, not {wanted['participants']}"
        for row in room["participants"]:
            if row["header"] != row["name"]:
                return f"row {row['name']!r} shows the name {row['header']!r}"
            for text in wanted.get("cells", {}).get(row["name"], []):
                if text not in row["text"]:
                    return f"row {row['name']!r} ({row['text']!r}) does not contain {text!r}"
            if row["name"] in wanted.get("measured", []):
                rtt = row["text"].split("\t")[-1].strip()
                if not re.fullmatch(r"\d+\.\d+", rtt):
                    return f"row {row['name']!r} shows no measured RTT ({rtt!r})"
    return None


async def expect(tools, expectation):
    start = time.monotonic()
    last, why = None, "not checked"
    while time.monotonic() - start < DEADLINE:
        last = await tools.dom()
        why = matches(expectation, last)
        if why is None:
            return "ok " + json.dumps(last)
        await asyncio.sleep(POLL)
    return f"fail after {DEADLINE:.0f} s: {why}; DOM: {json.dumps(last)}"


def die_with_parent():
    """In the child: the kernel kills the browser when this script dies, however it dies."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def start_browser(chromium, profile):
    process = subprocess.Popen(
        [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars",
         "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1", f"--user-data-dir={profile}",
         "--window-size=1000,300", "about:blank"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
        preexec_fn=die_with_parent)
    return process


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


async def session(url, browser):
    async with websockets.connect(browser, max_size=None, open_timeout=DEADLINE) as socket:
        tools = DevTools(socket)
        target = await tools.call("Target.createTarget", {"url": "about:blank"}, session=False)
        attached = await tools.call("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True},
                                    session=False)
        tools.session = attached["sessionId"]
        await tools.call("Emulation.setDeviceMetricsOverride",
                         {"width": 1000, "height": 300, "deviceScaleFactor": 1, "mobile": False})
        await tools.call("Page.enable")
        await tools.call("Page.navigate", {"url": url})
        loaded = await expect_ready(tools)
        say(loaded)
        if not loaded.startswith("ready"):
            return 1
        loop = asyncio.get_running_loop()
        while True:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line:
                return 0
            command, _, argument = line.strip().partition(" ")
            if command == "expect":
                say(await expect(tools, json.loads(argument)))
            elif command == "screenshot":
                shot = await tools.call("Page.captureScreenshot", {"format": "png"})
                with open(argument, "wb") as file:
                    file.write(base64.b64decode(shot["data"]))
                say("ok " + argument)
            elif command == "quit":
                return 0
            else:
                say("fail unknown command " + command)


async def expect_ready(tools):
    start, state = time.monotonic(), None
    while time.monotonic() - start < DEADLINE:
        result = await tools.call("Runtime.evaluate", {"expression": "document.readyState + ' ' + location.pathname",
                                                       "returnByValue": True})
        state = result.get("result", {}).get("value", "")
        if state.startswith("complete /dashboard"):
            return "ready"
        await asyncio.sleep(POLL)
    return f"fail the page did not load within {DEADLINE:.0f} s (last: {state!r})"


def main():
    chromium, url, profile = sys.argv[1:4]
    # SIGTERM (the test gave up) ends the script through `finally`, which stops the browser.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    process = start_browser(chromium, profile)
    try:
        browser, seen = devtools_url(process)
        if browser is None:
            say("fail chromium did not open its DevTools endpoint: " + " | ".join(seen[-10:]))
            return 1
        return asyncio.run(session(url, browser))
    except Exception as error:  # the test reads the reason from the line
        say(f"fail {type(error).__name__}: {error}")
        return 1
    finally:
        stop_browser(process, profile)


if __name__ == "__main__":
    sys.exit(main())
