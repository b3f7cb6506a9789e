#!/usr/bin/env python3
"""The "what a Python user picks" server of `make bench`: a JSON-RPC 2.0 `echo` over the `websockets`
package (asyncio). Every text message is parsed with `json.loads` and answered with its params as the result.
Prints its URL as the first stdout line; serves until SIGTERM or SIGINT."""
import asyncio
import json
import signal

import websockets


async def handle(ws):
    async for text in ws:
        request = json.loads(text)
        if "id" in request:
            await ws.send(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": request.get("params")}))


async def main():
    stop = asyncio.get_running_loop().create_future()
    for number in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(number, stop.set_result, None)
    async with websockets.serve(handle, "127.0.0.1", 0, compression=None) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        print(f"ws://127.0.0.1:{port}/", flush=True)
        await stop


if __name__ == "__main__":
    asyncio.run(main())
