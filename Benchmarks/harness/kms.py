"""Row 8: rooms whose media is in Kurento Media Server. `kms-double` (the KMS test double) in a process of its own,
`room-server --kms` on it in another, and `kbench kms-load` with the clients in a third: 10 clients a room, 2
publishers a room and every other member subscribed to each. kbench asks for the double's counters at each phase's
edges by writing `stats` on its stdout; this module relays the line to the double's stdin and the double's JSON
answer to kbench's stdin, so the KMS messages per join, publish and subscription are the double's own counts."""
import json
import subprocess
import threading

from .processes import KBENCH, KMS_DOUBLE, ROOM_SERVER, Server


def kms_load(clients, limit=600):
    """The figures of `kbench kms-load`, or {"error": …}. The whole run is bounded by `limit` seconds."""
    try:
        double = Server([KMS_DOUBLE, "--port", "0"], stdin=subprocess.PIPE)
    except (OSError, RuntimeError) as error:
        return {"error": f"kms-double: {error}"}
    server = None
    try:
        # The storm queues every subscription on room-server's one KMS connection and the double runs one request
        # at a time: at 1,000 clients the last of 1,800 subscriptions waits about 10 s, the default --kms-timeout.
        # 30 s measures that wait instead of failing on it (failures, if any, still get a row). Every client dials
        # from 127.0.0.1, so the per-IP connection cap (100 by default) is off.
        server = Server([ROOM_SERVER, "--port", "0", "--kms", double.url, "--kms-timeout", "30",
                         "--max-connections-per-ip", "0", "--log-level", "warning"])
        return relay(double, [KBENCH, "kms-load", server.url, str(server.process.pid), str(double.process.pid),
                              str(clients)], limit)
    except (OSError, RuntimeError) as error:
        return {"error": str(error)}
    finally:
        if server:
            server.stop()
        double.stop()


def relay(double, command, limit):
    """Runs kbench, answering each `stats` line with the double's; kbench's JSON object, killed past `limit`."""
    client = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    timer = threading.Timer(limit, client.kill)
    timer.start()
    result = None
    try:
        for line in client.stdout:
            if line.strip() == "stats":
                double.process.stdin.write("stats\n")
                double.process.stdin.flush()
                # (an empty line when the double is gone: kbench then fails at once instead of waiting)
                client.stdin.write(double.process.stdout.readline() or "\n")
                client.stdin.flush()
            elif line.startswith("{"):
                result = line
        client.wait()
    finally:
        timer.cancel()
    if client.returncode != 0 or result is None:
        raise RuntimeError(f"kbench kms-load failed ({client.returncode})")
    return json.loads(result)


def kms_rows(load):
    if "error" in load:
        return [("8", "rooms through KMS (kms-double)", "—", "failed: " + load["error"][:80])]
    n, rooms = load["clients"], load["rooms"]
    join, publish, subscribe = load["kms_per_join"], load["kms_per_publish"], load["kms_per_subscription"]
    rows = [
        ("8", f"KMS: join storm, {n} clients into {rooms} rooms", "—", f"{load['join_storm_s']:.3f} s"),
        ("8", f"KMS: publish latency ({load['publishers']} publishVideo at once)", "—",
         f"p50 {load['publish_p50_ms']:.1f} / p99 {load['publish_p99_ms']:.1f} ms ({load['publish_storm_s']:.2f} s)"),
        ("8", f"KMS: subscribe latency ({load['subscriptions']} receiveVideoFrom at once)", "—",
         f"p50 {load['subscribe_p50_ms']:.1f} / p99 {load['subscribe_p99_ms']:.1f} ms "
         f"({load['subscribe_storm_s']:.2f} s)"),
        ("8", "KMS messages per join / publish / subscription (requests + events)", "—",
         f"{join['requests']:g}+{join['events']:g} / {publish['requests']:g}+{publish['events']:g} / "
         f"{subscribe['requests']:g}+{subscribe['events']:g}"),
        ("8", "KMS WebSocket connections from room-server (expected 1)", "—",
         f"{load['kms_connections']} open, {load['kms_connections_accepted']} accepted"
         + ("" if load["kms_connections_accepted"] == 1 else "  <- NOT one")),
        ("8", "KMS objects at the peak / after everyone left", "—",
         f"{load['kms_objects_at_peak']} / {load['kms_objects_after_leave']}"),
        ("8", "room-server / kms-double CPU for the run", "—", f"{load['server_cpu_s']:.2f} s / {load['kms_cpu_s']:.2f} s"),
    ]
    for phase, failure in sorted(load.get("failures", {}).items()):
        rows.append(("8", f"KMS: failed {phase} calls", "—", f"{failure['count']}: {failure['first'][:60]}"))
    return rows
