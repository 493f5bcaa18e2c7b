#!/usr/bin/env bash
# The whole test run behind `make test`: system packages if missing, throwaway servers on free
# ports, lint, types, the pytest suite against PostgreSQL; every server stopped by pid at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin

need=()
command -v redis-server >/dev/null || need+=(redis-server)
ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1 || need+=(postgresql)
[ -x /usr/bin/chromium ] || need+=(chromium chromium-driver)
if [ ${#need[@]} -gt 0 ]; then
  echo "Installing system packages: ${need[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

SERVERS_DIR=$(mktemp -d /tmp/pinochle-test.XXXXXX)
chmod 755 "$SERVERS_DIR"
cleanup() { $BIN/python scripts/testservers.py stop "$SERVERS_DIR" || true; rm -rf "$SERVERS_DIR"; }
trap cleanup EXIT
$BIN/python scripts/testservers.py start "$SERVERS_DIR"
# shellcheck disable=SC1091
source "$SERVERS_DIR/env"
export TEST_OUTPUT_DIR="${TEST_OUTPUT_DIR:-$PWD/test-output}"
mkdir -p "$TEST_OUTPUT_DIR"

status=0
echo "== ruff";  $BIN/ruff check . || status=1
echo "== mypy";  $BIN/mypy . || status=1
echo "== pytest"
# --reuse-db: the worker holds connections to test_pinochle; the whole cluster is thrown away.
$BIN/pytest --reuse-db "$@" || status=$?
exit $status
