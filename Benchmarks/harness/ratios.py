"""Figures derived from the echo medians, and the performance targets with their verdicts."""


def derive(echo):
    """Ratios and differences of one mode's (pinned or unpinned) medians; None where a pair failed."""
    def get(key, field):
        value = echo.get(key, {}).get(field)
        return float(value) if value else None

    def ratio(a, b):
        return round(a / b, 2) if a and b else None

    def rate(key):
        return get(key, "msgs_per_s")

    out = {}
    raw_p50, rpc_p50 = get("our_raw", "rtt_p50_us"), get("our_rpc", "rtt_p50_us")
    out["added_us_sequential_p50"] = round(rpc_p50 - raw_p50, 1) if raw_p50 and rpc_p50 else None
    out["added_us_pipelined"] = (round(1e6 / rate("our_rpc") - 1e6 / rate("our_raw"), 1)
                                 if rate("our_raw") and rate("our_rpc") else None)
    out["rpc_vs_c_rpc"] = ratio(rate("our_rpc"), rate("c_rpc"))
    out["rpc_loop_vs_c_rpc"] = ratio(rate("our_rpc_loop"), rate("c_rpc"))
    out["rpc_vs_python"] = ratio(rate("our_rpc"), rate("python_rpc"))
    out["rpc_vs_nio"] = ratio(rate("our_rpc"), rate("nio_rpc"))
    out["raw_vs_c_raw"] = ratio(rate("our_raw"), rate("c_raw"))
    out["our_client_vs_c_client"] = ratio(rate("our_client_c_server"), rate("c_rpc"))
    out["our_server_vs_c_server"] = ratio(rate("c_client_our_server"), rate("c_rpc"))
    out["our_client_vs_nio_client"] = ratio(rate("our_client_c_server"), rate("nio_client_c_server"))
    out["our_server_vs_nio_server"] = ratio(rate("c_client_our_server"), rate("c_client_nio_server"))
    out["our_client_vs_nio_async_client"] = ratio(rate("our_client_c_server"), rate("nio_async_client_c_server"))
    return out


# Rows of the table under 2: key, what it compares.
DERIVED_NAMES = {
    "added_us_sequential_p50": "JSON-RPC µs added per call over our raw echo (sequential p50)",
    "added_us_pipelined": "JSON-RPC µs added per call over our raw echo (pipelined, 1/rate)",
    "rpc_vs_c_rpc": "our JSON-RPC pipelined / C JSON-RPC echo",
    "rpc_loop_vs_c_rpc": "our JSON-RPC, callers on the loop, pipelined / C JSON-RPC echo",
    "rpc_vs_python": "our JSON-RPC pipelined / Python websockets",
    "rpc_vs_nio": "our JSON-RPC pipelined / SwiftNIO JSON-RPC (NIO loop-driven client → NIO)",
    "raw_vs_c_raw": "our raw echo / C raw echo",
    "our_client_vs_c_client": "our client on the C server / C client (client cost)",
    "our_server_vs_c_server": "C client on our server / C server (server cost)",
    "our_client_vs_nio_client": "our client on the C server / NIO loop-driven client on the C server",
    "our_server_vs_nio_server": "C client on our server / C client on the NIO server",
    "our_client_vs_nio_async_client": "our client on the C server / NIO async-caller client on the C server (extra)",
}


# Server CPU of the 1,000-client room run in the committed results before connections were served on the service
# thread (Benchmarks/results/2026-11-25-morning.md, the table of that run): the baseline of the "at least halved" target.
ROOM_CPU_BEFORE = 1.61


def at_least(value, goal, unit="x"):
    return (f"{value}{unit}" if value is not None else "n/a"), value is not None and value >= goal


def at_most(value, goal, unit):
    return (f"{value}{unit}" if value is not None else "n/a"), value is not None and value <= goal


def targets(derived, echo, sdp, load, idle_result, clients, counts=None):
    """Each target once, with its verdict for the pinned and/or the unpinned run (None: not judged there)."""
    rows = []

    def add(name, pinned=None, unpinned=None):
        rows.append({"target": name, "pinned": pinned, "unpinned": unpinned})

    def both(check):
        return {"pinned": check("pinned"), "unpinned": check("unpinned")}

    def verdict(pair):
        return {"value": pair[0], "met": pair[1]}

    add("JSON-RPC adds <= 15 µs per call over raw echo (sequential p50)",
        pinned=verdict(at_most(derived["pinned"].get("added_us_sequential_p50"), 15, " µs")))
    add("pipelined JSON-RPC >= 3x Python websockets",
        pinned=verdict(at_least(derived["pinned"].get("rpc_vs_python"), 3)))
    # The comparison with SwiftNIO, judged pinned and shown unpinned as well.
    add("our pair pipelined >= 1.2x NIO → NIO pipelined (NIO loop-driven client)",
        **both(lambda mode: verdict(at_least(derived[mode].get("rpc_vs_nio"), 1.2))))
    add("our pair pipelined >= 0.75x C JSON-RPC echo (C → C)",
        **both(lambda mode: verdict(at_least(derived[mode].get("rpc_vs_c_rpc"), 0.75))))
    add("our pair sequential p50 <= 35 µs",
        **both(lambda mode: verdict(at_most(echo[mode].get("our_rpc", {}).get("rtt_p50_us"), 35, " µs"))))
    add("our client (default caller) → C server: sequential p50 <= 30 µs",
        **both(lambda mode: verdict(at_most(echo[mode].get("our_client_c_server", {}).get("rtt_p50_us"), 30, " µs"))))
    add("client cost: our client → C server >= 1.0x NIO loop-driven client → C server",
        **both(lambda mode: verdict(at_least(derived[mode].get("our_client_vs_nio_client"), 1.0))))
    add("server cost: C client → our server >= 1.2x C client → NIO server",
        **both(lambda mode: verdict(at_least(derived[mode].get("our_server_vs_nio_server"), 1.2))))
    parse = sdp[0]["parse_mb_s"] if sdp else None
    add("SDP parse >= 50 MB/s", unpinned=verdict(at_least(parse, 50, " MB/s")))
    # Room targets hold for 1,000 clients: a run with fewer shows its figures but meets none of them.
    enough = clients >= 1000
    storm = load.get("join_storm_s")
    value, met = at_most(storm, 5, " s")
    add(f"1,000 clients join storm < 5 s on 2 cores (ran {clients} clients)",
        unpinned={"value": value, "met": met and storm < 5 and enough})
    value, met = at_most(storm, 2, " s")
    add(f"1,000 clients in 20 rooms: join storm <= 2 s (ran {clients} clients)",
        unpinned={"value": value, "met": met and enough})
    p99 = load.get("chat_fanout_p99_us")
    value, met = at_most(round(p99 / 1000, 2) if p99 is not None else None, 10, " ms")
    add(f"1,000 clients in 20 rooms: chat fan-out p99 <= 10 ms, 20 rooms at once (ran {clients} clients)",
        unpinned={"value": value, "met": met and enough})
    p99 = load.get("solo_fanout_p99_us")
    value, met = at_most(round(p99 / 1000, 2) if p99 is not None else None, 10, " ms")
    add(f"1,000 clients in 20 rooms: chat fan-out p99 <= 10 ms, one room at a time (ran {clients} clients)",
        unpinned={"value": value, "met": met and enough})
    value, met = at_most(load.get("server_rss_per_connection_kib"), 40, " KiB")
    add(f"1,000 clients in 20 rooms: server RSS <= 40 KiB per connection (ran {clients} clients)",
        unpinned={"value": value, "met": met and enough})
    cpu = load.get("server_cpu_s")
    value, met = at_most(cpu, ROOM_CPU_BEFORE / 2, " s")
    add(f"room run: server CPU <= half of the {ROOM_CPU_BEFORE} s before the service-thread work (ran {clients} clients)",
        unpinned={"value": value, "met": met and enough})
    ours = (counts or {}).get("ours", {})
    for side in ("client", "server"):
        value = ours.get(side)
        add(f"instructions per round trip, our {side} <= 30 k",
            unpinned={"value": f"{value / 1000:.1f} k" if value is not None else "n/a",
                      "met": value is not None and value <= 30_000})
    share = max(idle_result.get("server_share", 1), idle_result.get("client_share", 1))
    add("idle CPU about 0 (<= 1 % of a core)", unpinned={"value": f"{share:.2%}", "met": share <= 0.01})
    return rows
