#!/usr/bin/env python3
"""Headless Chromium as an independent witness of the dashboard (docs/operations.md#dashboard, docs/testing.md#witnesses).

Usage: dashboard_cdp.py CHROMIUM URL PROFILE_DIR TOKEN

Starts CHROMIUM headless with its DevTools endpoint on a free port, opens URL (/dashboard) in a new page, logs in
with TOKEN through the page's login form (as a person would: the token in the form's field, then submit), and drives
the dashboard through the Chrome DevTools Protocol (Python `websockets`). The Swift test speaks to it line by line
over stdio:

  (start)                  -> "ready" once the dashboard has loaded after the login, or "fail <why>"
  expect <json>            -> polls the DOM (Runtime.evaluate) until it matches, then "ok <dom json>"; after the
                              deadline "fail <why> <dom json>". <json>: {"state": "live", "rooms": {"demo":
                              {"participants": ["alice", "bob"], "cells": {"bob": ["alice"]}}}}: the connection
                              state, and for each room listed exactly these participant rows in this order, whose
                              row text contains each of the given strings. A room mapped to null must be absent.
                              "measured": ["alice"] in a room: those rows show a number as their RTT (last cell).
                              "mediaServer": "ws://…" (or "none") in a room: its caption names that media server.
                              "flows": {"bob": {"alice": "stuck"}} in a room: the row's endpoint item (a stream or a
                              publisher received from) shows that flow state ("flowing", "partial", "stuck",
                              "unknown"; null: not shown at all). Top-level "stuck": N: the page counts N stuck endpoints (0: none shown).
  screenshot <path>        -> Page.captureScreenshot as PNG to <path>, then "ok <path>"
  quit                     -> closes the browser and exits 0

Every wait has a deadline (KS_DEADLINE_SCALE multiplies them); no fixed sleeps: the DOM is polled.
"""
import asyncio
import base64
import json
import os
import re
import sys
import time

# The shared CDP driver (Tests/Witness/chromium_cdp.py); no bytecode cache in the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Witness"))
from chromium_cdp import DEADLINE, commands, run, say  # noqa: E402

POLL = 0.05

DOM_STATE = r"""
JSON.stringify({
  state: (document.getElementById("state") || {dataset: {}}).dataset.state || null,
  stateText: (document.getElementById("state") || {}).textContent || null,
  updated: (document.getElementById("updated") || {}).textContent || null,
  stuck: (document.getElementById("stuck") || {}).hidden === false ? document.getElementById("stuck").textContent : null,
  rooms: Array.from(document.querySelectorAll("table[data-room]")).map(table => ({
    name: table.dataset.room,
    caption: (table.querySelector("caption .room-name") || {}).textContent || null,
    mediaServer: (table.querySelector("caption .media-server") || {}).textContent || null,
    headers: Array.from(table.querySelectorAll("thead th")).map(th => th.textContent),
    participants: Array.from(table.querySelectorAll("tbody tr")).map(row => ({
      name: row.dataset.participant,
      header: (row.querySelector("th") || {}).textContent || null,
      text: row.innerText,
      flows: Object.fromEntries(Array.from(row.querySelectorAll(".endpoint")).map(item =>
        [item.dataset.endpoint, item.dataset.flow]))
    }))
  }))
})
"""


async def dom(tools):
    result = await tools.call("Runtime.evaluate", {"expression": DOM_STATE, "returnByValue": True})
    value = result.get("result", {}).get("value")
    return json.loads(value) if value else None


def matches(expectation, dom):
    """None when `dom` shows what `expectation` asks for, otherwise what differs."""
    if dom is None:
        return "no DOM yet"
    if "state" in expectation and dom["state"] != expectation["state"]:
        return f"connection state is {dom['state']!r}, not {expectation['state']!r}"
    if "stuck" in expectation:
        wanted = expectation["stuck"]
        shown = dom["stuck"]
        if wanted == 0 and shown is not None:
            return f"the page shows {shown!r}, not no stuck endpoint"
        if wanted != 0 and (shown is None or f" {wanted} stuck" not in shown):
            return f"the page shows {shown!r}, not {wanted} stuck"
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
        if "mediaServer" in wanted and room["mediaServer"] != "media server: " + wanted["mediaServer"]:
            return f"room {name!r} shows {room['mediaServer']!r}, not the media server {wanted['mediaServer']!r}"
        names = [row["name"] for row in room["participants"]]
        if names != wanted.get("participants", names):
            return f"room {name!r} shows {names}, not {wanted['participants']}"
        for row in room["participants"]:
            if row["header"] != row["name"]:
                return f"row {row['name']!r} shows the name {row['header']!r}"
            for text in wanted.get("cells", {}).get(row["name"], []):
                if text not in row["text"]:
                    return f"row {row['name']!r} ({row['text']!r}) does not contain {text!r}"
            for endpoint, state in wanted.get("flows", {}).get(row["name"], {}).items():
                if row["flows"].get(endpoint) != state:
                    return f"row {row['name']!r} shows {endpoint!r} as {row['flows'].get(endpoint)!r}, not {state!r}"
            if row["name"] in wanted.get("measured", []):
                rtt = row["text"].split("\t")[-1].strip()
                if not re.fullmatch(r"\d+\.\d+", rtt):
                    return f"row {row['name']!r} shows no measured RTT ({rtt!r})"
    return None


async def expect(tools, expectation):
    start = time.monotonic()
    last, why = None, "not checked"
    while time.monotonic() - start < DEADLINE:
        last = await dom(tools)
        why = matches(expectation, last)
        if why is None:
            return "ok " + json.dumps(last)
        await asyncio.sleep(POLL)
    return f"fail after {DEADLINE:.0f} s: {why}; DOM: {json.dumps(last)}"


async def session(tools, url, token):
    await tools.call("Page.navigate", {"url": url})
    loaded = await log_in(tools, token)
    if loaded.startswith("ready"):
        loaded = await expect_ready(tools)
    say(loaded)
    if not loaded.startswith("ready"):
        return 1
    async for command, argument in commands():
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
    return 0


LOG_IN = """
(function () {
  const form = document.querySelector('form[action="/dashboard/login"]');
  if (document.readyState !== "complete" || !form) return "waiting " + document.readyState;
  form.elements.token.value = %s;
  form.submit();
  return "submitted";
})()
"""


async def log_in(tools, token):
    """Waits for the login form, fills in the token and submits it: "ready", or "fail <why>"."""
    start, state = time.monotonic(), None
    while time.monotonic() - start < DEADLINE:
        result = await tools.call("Runtime.evaluate", {"expression": LOG_IN % json.dumps(token),
                                                       "returnByValue": True})
        state = result.get("result", {}).get("value", "")
        if state == "submitted":
            return "ready"
        await asyncio.sleep(POLL)
    return f"fail no login form within {DEADLINE:.0f} s (last: {state!r})"


async def expect_ready(tools):
    start, state = time.monotonic(), None
    ready = "document.readyState + ' ' + location.pathname + ' ' + !!document.getElementById('rooms')"
    while time.monotonic() - start < DEADLINE:
        try:
            result = await tools.call("Runtime.evaluate", {"expression": ready, "returnByValue": True})
        except RuntimeError as error:
            # The login's navigation committed while this evaluation ran in the login page: look again.
            if "Inspected target navigated or closed" not in str(error):
                raise
            state = "navigating"
            await asyncio.sleep(POLL)
            continue
        state = result.get("result", {}).get("value", "")
        if state == "complete /dashboard true":
            return "ready"
        await asyncio.sleep(POLL)
    return f"fail the page did not load within {DEADLINE:.0f} s (last: {state!r})"


def main():
    chromium, url, profile, token = sys.argv[1:5]
    return run(chromium, profile, lambda tools: session(tools, url, token), height=360)


if __name__ == "__main__":
    sys.exit(main())
