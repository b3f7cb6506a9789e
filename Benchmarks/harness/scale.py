"""The 10,000-client row: one `kbench room-server` and several `kbench room-scale-worker` load processes.

Client `i` (of N) is `user<i>` in `room<i % (N / room_size)>`; worker `w` owns a contiguous range of clients, so
every room has members in every worker and a message's fan-out is received in every load process. Each worker
reports its times in CLOCK_MONOTONIC nanoseconds (this module reads the same clock), so a message's latency runs
from the sender's "just before sendMessage" to the last receipt in any worker.

Phases: the join storm (every client of every worker at once: first call to last answer); the server's RSS per
connection (VmRSS after the storm minus before the first connection); chat to one room at a time (each message sent
once the previous one reached its whole room); chat to every room at once (rounds); idle (the server's CPU over a
quiet window with every client connected); the leave storm.
"""
import json
import queue
import subprocess
import sys
import threading
import time

from harness.processes import HERE, KBENCH, Server

sys.path.insert(0, str(HERE.parent / "scripts"))
from idle_cpu import cpu_seconds  # noqa: E402  (the helper of `make idle-cpu`)


def resident_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


class Workers:
    """The load processes; every line they print goes into one queue as (worker number, object)."""

    def __init__(self, urls, clients, rooms, processes):
        """`urls`: one server URL, or a list (worker `w` dials `urls[w % len(urls)]`: the nodes of a cluster)."""
        urls = [urls] if isinstance(urls, str) else urls
        self.lines = queue.Queue()
        self.ranges, self.processes = [], []
        share = -(-clients // processes)
        for number in range(processes):
            first = number * share
            count = min(share, clients - first)
            if count <= 0:
                break
            process = subprocess.Popen([KBENCH, "room-scale-worker", urls[number % len(urls)], str(first), str(count),
                                        str(rooms)],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
            self.ranges.append(range(first, first + count))
            self.processes.append(process)
            threading.Thread(target=self._read, args=(number, process), daemon=True).start()

    def _read(self, number, process):
        for line in process.stdout:
            self.lines.put((number, json.loads(line)))
        self.lines.put((number, {"exited": process.wait()}))

    def owner(self, client):
        return next(n for n, owned in enumerate(self.ranges) if client in owned)

    def tell(self, number, command):
        self.processes[number].stdin.write(command + "\n")
        self.processes[number].stdin.flush()

    def collect(self, wanted, deadline):
        """Hands every object to `wanted(number, object)` until it returns "done"; raises when a worker exits or
        reports an error, or at the deadline."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError("workers did not answer in time")
            try:
                number, answer = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if "exited" in answer:
                raise RuntimeError(f"worker {number} exited with {answer['exited']}")
            if "error" in answer and "sent" not in answer and "joined" not in answer and "left" not in answer:
                raise RuntimeError(f"worker {number}: {answer['error']}")
            if wanted(number, answer) == "done":
                return

    def ready(self, limit):
        """Waits for every worker's `ready` (its clients exist, their events are read)."""
        seen = set()

        def wanted(number, answer):
            if "ready" in answer:
                seen.add(number)
            return "done" if len(seen) == len(self.processes) else None
        self.collect(wanted, time.monotonic() + limit)

    def everyone(self, command, key, limit):
        """Sends `command` to every worker; their answers (objects with `key`) in worker order."""
        answers = {}
        for number in range(len(self.processes)):
            self.tell(number, command)

        def wanted(number, answer):
            if key in answer:
                answers[number] = answer
            return "done" if len(answers) == len(self.processes) else None
        self.collect(wanted, time.monotonic() + limit)
        return [answers[n] for n in range(len(self.processes))]

    def stop(self):
        for process in self.processes:
            try:
                process.stdin.close()
            except OSError:
                pass
        for process in self.processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def chat(workers, messages, limit):
    """Sends `messages` (text, sender) at once; each one's fan-out latency in µs, send to last receipt anywhere.
    A text ends in `-r<room>`; its room has members in every worker, so every worker reports it once."""
    sent, last, got = {}, {}, {}
    for text, sender in messages:
        workers.tell(workers.owner(sender), f"send {sender} {text}")

    def wanted(number, answer):
        if "sent" in answer:
            if "error" in answer:
                raise RuntimeError(f"send {answer['sent']} failed: {answer['error']}")
            sent[answer["sent"]] = answer["at"]
        elif "got" in answer:
            text = answer["got"]
            got[text] = got.get(text, 0) + 1
            last[text] = max(last.get(text, 0), answer["last"])
        complete = len(sent) == len(messages) and all(got.get(t, 0) == len(workers.processes) for t, _ in messages)
        return "done" if complete else None
    workers.collect(wanted, time.monotonic() + limit)
    return [(last[text] - sent[text]) / 1000 for text, _ in messages]


def percentile(values, p):
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, -(-len(ordered) * p // 100) - 1))
    return ordered[int(rank)]


def scale_load(clients, processes=4, room_size=100, solo_messages=200, rounds=5, idle_seconds=5):
    """The figures of the row, or {"error": …} with the phase that failed."""
    rooms = max(1, clients // room_size)
    server = Server([KBENCH, "room-server"])
    workers = None
    result = {"clients": clients, "rooms": rooms, "room_size": clients // rooms, "load_processes": processes}
    phase = "start"
    try:
        pid = server.process.pid
        result["server_rss_before_kib"] = resident_kib(pid)
        workers = Workers(server.url, clients, rooms, processes)
        workers.ready(60)
        phase = "join storm"
        cpu_before = cpu_seconds(pid)
        joined = workers.everyone("join", "joined", 300)
        result["join_failures"] = sum(a["failed"] for a in joined)
        if result["join_failures"]:
            first = next(a["error"] for a in joined if a["failed"])
            raise RuntimeError(f"{result['join_failures']} joins failed, first: {first}")
        result["join_storm_s"] = round((max(a["end"] for a in joined) - min(a["start"] for a in joined)) / 1e9, 3)
        result["join_server_cpu_s"] = round(cpu_seconds(pid) - cpu_before, 2)
        result["server_rss_after_join_kib"] = resident_kib(pid)
        result["server_rss_per_connection_kib"] = round(
            (result["server_rss_after_join_kib"] - result["server_rss_before_kib"]) / clients, 1)

        phase = "chat, one room at a time"
        solo = []
        for m in range(solo_messages):
            room = m % rooms
            sender = room + rooms * ((m // rooms + 1) % result["room_size"])
            solo += chat(workers, [(f"s{m}-r{room}", sender)], 30)
        result["solo_messages"] = len(solo)
        result["solo_fanout_p50_us"] = round(percentile(solo, 50), 1)
        result["solo_fanout_p99_us"] = round(percentile(solo, 99), 1)

        phase = "chat, every room at once"
        together = []
        cpu_before = cpu_seconds(pid)
        for r in range(rounds):
            together += chat(workers, [(f"c{r}-r{room}", room + rooms * (r % result["room_size"]))
                                       for room in range(rooms)], 60)
        result["rounds_server_cpu_s"] = round(cpu_seconds(pid) - cpu_before, 2)
        result["round_messages"] = len(together)
        result["round_fanout_p50_us"] = round(percentile(together, 50), 1)
        result["round_fanout_p99_us"] = round(percentile(together, 99), 1)

        phase = "idle"
        cpu_before = cpu_seconds(pid)
        time.sleep(idle_seconds)  # the measurement itself: nothing happens on purpose
        result["idle_seconds"] = idle_seconds
        result["idle_server_share"] = round((cpu_seconds(pid) - cpu_before) / idle_seconds, 4)

        phase = "leave storm"
        left = workers.everyone("leave", "left", 300)
        result["leave_failures"] = sum(a["failed"] for a in left)
        if result["leave_failures"]:
            result["leave_error"] = next(a["error"] for a in left if a["failed"])
        result["leave_storm_s"] = round((max(a["end"] for a in left) - min(a["start"] for a in left)) / 1e9, 3)
        return result
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as error:
        return {**result, "error": f"{phase}: {error}"}
    finally:
        if workers:
            workers.stop()
        server.stop()


def scale_rows(figures):
    if "error" in figures:
        return [("9", f"{figures.get('clients', '?')} clients on one room-server", "—",
                 "failed: " + figures["error"][:100])]
    n, processes, size = figures["clients"], figures["load_processes"], figures["room_size"]
    return [
        ("9", f"scale: join storm, {n} clients ({processes} load processes) into {figures['rooms']} rooms of {size}",
         "—", f"{figures['join_storm_s']:.2f} s (server CPU {figures['join_server_cpu_s']:.2f} s)"),
        ("9", f"scale: server RSS per connection, {n} connected", "—",
         f"{figures['server_rss_per_connection_kib']:.1f} KiB ({figures['server_rss_before_kib'] // 1024} → "
         f"{figures['server_rss_after_join_kib'] // 1024} MiB)"),
        ("9", f"scale: chat fan-out to a room of {size}, one room at a time ({figures['solo_messages']} messages)",
         "—", f"p50 {figures['solo_fanout_p50_us'] / 1000:.2f} / p99 {figures['solo_fanout_p99_us'] / 1000:.2f} ms"),
        ("9", f"scale: chat fan-out, all {figures['rooms']} rooms at once ({figures['round_messages']} messages)", "—",
         f"p50 {figures['round_fanout_p50_us'] / 1000:.2f} / p99 {figures['round_fanout_p99_us'] / 1000:.2f} ms"),
        ("9", f"scale: server CPU idle with {n} connected, {figures['idle_seconds']:g} s (their 5 s heartbeats answered)", "—",
         f"{figures['idle_server_share']:.2%} of a core"),
        ("9", f"scale: leave storm ({figures['leave_failures']} failed)", "—", f"{figures['leave_storm_s']:.2f} s"),
    ]


def scale_targets(figures):
    """Issue 37's scale targets, judged on the row's figures."""
    n = figures.get("clients", "?")
    def verdict(key, limit, unit, scale=1.0):
        value = figures.get(key)
        if value is None or "error" in figures:
            return {"value": "not measured", "met": False}
        return {"value": f"{value / scale:.2f} {unit}", "met": value <= limit}

    def share(key, limit):
        value = figures.get(key)
        if value is None or "error" in figures:
            return {"value": "not measured", "met": False}
        return {"value": f"{value:.2%} of a core", "met": value <= limit}
    return [
        (f"scale, {n} clients: join storm <= 10 s", verdict("join_storm_s", 10, "s")),
        (f"scale, {n} clients: server RSS <= 32 KiB per connection", verdict("server_rss_per_connection_kib", 32, "KiB")),
        (f"scale, {n} clients: fan-out to a room of 100 (one at a time) p99 <= 20 ms",
         verdict("solo_fanout_p99_us", 20000, "ms", 1000)),
        (f"scale, {n} clients: idle server CPU <= 2 % of a core (clients' heartbeats answered)",
         share("idle_server_share", 0.02)),
    ]
