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
command -v msgfmt >/dev/null || need+=(gettext)  # compilemessages, makemessages (tests/i18n)
if [ ${#need[@]} -gt 0 ]; then
  echo "Installing system packages: ${need[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

# The German catalogs, compiled from the committed .po files (tests/i18n checks them).
$BIN/python manage.py compilemessages --ignore=.venv -v 0

SERVERS_DIR=$(mktemp -d /tmp/pinochle-test.XXXXXX)
chmod 755 "$SERVERS_DIR"
cleanup() { $BIN/python scripts/testservers.py stop "$SERVERS_DIR" || true; rm -rf "$SERVERS_DIR"; }
trap cleanup EXIT
# ruff and mypy run (at a lower priority) while the servers start and the tests run; what they
# print is shown at the end.
LINT_LOG="$SERVERS_DIR/lint.log"
(
  lint=0
  echo "== ruff"; nice -n 10 $BIN/ruff check . || lint=1
  echo "== mypy"; nice -n 10 $BIN/mypy . || lint=1
  exit $lint
) > "$LINT_LOG" 2>&1 &
lint_pid=$!
# Every test process (five pytest runners, and the servers, commands and workers the tests
# start) imports the project: compiled once here, while the servers start, instead of by each
# of them (an environment that turns bytecode files off would otherwise make every process
# compile every module, and pytest rewrite every test module, again).
unset PYTHONDONTWRITEBYTECODE
$BIN/python -m compileall -q -j 0 -x '/(\.venv|node_modules|test-output)/' . >/dev/null &
compile_pid=$!
$BIN/python scripts/testservers.py start "$SERVERS_DIR"
wait $compile_pid || true
# shellcheck disable=SC1091
source "$SERVERS_DIR/env"
# One migrated template database; every runner's test database is a copy of it instead of
# running every migration again (five runners at once on two cores).
# pytest rewrites every test module's asserts when it imports it and keeps the result beside
# the module: on a full run, done here once (while the template migrates) instead of by each of
# the seven pytest processes at the same time.
prewarm_pid=""
if [ $# -eq 0 ]; then
  $BIN/pytest --collect-only -q -p no:cacheprovider tests >/dev/null 2>&1 &
  prewarm_pid=$!
fi
DATABASE_URL="${DATABASE_URL%/*}/pinochle_template" DJANGO_SETTINGS_MODULE=config.settings.test \
  $BIN/python manage.py migrate --noinput -v 0
[ -n "$prewarm_pid" ] && { wait "$prewarm_pid" || true; }
export TEST_DATABASE_TEMPLATE=pinochle_template
export TEST_OUTPUT_DIR="${TEST_OUTPUT_DIR:-$PWD/test-output}"
mkdir -p "$TEST_OUTPUT_DIR"

status=0

# Three pytest lanes at once (markers set by folder and fixture in tests/conftest.py):
#  1. in-process tests, in TEST_RUNNERS pytest-xdist runners, each with a test database
#     (test_pinochle_gw0, ...) and a Redis database of its own (config/settings/test.py);
#  2. browser tests that need no shared server, in BROWSER_RUNNERS runners, each with its own
#     live server and test database (test_pinochle_browser_gw0, ...);
#  3. one at a time, the tests that share the real servers (the Celery worker reading
#     test_pinochle, the push process, Redis restarts: `integration`).
# Lanes 1 and 2 use the quiet Redis, which lane 3 never stops; the in-process lane runs at a
# lower priority, so the browser and the servers get the CPU first and it fills the waits.
# --reuse-db: the worker holds connections to test_pinochle; the whole cluster is thrown away.
# Each lane's output is shown when all are done, with its 20 slowest tests (where the suite's
# time goes). Extra arguments (paths, -k, ...) go to every lane; a lane they leave empty is
# skipped (pytest's exit 5), but a run that selects no test at all, or a full run with an empty
# lane, fails.
RUNNERS="${TEST_RUNNERS:-2}"
BROWSER_RUNNERS="${TEST_BROWSER_RUNNERS:-2}"
LANES_DIR="$SERVERS_DIR/lanes"
mkdir -p "$LANES_DIR"
names=(); pids=()
lane() {  # lane NAME ENV... -- PYTEST-ARGS...: starts pytest in the background, output to a log
  local name=$1
  shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  (
    started=$SECONDS
    rc=0
    env "${envs[@]}" nice -n "$NICENESS" $BIN/pytest --reuse-db --durations=20 "$@" || rc=$?
    echo "== pytest: $name took $((SECONDS - started)) s (exit $rc)"
    exit $rc
  ) > "$LANES_DIR/${#names[@]}.log" 2>&1 &
  pids+=($!); names+=("$name")
}
filtered=0; [ $# -gt 0 ] && filtered=1
own_marks=0
for arg in "$@"; do
  case $arg in -m|-m?*) own_marks=1 ;; esac
done
quiet=(REDIS_URL="$TEST_QUIET_REDIS_URL")
started=$SECONDS
NICENESS=0
if [ $own_marks -eq 1 ]; then
  # A marker expression of the caller's own replaces the lanes: one run, one test at a time.
  lane "selected by -m, serially" -- "$@"
else
  NICENESS=10
  lane "in-process, $RUNNERS runners" "${quiet[@]}" -- \
    -n "$RUNNERS" --dist worksteal -m "not integration and not e2e" "$@"
  NICENESS=0
  lane "browser, $BROWSER_RUNNERS runners" "${quiet[@]}" TEST_REDIS_DB_OFFSET="$RUNNERS" \
    DATABASE_URL="${DATABASE_URL%/*}/pinochle_browser" -- \
    -n "$BROWSER_RUNNERS" --dist worksteal -m "e2e and not integration" "$@"
  lane "servers, serially" -- -m "integration" "$@"
fi
empty=0
for i in "${!pids[@]}"; do
  rc=0
  wait "${pids[$i]}" || rc=$?
  echo "== pytest: ${names[$i]}"
  cat "$LANES_DIR/$i.log"
  if [ $rc -eq 5 ] && [ $filtered -eq 1 ]; then
    empty=$((empty + 1))
  elif [ $rc -ne 0 ]; then
    status=$rc
  fi
done
echo "== pytest: all lanes took $((SECONDS - started)) s"
wait $lint_pid || status=1
cat "$LINT_LOG"
if [ $empty -eq ${#pids[@]} ]; then
  echo "== pytest: the arguments selected no test"
  [ $status -eq 0 ] && status=5
fi
exit $status
