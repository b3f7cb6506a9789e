"""Instructions per JSON-RPC round trip (table row 6): a figure that the machine's load does not move.

Each pair's server and client run under `valgrind --tool=callgrind`, the client making `kbench ... --calls N`
sequential `echo` calls (after connecting and one warm-up call). The same pair runs once with N = 0; the client's
and the server's totals (all threads, user space only) minus those of the N = 0 run, divided by N, are the
instructions that one more round trip costs each side: start-up, connection and shutdown cancel out. Repeated
runs agreed within 0.3 % of the per-call figure when this was written (valgrind runs one thread at a time, so the
load of the machine moves only the timing-dependent paths, such as how often a wake-up finds work waiting).

What it took to make valgrind 3.19 work (both found while building this):
- kbench's `main` is synchronous (KBench.swift): with an async `main`, libdispatch's `dispatch_main` parks the
  exited main thread in `_dispatch_sig_thread`, and valgrind crashed there (SIGSEGV in the host, "the 'impossible'
  happened") whenever the next thread started; `--fair-sched=yes` did not help, and cachegrind crashed alike.
- valgrind runs a copy of kbench without DWARF (`objcopy --strip-debug`, symbols kept): its reader gives up on
  the Swift 6.3 binary's DWARF 5 ("Possibly corrupted debuginfo file ... Giving up").
"""
import shutil
import subprocess
import tempfile
from pathlib import Path

from .processes import HERE, KBENCH, Server, run_json

# "nio": the NIO client of the ratios, loop-driven; "nio_async": the async-caller NIO client, an extra row.
PAIRS = {"ours": ("rpc-server", "rpc-client"), "nio": ("nio-server", "nio-client"),
         "nio_async": ("nio-server", "nio-async-client")}
STRIPPED = HERE / ".build-callgrind" / "kbench"


def total_instructions(profile):
    """The `totals:` line of a callgrind profile (events: Ir)."""
    for line in Path(profile).read_text().splitlines():
        if line.startswith("totals:"):
            return int(line.split()[1])
    raise RuntimeError(f"no totals in {profile}")


def counted_run(valgrind, server_mode, client_mode, calls, folder):
    """Client and server instruction totals for one run with `calls` sequential calls."""
    def under_valgrind(name, *arguments):
        return [valgrind, "--tool=callgrind", f"--callgrind-out-file={folder}/{name}.out",
                f"--log-file={folder}/{name}.log", str(STRIPPED), *arguments]

    server = Server(under_valgrind("server", server_mode), grace=60)
    try:
        run_json(under_valgrind("client", client_mode, server.url, "--calls", str(calls)), 300)
    finally:
        status = server.stop()
    if status != 0:
        raise RuntimeError(f"{server_mode} under callgrind exited with {status}")
    return total_instructions(f"{folder}/client.out"), total_instructions(f"{folder}/server.out")


def per_round_trip(calls):
    """{"ours": {...}, "nio": {...}, "nio_async": {...}}: instructions per round trip, client and server, or {"error": ...}."""
    valgrind, objcopy = shutil.which("valgrind"), shutil.which("objcopy")
    if not valgrind or not objcopy:
        return {"error": "valgrind or objcopy not installed (apt-get install valgrind binutils)"}
    STRIPPED.parent.mkdir(exist_ok=True)
    subprocess.run([objcopy, "--strip-debug", KBENCH, str(STRIPPED)], check=True)
    results = {"calls": calls}
    with tempfile.TemporaryDirectory(prefix="kbench-callgrind-") as folder:
        for name, (server_mode, client_mode) in PAIRS.items():
            try:
                base = counted_run(valgrind, server_mode, client_mode, 0, folder)
                full = counted_run(valgrind, server_mode, client_mode, calls, folder)
            except (RuntimeError, OSError, subprocess.SubprocessError) as error:
                results[name] = {"error": str(error)[-300:]}
                continue
            client, server = ((after - before) / calls for before, after in zip(base, full))
            results[name] = {"client": round(client), "server": round(server), "total": round(client + server),
                             "client_without_calls": base[0], "server_without_calls": base[1]}
    return results
