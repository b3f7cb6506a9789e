#!/bin/bash
# Runs the evlib study (evlib_study.c): poll vs libev vs libuv vs glib event loops in lws 4.1.6.
# Usage: Benchmarks/C/run_evlib_study.sh [ROUNDS] [OUT]   (defaults: 3 rounds, /tmp/evlib-study/results.jsonl)
# Every (loop, idle) cell is run ROUNDS times, interleaved: round 1 of every cell, then round 2, ...
# Per run: fresh server; with IDLE>0 a client process opens IDLE WebSocket connections and holds them;
# with IDLE=1000 the server's CPU ticks are read from /proc/PID/stat over IDLE_SECONDS of idleness; then one
# active client runs ACTIVE_SECONDS pipelined (32 in flight) and ACTIVE_SECONDS/2 strict ping-pong, and the
# server's CPU ticks over that run are divided by the messages echoed. Finally the lws_cancel_service wake test.
# Needs: cc, libwebsockets-dev 4.1.6, libwebsockets-evlib-{ev,uv,glib}, libev-dev, libuv1-dev, libglib-2.0.so.0.
set -u
ROUNDS=${1:-3}
OUT=${2:-/tmp/evlib-study/results.jsonl}
ACTIVE_SECONDS=${ACTIVE_SECONDS:-3}
IDLE_SECONDS=${IDLE_SECONDS:-10}
WAKES=${WAKES:-10000}
KINDS=${KINDS:-"poll ev uv glib ev:foreign"}
# Server on CPU 0, clients on CPU 1 (the machine has 2 cores): the same placement for every loop kind.
# PIN_SERVER= PIN_CLIENT= (empty) lets the scheduler place them.
PIN_SERVER=${PIN_SERVER-"taskset -c 0"}
PIN_CLIENT=${PIN_CLIENT-"taskset -c 1"}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(dirname "$OUT")
mkdir -p "$WORK"
B=$WORK/evlib_study
cc -O2 -g -Wall -Wextra -o "$B" "$HERE/evlib_study.c" -lwebsockets -lev -luv -l:libglib-2.0.so.0 -lpthread || exit 1
: > "$OUT"
TICK=$(getconf CLK_TCK)

ticks() { awk '{print $14+$15}' "/proc/$1/stat"; }
load() { cut -d' ' -f1 /proc/loadavg; }

run_cell() { # kind idle round
    local kind=${1%%:*} foreign="" idle=$2 round=$3
    [ "$1" != "$kind" ] && foreign=foreign
    rm -f "$WORK"/srv.out "$WORK"/srv.err "$WORK"/idle.out "$WORK"/idle.err
    $PIN_SERVER "$B" server "$kind" $foreign > "$WORK/srv.out" 2> "$WORK/srv.err" & local sp=$!
    for _ in $(seq 100); do [ -s "$WORK/srv.out" ] && break; sleep 0.05; done
    local url; url=$(head -1 "$WORK/srv.out")
    local ip="" idle_cpu=null setup=0
    if [ "$idle" -gt 0 ]; then
        local t0; t0=$(date +%s.%N)
        $PIN_CLIENT "$B" idle "$url" "$idle" > "$WORK/idle.out" 2> "$WORK/idle.err" & ip=$!
        for _ in $(seq 600); do grep -q "^ready" "$WORK/idle.out" 2>/dev/null && break; sleep 0.05; done
        grep -q "^ready" "$WORK/idle.out" || echo "WARN: idle client not ready ($1 $idle)" >&2
        setup=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.3f", b-a}')
        sleep 1
        local a b; a=$(ticks $sp); sleep "$IDLE_SECONDS"; b=$(ticks $sp)
        idle_cpu=$(awk -v d=$((b - a)) -v t="$TICK" -v s="$IDLE_SECONDS" 'BEGIN{printf "%.3f", d / t / s * 100}')   # % of one core
    fi
    local l0 a b json; l0=$(load); a=$(ticks $sp)
    json=$($PIN_CLIENT "$B" active "$url" "$ACTIVE_SECONDS")
    b=$(ticks $sp)
    local msgs; msgs=$(echo "$json" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["pipelined_msgs"]+d["samples"])' 2>/dev/null || echo 0)
    local cpu_us=null
    [ "$msgs" -gt 0 ] && cpu_us=$(awk -v d=$((b - a)) -v t="$TICK" -v m="$msgs" 'BEGIN{printf "%.3f", d * 1000000 / t / m}')
    [ -n "$ip" ] && { kill "$ip"; wait "$ip" 2>/dev/null; }
    kill "$sp"; wait "$sp" 2>/dev/null
    local clean=false; grep -q "stopped cleanly" "$WORK/srv.err" && clean=true
    local glib_crit; glib_crit=$(grep -c "GLib-CRITICAL" "$WORK/srv.err")
    cp "$WORK/srv.err" "$WORK/srv-$1-$idle-$round.err"
    [ -z "$json" ] && json='{}'
    echo "{\"kind\":\"$1\",\"idle\":$idle,\"round\":$round,\"load1\":$l0,\"idle_setup_s\":$setup,\"server_idle_cpu_pct\":$idle_cpu,\"server_cpu_us_per_msg\":$cpu_us,\"clean_stop\":$clean,\"glib_critical\":$glib_crit,\"active\":$json}" | tee -a "$OUT"
}

for round in $(seq "$ROUNDS"); do
    for idle in 0 1000; do
        for kind in $KINDS; do run_cell "$kind" "$idle" "$round"; done
    done
done
for round in $(seq "$ROUNDS"); do
    for kind in $KINDS; do
        k=${kind%%:*}; f=""; [ "$kind" != "$k" ] && f=foreign
        json=$("$B" wake "$k" $f "$WAKES" 2>>"$WORK/wake.err")
        echo "{\"wake\":true,\"kind\":\"$kind\",\"round\":$round,\"load1\":$(load),\"result\":${json:-{\}}}" | tee -a "$OUT"
    done
done
python3 "$HERE/summarize_evlib_study.py" "$OUT"
