#!/usr/bin/env python3
"""A third-party JSON-RPC 2.0 client for the example echo server (docs/testing.md#witnesses).

Usage: python_echo_client.py ws://127.0.0.1:PORT/

Speaks raw JSON text over the `websockets` package, nothing from this project: sends `echo` requests with object
params, array params and unicode text, a batch (two requests and a notification), and a lone notification
followed by one more request. Prints `REPLY <text>` for every message received, verbatim, in arrival order; the
Swift test compares them. Exits 2 when a reply does not arrive within 10 s.
"""
import asyncio
import sys

import websockets

REQUESTS = [
    '{"jsonrpc": "2.0", "method": "echo", "params": {"greeting": "hello", "n": 1, "nested": {"ok": true}}, "id": 1}',
    '{"jsonrpc": "2.0", "method": "echo", "params": [1, 2.5, -3, true, false, null, "x", []], "id": "two"}',
    # Literal UTF-8 text, and the same kinds of characters as JSON escapes (a surrogate pair among them).
    '{"jsonrpc": "2.0", "method": "echo", "params": {"text": "héllo wörld — 日本語 🎉", '
    r'"escaped": "caf\u00e9 \u2603 \ud83d\ude00"}, "id": 3}',
    '[{"jsonrpc": "2.0", "method": "echo", "params": [4], "id": 4},'
    ' {"jsonrpc": "2.0", "method": "echo", "params": ["not answered"]},'
    ' {"jsonrpc": "2.0", "method": "echo", "params": {"five": 5}, "id": 5}]',
]
# A notification gets no reply: the request after it must be answered next.
NOTIFICATION = '{"jsonrpc": "2.0", "method": "echo", "params": ["nobody answers this"]}'
AFTER_NOTIFICATION = '{"jsonrpc": "2.0", "method": "echo", "params": ["after"], "id": 6}'


async def exchange(url: str) -> None:
    async with websockets.connect(url) as ws:
        for text in REQUESTS:
            await ws.send(text)
            print("REPLY " + await asyncio.wait_for(ws.recv(), 10), flush=True)
        await ws.send(NOTIFICATION)
        await ws.send(AFTER_NOTIFICATION)
        print("REPLY " + await asyncio.wait_for(ws.recv(), 10), flush=True)


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 64
    try:
        asyncio.run(exchange(sys.argv[1]))
    except asyncio.TimeoutError:
        print("no reply within 10 s", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
