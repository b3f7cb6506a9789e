#!/usr/bin/env python3
"""`make bench`: runs every benchmark process, prints ONE table, writes the same figures as JSON.

Usage: run.py [--clients N] [--seconds S] [--repeats R] [--callgrind-calls N] [--json PATH]
  --clients          room-load clients (default $BENCH_CLIENTS or 200; the performance targets use 1000)
  --scale-clients    clients of the scale row (harness/scale.py: one room-server, 4 load processes, rooms of 100;
                     default $BENCH_SCALE_CLIENTS or 10000; 0 skips it)
  --seconds          pipelined phase of each echo pair (default $BENCH_SECONDS or 1; the sequential phase takes half)
  --repeats          runs of each echo pair, pinned and unpinned interleaved; the table shows medians (default 3)
  --callgrind-calls  sequential calls counted under callgrind (default $BENCH_CALLGRIND_CALLS or 1000; 0 skips)
  --json             where the figures go (default Benchmarks/results/latest.json)

Every server binds 127.0.0.1 on an ephemeral port and runs as its own process, separate from its client. The echo
pairs (harness/echo.py) run twice: both processes pinned to CPU 0 (`taskset -c 0`, as the targets are set) and
unpinned. The room load, the rooms through KMS (harness/kms.py: kms-double and room-server --kms, each in a process
of its own), the idle measurement, the SDP codec and the instruction counts (harness/instructions.py)
run unpinned. RLIMIT_NOFILE is raised here (children inherit it) and again inside kbench. Every child has a time
limit, so the whole run is bounded.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from harness.cluster import cluster_load, cluster_rows, cluster_targets
from harness.echo import PAIRS, echo_rounds, fmt_echo
from harness.instructions import per_round_trip
from harness.kms import kms_load, kms_rows
from harness.processes import HERE, KBENCH, SDP, Server, raise_open_file_limit, run_json
from harness.ratios import DERIVED_NAMES, derive, targets
from harness.scale import scale_load, scale_rows, scale_targets

sys.path.insert(0, str(HERE.parent / "scripts"))
from idle_cpu import cpu_seconds  # noqa: E402  (the helper of `make idle-cpu`)


def room_load(clients):
    server = Server([KBENCH, "room-server"])
    try:
        return run_json([KBENCH, "room-load", server.url, str(server.process.pid), str(clients)], 120)
    except (RuntimeError, subprocess.TimeoutExpired) as error:
        return {"error": str(error)}
    finally:
        server.stop()


def idle(seconds):
    """One server with one idle client process holding 20 connections (one call each), over `seconds`."""
    server = Server([KBENCH, "rpc-server"])
    client = subprocess.Popen([KBENCH, "idle-client", server.url, "20"], stdout=subprocess.PIPE, text=True)
    try:
        if client.stdout.readline().strip() != "ready":
            return {"error": "idle client did not connect"}
        server_before, client_before = cpu_seconds(server.process.pid), cpu_seconds(client.pid)
        time.sleep(seconds)  # the measurement itself: nothing happens on purpose
        server_used = cpu_seconds(server.process.pid) - server_before
        client_used = cpu_seconds(client.pid) - client_before
        return {"seconds": seconds, "connections": 20, "server_cpu_s": round(server_used, 3),
                "client_cpu_s": round(client_used, 3), "server_share": server_used / seconds,
                "client_share": client_used / seconds}
    finally:
        client.terminate()
        client.wait()
        server.stop()


def room_rows(load, clients):
    if "error" in load:
        return [("3", f"room server, {clients} clients", "—", "failed: " + load["error"][:80])]
    n = load["clients"]
    return [
        ("3", f"join storm: {n} clients into 20 rooms", "—", f"{load['join_storm_s']:.3f} s"),
        ("3", f"publish storm: {n} publishVideo", "—", f"{load['publish_s']:.3f} s"),
        ("3", f"chat fan-out, 20 rooms at once, send to last receipt ({load['chat_messages']} messages)", "—",
         f"p50 {load['chat_fanout_p50_us'] / 1000:.2f} / p99 {load['chat_fanout_p99_us'] / 1000:.2f} ms"),
        ("3", f"chat fan-out, one room at a time ({load['solo_messages']} messages to a room of {n // 20})", "—",
         f"p50 {load['solo_fanout_p50_us'] / 1000:.2f} / p99 {load['solo_fanout_p99_us'] / 1000:.2f} ms"),
        ("3", "server RSS per connection", "—", f"{load['server_rss_per_connection_kib']:.1f} KiB "
         f"({load['server_rss_before_kib'] // 1024} → {load['server_rss_after_join_kib'] // 1024} MiB)"),
        ("3", "server CPU for the whole load run", "—", f"{load['server_cpu_s']:.2f} s in {load['elapsed_s']:.2f} s"),
    ]


def sdp_rows(sdp):
    rows = []
    for row in sdp:
        name = "Chrome-shaped offer" if row["name"] == "offer" else f"sdp-transform corpus, {row['descriptions']} files"
        rows.append(("4", f"SDP {name} ({row['bytes']:,} B avg)", "—",
                     f"parse {row['parse_mb_s']} MB/s ({row['parse_us']} µs), {row['parse_allocations']:g} allocs; "
                     f"serialize {row['serialize_mb_s']} MB/s, {row['serialize_allocations']:g} allocs"))
    return rows


def idle_rows(idle_result):
    if "error" in idle_result:
        return [("5", "idle", "—", "failed: " + idle_result["error"])]
    return [("5", f"idle {idle_result['seconds']:.0f} s, 20 connections: server / client CPU", "—",
             f"{idle_result['server_cpu_s']:.3f} s / {idle_result['client_cpu_s']:.3f} s "
             f"({idle_result['server_share']:.2%} / {idle_result['client_share']:.2%} of a core)")]


def instruction_rows(counts):
    if "error" in counts:
        return [("6", "instructions per round trip (callgrind)", "—", "skipped: " + counts["error"])]
    rows = []
    for key, name in (("ours", "ours (our client + our server)"),
                      ("nio", "NIO (NIO loop-driven client + NIO server)"),
                      ("nio_async", "NIO async-caller client + NIO server (extra row)")):
        result = counts.get(key, {"error": "not counted"})
        value = ("failed: " + result["error"][:80] if "error" in result else
                 f"{result['total'] / 1000:.1f} k (client {result['client'] / 1000:.1f} k + "
                 f"server {result['server'] / 1000:.1f} k)")
        rows.append(("6", f"instructions per round trip, {name}", "—", value))
    if "total" in counts["ours"] and "total" in counts["nio"]:
        rows.append(("6", "instructions per round trip: ours / NIO", "—",
                     f"{counts['ours']['total'] / counts['nio']['total']:.2f}"))
    return rows


def target_rows(goals):
    def cell(verdict):
        return f"{verdict['value']}: {'met' if verdict['met'] else 'NOT met'}" if verdict else "—"
    return [("target", goal["target"], cell(goal["pinned"]), cell(goal["unpinned"])) for goal in goals]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=int(os.environ.get("BENCH_CLIENTS", "200")))
    parser.add_argument("--scale-clients", type=int, default=int(os.environ.get("BENCH_SCALE_CLIENTS", "10000")))
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("BENCH_SECONDS", "1")))
    parser.add_argument("--repeats", type=int, default=int(os.environ.get("BENCH_REPEATS", "3")))
    parser.add_argument("--idle-seconds", type=float, default=float(os.environ.get("BENCH_IDLE_SECONDS", "10")))
    parser.add_argument("--callgrind-calls", type=int, default=int(os.environ.get("BENCH_CALLGRIND_CALLS", "1000")))
    parser.add_argument("--json", default=str(HERE / "results" / "latest.json"))
    args = parser.parse_args()
    raise_open_file_limit()
    started = time.monotonic()

    machine = {"nproc": os.cpu_count(), "machine": platform.machine(), "kernel": platform.release(),
               "loadavg_at_start": os.getloadavg()[0]}
    try:
        with open("/proc/cpuinfo") as f:
            machine["cpu"] = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    echo = echo_rounds(args.seconds, args.repeats)
    load = room_load(args.clients)
    kms = kms_load(args.clients)
    cluster = cluster_load()
    scale = scale_load(args.scale_clients) if args.scale_clients > 0 else {"error": "--scale-clients 0"}
    idle_result = idle(args.idle_seconds)
    sdp = run_json([SDP, "--json"], 120)["sdp"]
    counts = per_round_trip(args.callgrind_calls) if args.callgrind_calls > 0 else {"error": "--callgrind-calls 0"}
    derived = {mode: derive(echo[mode]) for mode in echo}
    goals = targets(derived, echo, sdp, load, idle_result, args.clients, counts)
    goals += [{"target": name, "pinned": None, "unpinned": verdict} for name, verdict in cluster_targets(cluster)]
    if args.scale_clients > 0:
        goals += [{"target": name, "pinned": None, "unpinned": verdict} for name, verdict in scale_targets(scale)]
    machine["loadavg_at_end"] = os.getloadavg()[0]

    table = [("#", "Measurement", "Pinned (taskset -c 0)", "Unpinned")]
    table += [(row, label, fmt_echo(echo["pinned"][key]), fmt_echo(echo["unpinned"][key]))
              for key, row, label, _s, _c in PAIRS]
    table += [("2", name, str(derived["pinned"][key]), str(derived["unpinned"][key]))
              for key, name in DERIVED_NAMES.items()]
    table += room_rows(load, args.clients) + sdp_rows(sdp) + idle_rows(idle_result) + instruction_rows(counts)
    table += cluster_rows(cluster)
    table += kms_rows(kms)
    table += scale_rows(scale)
    table += target_rows(goals)

    widths = [max(len(row[i]) for row in table) for i in range(4)]
    lines = ["| " + " | ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)) + " |" for row in table]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    print(f"nproc {machine['nproc']}, {machine.get('cpu', '?')}; load average {machine['loadavg_at_start']:.2f} "
          f"at start; echo pairs {args.seconds:g} s pipelined (32 in flight) + {args.seconds / 2:g} s sequential, "
          f"256-byte text frames, median of {args.repeats} interleaved runs; instructions: callgrind, "
          f"{args.callgrind_calls} sequential calls minus 0")
    print("\n".join(lines))
    results = {"machine": machine, "seconds": args.seconds, "repeats": args.repeats, "clients": args.clients,
               "echo": echo, "derived": derived, "room_load": load, "kms_load": kms, "cluster": cluster, "scale": scale, "sdp": sdp, "idle": idle_result,
               "instructions_per_round_trip": counts, "targets": goals,
               "elapsed_s": round(time.monotonic() - started, 1)}
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(results, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"figures written to {args.json} ({results['elapsed_s']} s)")


if __name__ == "__main__":
    main()
