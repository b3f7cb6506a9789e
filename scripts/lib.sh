# Shared by the demo scripts: `wait_for FILE TEXT [SECONDS]` waits (default 10 s) until FILE contains TEXT, and
# fails the script with FILE's contents when it never does.
wait_for() {
    local tries=$(( ${3:-10} * 20 ))
    for _ in $(seq 1 "$tries"); do grep -q -- "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done
    echo "$(basename "$0"): '$2' never appeared in $1" >&2; cat "$1" >&2; exit 1
}

# `wait_for_count FILE TEXT N [SECONDS]`: waits until FILE has at least N lines containing TEXT.
wait_for_count() {
    local tries=$(( ${4:-10} * 20 ))
    for _ in $(seq 1 "$tries"); do [ "$(grep -c -- "$2" "$1" 2>/dev/null || true)" -ge "$3" ] && return 0; sleep 0.05; done
    echo "$(basename "$0"): '$2' did not appear $3 times in $1" >&2; cat "$1" >&2; exit 1
}
