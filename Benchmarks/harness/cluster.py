"""The cluster rows: three `kbench room-server` nodes on one `redis-server` of their own (ephemeral
port, no persistence), 300 clients per node in 20 rooms spread over the nodes, and the same clients against one
node for comparison."""
import shutil
import socket
import subprocess
import time

from .processes import KBENCH, Server, run_json


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_redis():
    """A redis-server on a free port, and its URL; (None, reason) when it is not installed or does not start."""
    executable = shutil.which("redis-server")
    if not executable:
        return None, "redis-server not installed (make deps installs it)"
    port = free_port()
    process = subprocess.Popen([executable, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                "--appendonly", "no", "--loglevel", "warning"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return (process, f"redis://127.0.0.1:{port}"), None
        except OSError:
            time.sleep(0.05)
    process.kill()
    return None, "redis-server did not start"


def cluster_load(nodes=3, clients_per_node=300):
    """{"cluster": room-load figures over `nodes` nodes, "single": the same clients on one node}."""
    started, reason = start_redis()
    if not started:
        return {"error": reason}
    redis, url = started
    clients = nodes * clients_per_node
    servers = []
    try:
        servers = [Server([KBENCH, "room-server", url, f"node{index}"]) for index in range(nodes)]
        urls = ",".join(server.url for server in servers)
        pids = ",".join(str(server.process.pid) for server in servers)
        result = {"cluster": run_json([KBENCH, "room-load", urls, pids, str(clients), url], 180)}
    except (RuntimeError, subprocess.TimeoutExpired) as error:
        result = {"cluster": {"error": str(error)}}
    finally:
        for server in servers:
            server.stop()
        redis.kill()
        redis.wait()
    single = Server([KBENCH, "room-server"])
    try:
        result["single"] = run_json([KBENCH, "room-load", single.url, str(single.process.pid), str(clients)], 180)
    except (RuntimeError, subprocess.TimeoutExpired) as error:
        result["single"] = {"error": str(error)}
    finally:
        single.stop()
    return result


def cluster_rows(figures):
    if "error" in figures:
        return [("7", "room-server cluster", "—", "failed: " + figures["error"][:80])]
    rows = []
    for key, label in (("cluster", "3 nodes on Redis"), ("single", "1 node, same clients")):
        load = figures.get(key, {})
        if "error" in load:
            rows.append(("7", f"{label}", "—", "failed: " + load["error"][:80]))
            continue
        n = load["clients"]
        rows += [
            ("7", f"{label}: join storm, {n} clients in 20 rooms", "—", f"{load['join_storm_s']:.3f} s"),
            ("7", f"{label}: chat fan-out, 20 rooms at once ({load['chat_messages']} messages)", "—",
             f"p50 {load['chat_fanout_p50_us'] / 1000:.2f} / p99 {load['chat_fanout_p99_us'] / 1000:.2f} ms"),
            ("7", f"{label}: chat fan-out, one room at a time", "—",
             f"p50 {load['solo_fanout_p50_us'] / 1000:.2f} / p99 {load['solo_fanout_p99_us'] / 1000:.2f} ms"),
            ("7", f"{label}: server CPU (all nodes) / RSS per connection", "—",
             f"{load['server_cpu_s']:.2f} s / {load['server_rss_per_connection_kib']:.1f} KiB"),
        ]
        if "redis_commands_per_join" in load:
            rows.append(("7", f"{label}: Redis commands per join / per chat message", "—",
                         f"{load['redis_commands_per_join']} / {load['redis_commands_per_chat_message']}"))
    return rows


def cluster_targets(figures):
    """The cluster target: cross-node chat fan-out p99 <= 20 ms."""
    load = figures.get("cluster", {})
    p99 = load.get("chat_fanout_p99_us")
    value = f"{p99 / 1000:.2f} ms" if p99 is not None else "not measured"
    return [("cluster, 3 nodes x 300 clients: cross-node chat fan-out p99 <= 20 ms",
             {"value": value, "met": p99 is not None and p99 <= 20000})]
