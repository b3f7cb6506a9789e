# Shared by the demo scripts: `wait_for FILE TEXT [SECONDS]` waits (default 10 s) until FILE contains TEXT, and
# fails the script with FILE's contents when it never does.
wait_for() {
    local tries=$(( ${3:-10} * 20 ))
    for _ in $(seq 1 "$tries"); do grep -q -- "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done
    echo "$(basename "$0"): '$2' never appeared in $1" >&2; cat "$1" >&2; exit 1
}

# `wait_for_after FILE FIRST THEN [SECONDS]`: waits until FILE has a line containing THEN after one containing FIRST.
wait_for_after() {
    local tries=$(( ${4:-10} * 20 ))
    for _ in $(seq 1 "$tries"); do
        awk -v a="$2" -v b="$3" 'index($0, a) { seen = 1; next } seen && index($0, b) { found = 1 } END { exit !found }' \
            "$1" 2>/dev/null && return 0
        sleep 0.05
    done
    echo "$(basename "$0"): '$3' never appeared after '$2' in $1" >&2; cat "$1" >&2; exit 1
}
