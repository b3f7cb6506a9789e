#!/usr/bin/env python3
"""Median table of run_evlib_study.sh results (JSON lines)."""
import json
import statistics
import sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
kinds = []
for r in rows:
    if r["kind"] not in kinds:
        kinds.append(r["kind"])


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt(v, spec):
    return "n/a" if v is None else format(v, spec)


print("| loop | idle conns | seq RTT p50 µs | seq RTT p99 µs | pipelined msg/s | server CPU µs/msg | "
      "server idle CPU % (1,000 idle) | runs (clean stops) | load1 range |")
print("|---|---|---|---|---|---|---|---|---|")
for idle in (0, 1000):
    for k in kinds:
        rs = [r for r in rows if not r.get("wake") and r["kind"] == k and r["idle"] == idle]
        if not rs:
            continue
        a = [r["active"] for r in rs]
        loads = [r["load1"] for r in rs]
        print(f"| {k} | {idle} | {fmt(med([x.get('rtt_p50_us') for x in a]), '.1f')} | "
              f"{fmt(med([x.get('rtt_p99_us') for x in a]), '.1f')} | "
              f"{fmt(med([x.get('msgs_per_s') for x in a]), ',.0f')} | "
              f"{fmt(med([r['server_cpu_us_per_msg'] for r in rs]), '.2f')} | "
              f"{fmt(med([r['server_idle_cpu_pct'] for r in rs]), '.2f') if idle else '–'} | "
              f"{len(rs)} ({sum(r['clean_stop'] for r in rs)}) | {min(loads)}–{max(loads)} |")
print()
print("| loop | wake p50 µs | wake p99 µs | missed wakes | callbacks for N back-to-back cancels | runs |")
print("|---|---|---|---|---|---|")
for k in kinds:
    ws = [r["result"] for r in rows if r.get("wake") and r["kind"] == k and r["result"]]
    if not ws:
        continue
    print(f"| {k} | {fmt(med([w['wake_p50_us'] for w in ws]), '.1f')} | {fmt(med([w['wake_p99_us'] for w in ws]), '.1f')} | "
          f"{sum(w['missed'] for w in ws)} of {sum(w['n'] for w in ws)} | "
          f"{', '.join(str(w['burst_callbacks']) for w in ws)} (N={ws[0]['n']}) | {len(ws)} |")
