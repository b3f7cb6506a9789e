#!/usr/bin/env bash
# `make demo`: the main job, end to end on 127.0.0.1.
# 1. room-server (the embeddable RoomServer with simulated media) on an ephemeral port;
# 2. alice and bob join a room with room-join; bob leaves (his process is killed) and after the 1 s
#    reconnection window alice sees him evicted; SIGINT to the server closes alice's session with 1001;
# 3. the plain JSON-RPC echo example answers a third-party Python client;
# 4. sdp-tool inspects a corpus offer and prints the answer a media server would give.
set -euo pipefail
cd "$(dirname "$0")/.."
for product in room-server room-join jsonrpc-echo-server sdp-tool; do swift build --product "$product" >/dev/null; done
bin=$(swift build --show-bin-path)
work=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT

# Waits (up to 10 s) until FILE contains TEXT.
wait_for() {
    for _ in $(seq 1 200); do grep -q -- "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done
    echo "demo: '$2' never appeared in $1" >&2; cat "$1" >&2; exit 1
}

"$bin/room-server" --port 0 --reconnection-window 1 >"$work/server" 2>/dev/null & server=$!; pids+=($server)
wait_for "$work/server" "ws://"
url=$(head -n 1 "$work/server")
echo "== room-server listening on $url"
"$bin/room-join" "$url" --room demo --user alice >"$work/alice" 2>&1 & alice=$!; pids+=($alice)
wait_for "$work/alice" "participants"
"$bin/room-join" "$url" --room demo --user bob >"$work/bob" 2>&1 & bob=$!; pids+=($bob)
wait_for "$work/alice" "participant joined: bob"
kill $bob; wait $bob 2>/dev/null || true
wait_for "$work/alice" "participant left: bob"
kill -INT $server; wait $server || true
wait $alice 2>/dev/null || true
echo "== what bob's room-join printed:"; sed 's/^/[bob]   /' "$work/bob"
echo "== what alice's room-join printed (bob joined, dropped, was evicted; then the server shut down):"
sed 's/^/[alice] /' "$work/alice"

"$bin/jsonrpc-echo-server" --port 0 >"$work/echo" & echo_server=$!; pids+=($echo_server)
wait_for "$work/echo" "ws://"
echo "== jsonrpc-echo-server on $(head -n 1 "$work/echo"), called by a Python websockets client:"
python3 scripts/python_echo_client.py "$(head -n 1 "$work/echo")"
kill -INT $echo_server; wait $echo_server || true

offer=../shared/fixtures/sdp-transform/jssip.sdp
if [ -f "$offer" ]; then
    echo "== sdp-tool inspect $offer"
    "$bin/sdp-tool" inspect "$offer"
fi
echo "== demo done"
