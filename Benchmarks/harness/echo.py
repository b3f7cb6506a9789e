"""The echo pairs (table rows 1 and 2): a server process and a client process on 127.0.0.1, the client keeping 32
messages in flight for `seconds`, then making sequential round trips for `seconds / 2`."""
import statistics
import subprocess

from .processes import C_CLIENT, C_SERVER, HERE, KBENCH, PINNED, PY, Server, run_json

SERVERS = {
    "c": [C_SERVER],
    "raw": [KBENCH, "raw-server"],
    "rpc": [KBENCH, "rpc-server"],
    "nio": [KBENCH, "nio-server"],
    "python": [PY, str(HERE / "Python" / "echo_server.py")],
}
CLIENTS = {
    "c-raw": lambda url, s: [C_CLIENT, url, "raw", s],
    "c-rpc": lambda url, s: [C_CLIENT, url, "rpc", s],
    "raw": lambda url, s: [KBENCH, "raw-client", url, s],
    "rpc": lambda url, s: [KBENCH, "rpc-client", url, s],
    "rpc-loop": lambda url, s: [KBENCH, "rpc-loop-client", url, s],
    # The NIO client of every ratio: loop-driven (the channel handler writes each next request, one flush per read
    # burst). "nio-async": the async-caller NIO client (callers in tasks, as ours), an extra row only.
    "nio": lambda url, s: [KBENCH, "nio-client", url, s],
    "nio-async": lambda url, s: [KBENCH, "nio-async-client", url, s],
    "python": lambda url, s: [PY, str(HERE / "Python" / "echo_client.py"), url, s],
}
# key, table row, label, server, client
PAIRS = [
    ("c_raw", "1", "C lws raw echo (C client, C server)", "c", "c-raw"),
    ("c_rpc", "1", "C lws JSON-RPC echo (C client, C server)", "c", "c-rpc"),
    ("our_raw", "1", "our transport raw echo (our client, our server)", "raw", "raw"),
    ("python_rpc", "1", "Python websockets JSON-RPC echo", "python", "python"),
    ("nio_rpc", "1", "SwiftNIO JSON-RPC echo (NIO loop-driven client, NIO server)", "nio", "nio"),
    ("our_rpc", "2", "our JSON-RPC: our client, our example server", "rpc", "rpc"),
    ("our_rpc_loop", "2", "our JSON-RPC, callers on the loop's executor", "rpc", "rpc-loop"),
    ("our_client_c_server", "2", "our JSON-RPC client, C server (client cost)", "c", "rpc"),
    ("c_client_our_server", "2", "C client, our JSON-RPC server (server cost)", "rpc", "c-rpc"),
    ("nio_client_c_server", "2", "NIO loop-driven client, C server (NIO client cost)", "c", "nio"),
    ("nio_async_client_c_server", "2", "NIO async-caller client, C server (extra row, in no ratio but its own)", "c",
     "nio-async"),
    ("c_client_nio_server", "2", "C client, NIO server (NIO server cost)", "nio", "c-rpc"),
    ("nio_client_our_server", "2", "NIO loop-driven client, our JSON-RPC server", "rpc", "nio"),
    ("our_client_nio_server", "2", "our JSON-RPC client, NIO server", "nio", "rpc"),
]
FIELDS = ("msgs_per_s", "rtt_p50_us", "rtt_p99_us")


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
            for key, _row, _label, server_kind, client_kind in PAIRS:
                runs[mode][key].append(echo_pair(server_kind, client_kind, seconds, mode == "pinned"))
    results = {}
    for mode, pairs in runs.items():
        results[mode] = {}
        for key, attempts in pairs.items():
            good = [run for run in attempts if "error" not in run]
            if not good:
                results[mode][key] = attempts[-1]
                continue
            results[mode][key] = {field: statistics.median(run[field] for run in good) for field in FIELDS}
            results[mode][key]["runs"] = attempts
    return results


def fmt_echo(result):
    if "error" in result:
        return "failed"
    return f"{result['msgs_per_s']:,.0f} msg/s; RTT p50 {result['rtt_p50_us']:.1f} / p99 {result['rtt_p99_us']:.1f} µs"
