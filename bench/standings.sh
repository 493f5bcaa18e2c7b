#!/usr/bin/env bash
# Standings benchmark: `bash bench/standings.sh`
# Starts a throwaway PostgreSQL on a free port (scripts/testservers.py's Servers class), runs
# bench/standings.py against it, and stops it by pid (and deletes it) whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
DIR=$(mktemp -d /tmp/pinochle-bench.XXXXXX)
chmod 755 "$DIR"
servers() { "$PY" - "$DIR" "$1" <<'PYEOF'
import sys
from pathlib import Path
sys.path.insert(0, "scripts")
from testservers import Servers, free_port
directory, action = Path(sys.argv[1]), sys.argv[2]
port_file = directory / "pg_port"
if action == "start":
    port = free_port()
    port_file.write_text(str(port))
    Servers(directory, port, 0).start_postgres()
    print(f"postgres://pinochle@127.0.0.1:{port}/pinochle")
else:
    if port_file.exists():
        Servers(directory, int(port_file.read_text()), 0).stop_postgres()
PYEOF
}
cleanup() { servers stop || true; rm -rf "$DIR"; }
trap cleanup EXIT
DATABASE_URL=$(servers start | tail -1)
export DATABASE_URL
unset REDIS_URL
"$PY" ${BENCH_SCRIPT:-bench/standings.py} "$@"
