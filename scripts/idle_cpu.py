#!/usr/bin/env python3
"""`make idle-cpu`: an idle server with idle clients must not poll (docs/libwebsockets.md#event-backend).

Starts the built jsonrpc-echo-server on an ephemeral port, opens 20 WebSocket connections with Python
`websockets`, makes one call on each, then leaves everything idle for SECONDS and reads the server's CPU time from
/proc. Fails (exit 1) if the server used more than 2 % of one core while idle.
"""
import asyncio
import os
import subprocess
import sys

import websockets

SECONDS = float(os.environ.get("IDLE_SECONDS", "5"))
LIMIT = 0.02


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def main(binary: str) -> int:
    server = subprocess.Popen([binary, "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().strip()
        clients = [await websockets.connect(url) for _ in range(20)]
        for i, ws in enumerate(clients):
            await ws.send('{"jsonrpc":"2.0","method":"echo","params":[%d],"id":%d}' % (i, i))
            await ws.recv()
        before = cpu_seconds(server.pid)
        await asyncio.sleep(SECONDS)  # the measurement itself: nothing happens on purpose
        used = cpu_seconds(server.pid) - before
        share = used / SECONDS
        print(f"idle-cpu: server used {used:.3f} s CPU in {SECONDS:.0f} s idle with 20 connections ({share:.2%} of a core)")
        for ws in clients:
            await ws.close()
        return 0 if share <= LIMIT else 1
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1])))
