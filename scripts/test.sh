#!/usr/bin/env bash
# The whole test run behind `make test`: system packages if missing, throwaway servers on free
# ports, lint, types, the pytest suite against PostgreSQL in two lanes (in-process tests in
# parallel, then the servers' and browser tests one at a time); every server stopped by pid at
# the end.
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
# ruff and mypy run while the servers start; what they print is shown after.
LINT_LOG="$SERVERS_DIR/lint.log"
(
  lint=0
  echo "== ruff"; $BIN/ruff check . || lint=1
  echo "== mypy"; $BIN/mypy . || lint=1
  exit $lint
) > "$LINT_LOG" 2>&1 &
lint_pid=$!
$BIN/python scripts/testservers.py start "$SERVERS_DIR"
# shellcheck disable=SC1091
source "$SERVERS_DIR/env"
export TEST_OUTPUT_DIR="${TEST_OUTPUT_DIR:-$PWD/test-output}"
mkdir -p "$TEST_OUTPUT_DIR"

status=0
wait $lint_pid || status=1
cat "$LINT_LOG"

# Two pytest lanes (markers set by folder and fixture in tests/conftest.py):
#  1. the in-process tests, in TEST_RUNNERS pytest-xdist runners at once, each with a test
#     database (test_pinochle_gw0, ...) and a Redis database of its own (config/settings/test.py);
#  2. then, one at a time, the tests that share the real servers (the Celery worker reading
#     test_pinochle, the push process, Redis restarts: `integration`) or drive Chromium (`e2e`).
# --reuse-db: the worker holds connections to test_pinochle; the whole cluster is thrown away.
# Each lane ends with its 15 slowest tests (where the suite's time goes). Extra arguments (paths,
# -k, ...) go to both lanes; a lane they leave empty is skipped (pytest's
# exit 5), but a run that selects no test at all, or a full run with an empty lane, fails.
RUNNERS="${TEST_RUNNERS:-3}"
lane() {  # lane NAME PYTEST-ARGS...: runs pytest, sets status from its exit code
  local name=$1 rc=0
  shift
  echo "== pytest: $name"
  local started=$SECONDS
  $BIN/pytest --reuse-db --durations=15 "$@" || rc=$?
  echo "== pytest: $name took $((SECONDS - started)) s (exit $rc)"
  if [ $rc -eq 5 ] && [ $filtered -eq 1 ]; then
    empty=$((empty + 1))
  elif [ $rc -ne 0 ]; then
    status=$rc
  fi
}
filtered=0; [ $# -gt 0 ] && filtered=1
empty=0
own_marks=0
for arg in "$@"; do
  case $arg in -m|-m?*) own_marks=1 ;; esac
done
if [ $own_marks -eq 1 ]; then
  # A marker expression of the caller's own replaces the lanes: one run, one test at a time.
  lane "selected by -m, serially" "$@"
  lanes=1
else
  lane "in-process, $RUNNERS runners" -n "$RUNNERS" -m "not integration and not e2e" "$@"
  lane "servers and browser, serially" -m "integration or e2e" "$@"
  lanes=2
fi
if [ $empty -eq $lanes ]; then
  echo "== pytest: the arguments selected no test"
  [ $status -eq 0 ] && status=5
fi
exit $status
