#!/usr/bin/env python3
"""A third-party SockJS client of a Tree server's WebSocket transport (docs/wire-protocol.md#sockjs).

Usage: python_sockjs_tree_client.py http://127.0.0.1:PORT/kurento-tree

Written from the SockJS protocol's specification (sockjs/sockjs-protocol, sockjs-protocol-0.3.3.py) with the
standard library and the `websockets` package, nothing from this project, doing what sockjs-client does for
KurentoTree.js: `GET <base>/info`, then a session on `<base>/<server>/<session>/websocket`: waits for the open frame
`o`, sends two `createTree` requests in one frame (a JSON array of JSON-RPC texts), prints `REPLY <text>` for each
JSON-RPC message of the `a[...]` frames (heartbeats `h` skipped), then sends broken data and prints `CLOSE <frame>`
and `WSCLOSE <code>`. Prints `INFO <json>` first. Exits 2 when something does not arrive within 10 s.
"""
import asyncio
import json
import sys
import urllib.request
import uuid

import websockets


async def frames(ws):
    """Each SockJS frame of the session, heartbeats left out."""
    while True:
        frame = await asyncio.wait_for(ws.recv(), 10)
        if frame != "h":
            yield frame


async def main(base):
    with urllib.request.urlopen(base + "/info", timeout=10) as response:
        info = json.loads(response.read())
        print("INFO " + json.dumps(info, sort_keys=True), flush=True)

    url = "ws" + base[len("http"):] + "/%03d/%s/websocket" % (7, uuid.uuid4().hex)
    async with websockets.connect(url) as ws:
        stream = frames(ws)
        opened = await stream.__anext__()
        print("OPEN " + opened, flush=True)
        requests = [json.dumps({"jsonrpc": "2.0", "method": "createTree", "id": n}) for n in (1, 2)]
        await ws.send(json.dumps(requests))
        replies = 0
        while replies < 2:
            frame = await stream.__anext__()
            if not frame.startswith("a"):
                print("UNEXPECTED " + frame, flush=True)
                return 1
            for message in json.loads(frame[1:]):
                print("REPLY " + message, flush=True)
                replies += 1
        await ws.send('["broken')
        print("CLOSE " + await stream.__anext__(), flush=True)
        try:
            await asyncio.wait_for(ws.recv(), 10)
        except websockets.ConnectionClosed as closed:
            print("WSCLOSE %d" % (closed.rcvd.code if closed.rcvd else 1006), flush=True)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main(sys.argv[1])))
    except asyncio.TimeoutError:
        print("TIMEOUT", flush=True)
        sys.exit(2)
