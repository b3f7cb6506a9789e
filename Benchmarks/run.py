#!/usr/bin/env python3
"""`make bench` (issue 9): runs every benchmark process, prints ONE table, writes the same figures as JSON.

Usage: run.py [--clients N] [--seconds S] [--repeats R] [--json PATH]
  --clients  room-load clients (default $BENCH_CLIENTS or 200; the issue's target uses 1000)
  --seconds  pipelined phase of each echo pair (default $BENCH_SECONDS or 1; the sequential phase takes half)
  --repeats  runs of each echo pair, pinned and unpinned interleaved; the table shows medians (default 3)
  --json     where the figures go (default Benchmarks/results/latest.json)

Every server binds 127.0.0.1 on an ephemeral port and runs as its own process, separate from its client. The echo
pairs run twice: both processes pinned to CPU 0 (`taskset -c 0`, the issue's targets) and unpinned. The room load,
the idle measurement and the SDP codec run unpinned. RLIMIT_NOFILE is raised here (children inherit it) and again
inside kbench. Every child has a time limit, so the whole run is bounded.
"""
import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "scripts"))
from idle_cpu import cpu_seconds  # noqa: E402  (the helper of `make idle-cpu`)

KBENCH = str(HERE / ".build" / "release" / "kbench")
SDP = str(HERE / ".build" / "release" / "SDPThroughput")
C_SERVER = str(HERE / ".build-c" / "echo_server")
C_CLIENT = str(HERE / ".build-c" / "echo_client")
PY = sys.executable
PINNED = ["taskset", "-c", "0"]

SERVERS = {
    "c": [C_SERVER],
    "raw": [KBENCH, "raw-server"],
    "rpc": [KBENCH, "rpc-server"],
    "python": [PY, str(HERE / "Python" / "echo_server.py")],
}
CLIENTS = {
    "c-raw": lambda url, s: [C_CLIENT, url, "raw", s],
    "c-rpc": lambda url, s: [C_CLIENT, url, "rpc", s],
    "raw": lambda url, s: [KBENCH, "raw-client", url, s],
    "rpc": lambda url, s: [KBENCH, "rpc-client", url, s],
    "python": lambda url, s: [PY, str(HERE / "Python" / "echo_client.py"), url, s],
}
# key, label, server, client
PAIRS = [
    ("c_raw", "C lws raw echo (C client, C server)", "c", "c-raw"),
    ("c_rpc", "C lws JSON-RPC echo (C client, C server)", "c", "c-rpc"),
    ("our_raw", "our transport raw echo (our client, our server)", "raw", "raw"),
    ("python_rpc", "Python websockets JSON-RPC echo", "python", "python"),
    ("our_rpc", "our JSON-RPC: our client, our example server", "rpc", "rpc"),
    ("our_client_c_server", "our JSON-RPC client, C server (client cost)", "c", "rpc"),
    ("c_client_our_server", "C client, our JSON-RPC server (server cost)", "rpc", "c-rpc"),
]


def raise_open_file_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, 65536) if hard != resource.RLIM_INFINITY else 65536
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


class Server:
    """A server process; the first stdout line is its URL."""

    def __init__(self, command, prefix=()):
        self.process = subprocess.Popen(list(prefix) + command, stdout=subprocess.PIPE, text=True)
        self.url = self.process.stdout.readline().strip()
        if not self.url.startswith("ws://"):
            self.stop()
            raise RuntimeError(f"{command[0]} printed no URL")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def run_json(command, limit, prefix=()):
    done = subprocess.run(list(prefix) + command, capture_output=True, text=True, timeout=limit)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"{' '.join(command[:2])} failed ({done.returncode}): {done.stderr.strip()[-300:]}")
    return json.loads(lines[-1])


def echo_pair(server_kind, client_kind, seconds, pinned):
    prefix = PINNED if pinned else ()
    server = Server(SERVERS[server_kind], prefix)
    try:
        return run_json(CLIENTS[client_kind](server.url, str(seconds)), 10 * seconds + 30, prefix)
    except (RuntimeError, subprocess.TimeoutExpired) as error:
        return {"error": str(error)}
    finally:
        server.stop()


def echo_rounds(seconds, repeats):
    """Every pair `repeats` times, pinned and unpinned interleaved (so a burst of load from elsewhere hits all rows
    alike); each figure is the median over the runs, which are kept under "runs"."""
    runs = {mode: {key: [] for key, *_ in PAIRS} for mode in ("pinned", "unpinned")}
    for _ in range(repeats):
        for mode in runs:
            for key, _label, server_kind, client_kind in PAIRS:
                runs[mode][key].append(echo_pair(server_kind, client_kind, seconds, mode == "pinned"))
    results = {}
    for mode, pairs in runs.items():
        results[mode] = {}
        for key, attempts in pairs.items():
            good = [run for run in attempts if "error" not in run]
            if not good:
                results[mode][key] = attempts[-1]
                continue
            results[mode][key] = {field: statistics.median(run[field] for run in good)
                                  for field in ("msgs_per_s", "rtt_p50_us", "rtt_p99_us")}
            results[mode][key]["runs"] = attempts
    return results


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


def fmt_echo(result):
    if "error" in result:
        return "failed"
    return f"{result['msgs_per_s']:,.0f} msg/s; RTT p50 {result['rtt_p50_us']:.1f} / p99 {result['rtt_p99_us']:.1f} µs"


def derive(echo):
    def get(key, field):
        value = echo.get(key, {}).get(field)
        return float(value) if value else None

    def ratio(a, b):
        return round(a / b, 2) if a and b else None

    out = {}
    raw_rate, rpc_rate = get("our_raw", "msgs_per_s"), get("our_rpc", "msgs_per_s")
    raw_p50, rpc_p50 = get("our_raw", "rtt_p50_us"), get("our_rpc", "rtt_p50_us")
    out["added_us_sequential_p50"] = round(rpc_p50 - raw_p50, 1) if raw_p50 and rpc_p50 else None
    out["added_us_pipelined"] = round(1e6 / rpc_rate - 1e6 / raw_rate, 1) if raw_rate and rpc_rate else None
    out["rpc_vs_c_rpc"] = ratio(rpc_rate, get("c_rpc", "msgs_per_s"))
    out["rpc_vs_python"] = ratio(rpc_rate, get("python_rpc", "msgs_per_s"))
    out["raw_vs_c_raw"] = ratio(raw_rate, get("c_raw", "msgs_per_s"))
    out["our_client_vs_c_client"] = ratio(get("our_client_c_server", "msgs_per_s"), get("c_rpc", "msgs_per_s"))
    out["our_server_vs_c_server"] = ratio(get("c_client_our_server", "msgs_per_s"), get("c_rpc", "msgs_per_s"))
    return out


def targets(derived, sdp, load, idle_result, clients):
    rows = []

    def add(name, value, met, pinned=True):
        rows.append({"target": name, "value": value, "met": met, "pinned": pinned})

    added = derived.get("added_us_sequential_p50")
    add("JSON-RPC adds <= 15 µs per call over raw echo (pinned, sequential p50)",
        f"{added} µs" if added is not None else "n/a", added is not None and added <= 15)
    r = derived.get("rpc_vs_c_rpc")
    add("pipelined JSON-RPC >= 0.7x C JSON-RPC echo (pinned)", f"{r}x" if r else "n/a", bool(r and r >= 0.7))
    r = derived.get("rpc_vs_python")
    add("pipelined JSON-RPC >= 3x Python websockets (pinned)", f"{r}x" if r else "n/a", bool(r and r >= 3))
    parse = sdp[0]["parse_mb_s"] if sdp else None
    add("SDP parse >= 50 MB/s", f"{parse} MB/s" if parse else "n/a", bool(parse and parse >= 50), False)
    storm = load.get("join_storm_s")
    add(f"1,000 clients join storm < 5 s on 2 cores (ran {clients} clients)",
        f"{storm} s" if storm is not None else "n/a", bool(storm is not None and clients >= 1000 and storm < 5), False)
    share = max(idle_result.get("server_share", 1), idle_result.get("client_share", 1))
    add("idle CPU about 0 (<= 1 % of a core)", f"{share:.2%}", share <= 0.01, False)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=int(os.environ.get("BENCH_CLIENTS", "200")))
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("BENCH_SECONDS", "1")))
    parser.add_argument("--repeats", type=int, default=int(os.environ.get("BENCH_REPEATS", "3")))
    parser.add_argument("--idle-seconds", type=float, default=float(os.environ.get("BENCH_IDLE_SECONDS", "10")))
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
    idle_result = idle(args.idle_seconds)
    sdp = run_json([SDP, "--json"], 120)["sdp"]
    derived = {mode: derive(echo[mode]) for mode in echo}
    goals = targets(derived["pinned"], sdp, load, idle_result, args.clients)
    machine["loadavg_at_end"] = os.getloadavg()[0]

    table = [("#", "Measurement", "Pinned (taskset -c 0)", "Unpinned")]
    for key, label, _s, _c in PAIRS:
        row = "1" if key in ("c_raw", "c_rpc", "our_raw", "python_rpc") else "2"
        table.append((row, label, fmt_echo(echo["pinned"][key]), fmt_echo(echo["unpinned"][key])))
    names = {
        "added_us_sequential_p50": "JSON-RPC µs added per call over our raw echo (sequential p50)",
        "added_us_pipelined": "JSON-RPC µs added per call over our raw echo (pipelined, 1/rate)",
        "rpc_vs_c_rpc": "our JSON-RPC pipelined / C JSON-RPC echo",
        "rpc_vs_python": "our JSON-RPC pipelined / Python websockets",
        "raw_vs_c_raw": "our raw echo / C raw echo",
        "our_client_vs_c_client": "our client on the C server / C client (client cost)",
        "our_server_vs_c_server": "C client on our server / C server (server cost)",
    }
    for key, name in names.items():
        table.append(("2", name, str(derived["pinned"][key]), str(derived["unpinned"][key])))
    if "error" in load:
        table.append(("3", f"room server, {args.clients} clients", "—", "failed: " + load["error"][:80]))
    else:
        n = load["clients"]
        table.append(("3", f"join storm: {n} clients into 20 rooms", "—", f"{load['join_storm_s']:.3f} s"))
        table.append(("3", f"publish storm: {n} publishVideo", "—", f"{load['publish_s']:.3f} s"))
        table.append(("3", f"chat fan-out, send to last receipt ({load['chat_messages']} messages)", "—",
                      f"p50 {load['chat_fanout_p50_us'] / 1000:.2f} / p99 {load['chat_fanout_p99_us'] / 1000:.2f} ms"))
        table.append(("3", "server RSS per connection", "—", f"{load['server_rss_per_connection_kib']:.1f} KiB "
                      f"({load['server_rss_before_kib'] // 1024} → {load['server_rss_after_join_kib'] // 1024} MiB)"))
        table.append(("3", "server CPU for the whole load run", "—",
                      f"{load['server_cpu_s']:.2f} s in {load['elapsed_s']:.2f} s"))
    for row in sdp:
        name = "Chrome-shaped offer" if row["name"] == "offer" else f"sdp-transform corpus, {row['descriptions']} files"
        table.append(("4", f"SDP {name} ({row['bytes']:,} B avg)", "—",
                      f"parse {row['parse_mb_s']} MB/s ({row['parse_us']} µs), {row['parse_allocations']:g} allocs; "
                      f"serialize {row['serialize_mb_s']} MB/s, {row['serialize_allocations']:g} allocs"))
    if "error" in idle_result:
        table.append(("5", "idle", "—", "failed: " + idle_result["error"]))
    else:
        table.append(("5", f"idle {idle_result['seconds']:.0f} s, 20 connections: server / client CPU", "—",
                      f"{idle_result['server_cpu_s']:.3f} s / {idle_result['client_cpu_s']:.3f} s "
                      f"({idle_result['server_share']:.2%} / {idle_result['client_share']:.2%} of a core)"))
    for goal in goals:
        verdict = f"{goal['value']}: {'met' if goal['met'] else 'NOT met'}"
        table.append(("target", goal["target"], verdict if goal["pinned"] else "—",
                      "—" if goal["pinned"] else verdict))

    widths = [max(len(row[i]) for row in table) for i in range(4)]
    lines = ["| " + " | ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)) + " |" for row in table]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    print(f"nproc {machine['nproc']}, {machine.get('cpu', '?')}; load average {machine['loadavg_at_start']:.2f} "
          f"at start; echo pairs {args.seconds:g} s pipelined (32 in flight) + {args.seconds / 2:g} s sequential, "
          f"256-byte text frames, median of {args.repeats} interleaved runs")
    print("\n".join(lines))
    results = {"machine": machine, "seconds": args.seconds, "repeats": args.repeats, "clients": args.clients,
               "echo": echo,
               "derived": derived, "room_load": load, "sdp": sdp, "idle": idle_result, "targets": goals,
               "elapsed_s": round(time.monotonic() - started, 1)}
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(results, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"figures written to {args.json} ({results['elapsed_s']} s)")


if __name__ == "__main__":
    main()
