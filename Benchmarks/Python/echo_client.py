#!/usr/bin/env python3
"""The Python `websockets` JSON-RPC client of `make bench`.

Usage: echo_client.py URL SECONDS. Keeps 32 `echo` requests (about 256 bytes: a 200-character string param) in
flight for SECONDS, reading each reply with `json.loads`, then makes sequential calls for SECONDS/2 (at most
20,000). Prints one JSON object like the other clients."""
import asyncio
import json
import math
import sys
import time

import websockets

WINDOW = 32
PAD = "x" * 200


def request(number):
    return json.dumps({"jsonrpc": "2.0", "method": "echo", "params": [PAD], "id": number}, separators=(",", ":"))


def percentile(values, p):
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(max(math.ceil(p / 100 * len(ordered)) - 1, 0), len(ordered) - 1)]


async def main(url, seconds):
    async with websockets.connect(url, compression=None, max_queue=None) as ws:
        number = 0
        start = time.perf_counter()
        deadline = start + seconds
        for _ in range(WINDOW):
            number += 1
            await ws.send(request(number))
        in_flight, received, last = WINDOW, 0, start
        while in_flight:
            reply = json.loads(await ws.recv())
            assert "result" in reply
            received += 1
            last = time.perf_counter()
            if last < deadline:
                number += 1
                await ws.send(request(number))
            else:
                in_flight -= 1
        rate = received / (last - start)
        samples = []
        end = time.perf_counter() + seconds / 2
        while time.perf_counter() < end and len(samples) < 20000:
            number += 1
            sent = time.perf_counter()
            await ws.send(request(number))
            json.loads(await ws.recv())
            samples.append((time.perf_counter() - sent) * 1e6)
    print(json.dumps({"msgs_per_s": round(rate), "rtt_p50_us": round(percentile(samples, 50), 1),
                      "rtt_p99_us": round(percentile(samples, 99), 1), "samples": len(samples)}, sort_keys=True))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2])))
