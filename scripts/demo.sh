#!/usr/bin/env bash
# `make demo`: the main job, end to end on 127.0.0.1.
# 1. room-server (the embeddable RoomServer with simulated media) on an ephemeral port;
# 2. alice and bob join a room with room-join, wait for each other, publish, subscribe to each other, chat, send a
#    private message and leave; then SIGINT shuts the server down;
# 3. the same room with its media in Kurento Media Server: room-server --kms against kms-double (the KMS test
#    double: real SDP and ICE signaling, no media), alice publishes and bob subscribes, KMS's candidates reach them;
# 4. the plain JSON-RPC echo example answers a third-party Python client;
# 5. sdp-tool inspects a Chrome offer from the repository, prints the answer a media server would give, and
#    checks that answer against the offer/answer rules.
set -euo pipefail
cd "$(dirname "$0")/.."
for product in room-server room-join jsonrpc-echo-server sdp-tool kms-double; do swift build --product "$product" >/dev/null; done
bin=$(swift build --show-bin-path)
work=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT

source scripts/lib.sh

"$bin/room-server" --port 0 --reconnection-window 1 >"$work/server" 2>/dev/null & server=$!; pids+=($server)
wait_for "$work/server" "ws://"
url=$(head -n 1 "$work/server")
echo "== room-server listening on $url"
# Each waits for the other, publishes (PeerManager offer, no real media), subscribes to everyone, chats and sends
# a private message, stays 2 s, then leaves.
for pair in alice:bob bob:alice; do
    me=${pair%%:*}; other=${pair##*:}
    "$bin/room-join" "$url" --room demo --user "$me" --wait-for "$other" --publish --receive-all \
        --message "hello from $me" --private "$other:psst, $other, it is $me" --duration 2 >"$work/$me" 2>&1 &
    pids+=($!)
done
wait_for "$work/alice" "left demo"
wait_for "$work/bob" "left demo"
for me in alice bob; do echo "== $me's room-join:"; sed "s/^/[$me] /" "$work/$me"; done
kill -INT $server; wait $server || true
echo "== room-server shut down"

"$bin/kms-double" --port 0 >"$work/kms" 2>/dev/null & kms=$!; pids+=($kms)
wait_for "$work/kms" "ws://"
kms_url=$(head -n 1 "$work/kms")
"$bin/room-server" --port 0 --kms "$kms_url" >"$work/server" 2>/dev/null & server=$!; pids+=($server)
wait_for "$work/server" "ws://"
url=$(head -n 1 "$work/server")
echo "== room-server on $url, media from the Kurento Media Server (double) on $kms_url"
"$bin/room-join" "$url" --room kms --user alice --wait-for bob --publish --duration 2 >"$work/alice" 2>&1 & pids+=($!)
"$bin/room-join" "$url" --room kms --user bob --wait-for alice --receive alice --duration 2 >"$work/bob" 2>&1 & pids+=($!)
wait_for "$work/alice" "left kms"
wait_for "$work/bob" "left kms"
for me in alice bob; do echo "== $me's room-join (answers and candidates from KMS):"; sed "s/^/[$me] /" "$work/$me"; done
kill -INT $server; wait $server || true
kill -INT $kms; wait $kms || true
echo "== room-server and kms-double shut down"

"$bin/jsonrpc-echo-server" --port 0 >"$work/echo" & echo_server=$!; pids+=($echo_server)
wait_for "$work/echo" "ws://"
echo "== jsonrpc-echo-server on $(head -n 1 "$work/echo"), called by a Python websockets client:"
python3 scripts/python_echo_client.py "$(head -n 1 "$work/echo")"
kill -INT $echo_server; wait $echo_server || true

# A Chrome offer the repository holds (the SDP tests' fixture), so the step runs in any clone.
offer=Tests/SDPTests/Fixtures/chrome-offer.sdp
echo "== sdp-tool inspect $offer"
"$bin/sdp-tool" inspect "$offer"
echo "== sdp-tool answer $offer --reject video (the answer a media server would give), checked by check-answer"
"$bin/sdp-tool" answer "$offer" --reject video >"$work/answer.sdp"
cat "$work/answer.sdp"
"$bin/sdp-tool" check-answer "$offer" "$work/answer.sdp"
echo "== demo done"
