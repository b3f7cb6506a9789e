#!/usr/bin/env bash
# `make demo`: builds the package and runs the stack end to end on 127.0.0.1.
# 1. starts the plain JSON-RPC 2.0 echo server (Examples/jsonrpc-echo-server) on an ephemeral port;
# 2. talks to it with a third-party client (Python `websockets`, raw JSON text);
# 3. shows the SDP tooling on a browser-shaped offer from the shared corpus, when the corpus is there.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product jsonrpc-echo-server >/dev/null
bin=$(swift build --show-bin-path)

out=$(mktemp)
"$bin/jsonrpc-echo-server" --port 0 >"$out" &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f "$out"' EXIT
for _ in $(seq 1 100); do [ -s "$out" ] && break; sleep 0.05; done
url=$(head -n 1 "$out")
echo "== jsonrpc-echo-server listening on $url"
echo "== a Python websockets client sends requests, a batch and notifications:"
python3 scripts/python_echo_client.py "$url"

if [ -x "$bin/sdp-tool" ] || swift build --product sdp-tool >/dev/null 2>&1; then
    offer=../shared/fixtures/sdp-transform/jssip.sdp
    if [ -f "$offer" ]; then
        echo "== sdp-tool inspect $offer"
        "$bin/sdp-tool" inspect "$offer"
    fi
fi
kill -INT $server
wait $server 2>/dev/null || true
echo "== demo done"
