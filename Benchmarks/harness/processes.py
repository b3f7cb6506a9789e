"""Where the benchmark binaries are, and how run.py starts them: every server prints its URL as its first stdout
line; every client prints one JSON object. Every child has a time limit, so the whole run is bounded."""
import json
import resource
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent  # Benchmarks/
KBENCH = str(HERE / ".build" / "release" / "kbench")
SDP = str(HERE / ".build" / "release" / "SDPThroughput")
# Products of the root package, built by `make bench` into this package's release folder.
ROOM_SERVER = str(HERE / ".build" / "release" / "room-server")
KMS_DOUBLE = str(HERE / ".build" / "release" / "kms-double")
C_SERVER = str(HERE / ".build-c" / "echo_server")
C_CLIENT = str(HERE / ".build-c" / "echo_client")
PY = sys.executable
PINNED = ["taskset", "-c", "0"]


def raise_open_file_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, 65536) if hard != resource.RLIM_INFINITY else 65536
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


class Server:
    """A server process; the first stdout line is its URL. `stop` sends SIGTERM and waits up to `grace` seconds
    (a server under valgrind takes a while to write its profile) before it kills."""

    def __init__(self, command, prefix=(), grace=5, stdin=None):
        self.grace = grace
        self.process = subprocess.Popen(list(prefix) + command, stdin=stdin, stdout=subprocess.PIPE, text=True)
        self.url = self.process.stdout.readline().strip()
        if not self.url.startswith("ws://"):
            self.stop()
            raise RuntimeError(f"{command[0]} printed no URL")

    def stop(self):
        """Returns the exit status (negative: killed by that signal)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(self.grace)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


def run_json(command, limit, prefix=()):
    done = subprocess.run(list(prefix) + command, capture_output=True, text=True, timeout=limit)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"{' '.join(command[:2])} failed ({done.returncode}): {done.stderr.strip()[-300:]}")
    return json.loads(lines[-1])
