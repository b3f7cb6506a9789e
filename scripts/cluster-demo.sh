#!/usr/bin/env bash
# `make cluster-demo`: one room across three room-server nodes on one Redis, on 127.0.0.1.
# 1. redis-server on an ephemeral port (no persistence) and three room-server nodes with --cluster;
# 2. alice, bob and carol join the same room on three different nodes (each with the other nodes as failover
#    URLs), publish, subscribe to everyone, chat and send a private message;
# 3. node 3 is killed (SIGKILL, no goodbye): alice and bob see carol leave once the cluster notices, and carol's
#    room-join fails over to another node and rejoins.
set -euo pipefail
cd "$(dirname "$0")/.."
for product in room-server room-join; do swift build --product "$product" >/dev/null; done
bin=$(swift build --show-bin-path)
work=$(mktemp -d)
pids=()
trap 'exec 2>/dev/null; for p in "${pids[@]}"; do kill -9 "$p" || true; done; rm -rf "$work"' EXIT

source scripts/lib.sh

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --requirepass demo-secret \
    --loglevel warning >"$work/redis" 2>&1 & pids+=($!)
for _ in $(seq 1 100); do python3 -c "import socket; socket.create_connection(('127.0.0.1', $port))" 2>/dev/null && break; sleep 0.05; done
echo "== redis-server on 127.0.0.1:$port"

urls=()
for node in 1 2 3; do
    ROOM_SERVER_CLUSTER_PASSWORD=demo-secret "$bin/room-server" --port 0 --cluster "redis://127.0.0.1:$port" --node-id "node$node" \
        >"$work/node$node" 2>"$work/node$node.log" & pids+=($!)
    eval "node${node}_pid=$!"
    wait_for "$work/node$node" "ws://"
    urls+=("$(head -n 1 "$work/node$node")")
    echo "== room-server node$node on ${urls[-1]}"
done

# Each user dials its own node first, then the others; waits for the other two, publishes, subscribes to
# everyone, chats, sends a private message, and stays until interrupted.
users=(alice bob carol)
for index in 0 1 2; do
    me=${users[$index]}
    others=("${users[@]:0:$index}" "${users[@]:$((index + 1))}")
    dial=("${urls[$index]}" "${urls[@]:0:$index}" "${urls[@]:$((index + 1))}")
    "$bin/room-join" "${dial[@]}" --room demo --user "$me" --wait-for "${others[0]}" --wait-for "${others[1]}" \
        --publish --receive-all --message "hello from $me on node$((index + 1))" \
        --private "${others[0]}:psst, ${others[0]}, it is $me" >"$work/$me" 2>&1 & pids+=($!)
    eval "${me}_pid=$!"
done
for me in alice bob carol; do wait_for "$work/$me" "hello from carol" 20; done
echo "== everyone is in, publishing, subscribed and chatting"

echo "== killing node3 (carol's node) with SIGKILL"
kill -9 "$node3_pid"; wait "$node3_pid" 2>/dev/null || true
wait_for "$work/alice" "participant left: carol" 20
wait_for "$work/bob" "participant left: carol" 20
wait_for "$work/carol" "connection rejoined" 20
wait_for_after "$work/alice" "participant left: carol" "participant joined: carol" 20
echo "== carol failed over and rejoined"
for me in alice bob carol; do kill -INT "$(eval echo "\$${me}_pid")"; done
for me in alice bob carol; do wait_for "$work/$me" "left demo"; done
for me in alice bob carol; do echo "== $me's room-join:"; sed "s/^/[$me] /" "$work/$me"; done
echo "== cluster-demo done"
