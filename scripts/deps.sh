#!/usr/bin/env bash
# Installs what the build and the tests need, only where it is missing. Works as root or through sudo, on a
# fresh Debian machine (system python: apt packages) and on a developer machine (pyenv python: pip).
set -euo pipefail

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive

missing=()
# chromium: the dashboard's headless browser test (docs/operations.md#dashboard).
for pkg in libwebsockets-dev libwebsockets-evlib-ev libev-dev libsqlite3-dev libhiredis-dev redis-server pkg-config openssl \
           ca-certificates python3 chromium; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
updated=0
apt_install() {
    if [ "$updated" = 0 ]; then $SUDO apt-get update -q; updated=1; fi
    $SUDO apt-get install -y -q --no-install-recommends "$@"
}
if [ "${#missing[@]}" -gt 0 ]; then
    echo "deps: installing ${missing[*]}"
    apt_install "${missing[@]}"
fi

# Python witnesses: jsonschema (schema validation), websockets (third-party client), aiortc (SDP answers).
PY="${PYTHON:-python3}"
for mod in jsonschema websockets aiortc; do
    if "$PY" -c "import $mod" >/dev/null 2>&1; then continue; fi
    echo "deps: python module $mod missing for $PY; trying apt python3-$mod"
    apt_install "python3-$mod" >/dev/null 2>&1 || true
    if "$PY" -c "import $mod" >/dev/null 2>&1; then continue; fi
    echo "deps: trying pip for $mod"
    "$PY" -m pip install -q "$mod" || true
    "$PY" -c "import $mod" || { echo "deps: cannot install python module $mod" >&2; exit 1; }
done
echo "deps: ok"
