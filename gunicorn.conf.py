"""gunicorn settings, read by ``gunicorn config.wsgi`` started from the project folder (or named
with ``-c gunicorn.conf.py``). Every value can be changed from the environment; command-line
flags override both. ``gunicorn config.wsgi --print-config`` shows what is in force.

Workers: ``2 × CPUs + 1`` sync workers (the CPUs this process may use, so a container's limit
counts), at most ``GUNICORN_MAX_WORKERS`` (16); ``WEB_CONCURRENCY`` sets the number outright.
A sync worker serves one request at a time, accepts a connection only when it is free (so the
kernel hands each request to an idle worker) and keeps one database connection
(``DATABASE_CONN_MAX_AGE``): the machine's PostgreSQL sees one connection per worker. Sync
workers close each client connection after its answer: put them behind a proxy, nginx or the
load balancer, that keeps clients' connections. With ``GUNICORN_THREADS`` above 1 the workers
become threaded (``gthread``), one database connection per thread, and keep idle client
connections open for ``GUNICORN_KEEPALIVE`` seconds.

Why sync, measured with ``make bench-load`` on 2 CPUs, pages polling (no push), 45 s runs:
at 64 tables 5 workers × 4 threads answered the standings poll at p95 15–38 ms against 32–47 ms
for 5 sync workers, but at 96 tables (the machine full) 934 ms against 379 ms, with 10 saves and
checks failing where sync failed none: a threaded worker keeps the connections it accepted and
runs Python on one CPU at a time, so it queues requests while another worker idles, and a POST
sent just as it closes an idle kept connection is lost to a client that does not resend it
(3 × 4 threads was worse still at 64 tables: p95 0.25–1.7 s).

Access log on standard output, one line per request with the client (``X-Forwarded-For`` when a
proxy is in front) and the time the request took in milliseconds; errors on standard error.
"""

from __future__ import annotations

import gc
import os


def _int(name: str, default: int, minimum: int = 0) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SystemExit(f"{name} must be a whole number, got {raw!r}") from None
    if value < minimum:
        raise SystemExit(f"{name} must be at least {minimum}, got {value}")
    return value


def cpu_count() -> int:
    """The CPUs this process may run on (a container's or taskset's limit), at least 1."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not on Linux
        return max(os.cpu_count() or 1, 1)


bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = _int("WEB_CONCURRENCY",
               min(2 * cpu_count() + 1, _int("GUNICORN_MAX_WORKERS", 16, minimum=1)), minimum=1)
threads = _int("GUNICORN_THREADS", 1, minimum=1)
# sync: gunicorn's, except that it closes a connection without waiting for the client to hang up
# (config/gunicorn_worker.py)
worker_class = "gthread" if threads > 1 else "config.gunicorn_worker.SyncWorker"
# A request taking longer than this is killed and its worker restarted (the slowest pages, a big
# event's archive export, take a few seconds); workers get this long to finish on a restart.
timeout = _int("GUNICORN_TIMEOUT", 30, minimum=1)
graceful_timeout = _int("GUNICORN_GRACEFUL_TIMEOUT", 30, minimum=1)
keepalive = _int("GUNICORN_KEEPALIVE", 5, minimum=0)
# A worker is replaced after about this many requests, give or take half as many again, so that
# memory that creeps up over an evening is given back. The requests are shared evenly, so the
# workers reach a count together: at 2,000 with a tenth of jitter the five of a 2-CPU machine,
# at a night of 320 tables (170 requests a second), were all replaced in the same second about
# once a minute, and the room's requests waited for new workers to load the application (the
# night bench's round-end bunch: every answer 3 s late). Now, at that rate, a worker lives 10 to
# 15 minutes, and the jitter spreads the replacements across minutes.
max_requests = _int("GUNICORN_MAX_REQUESTS", 20000, minimum=0)
max_requests_jitter = max_requests // 2
# The workers' heartbeat files in memory, not on a disk that may stall under load.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None  # noqa: S108
# Proxies whose X-Forwarded-* headers are believed (gunicorn's own default: local only).
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1,::1")

accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
# client, forwarded-for, time, request line, status, bytes, milliseconds, user agent
access_log_format = ('%(h)s %({x-forwarded-for}i)s %(t)s "%(r)s" %(s)s %(b)s %(M)sms '
                     '"%(a)s"')


def post_worker_init(worker: object) -> None:
    """Once a worker has loaded the application: its objects so far (Django, the apps, their
    modules: some 140,000) are moved out of the cyclic collector's reach (``gc.freeze``). They
    live as long as the worker, and every full collection scanned them again: on the pages
    that build many rows (the director screen, the event page, an archive) one request in ten
    or so paid it, 100 ms and more over its usual time (``bench/pages.py`` measures the same
    way)."""
    gc.collect()
    gc.freeze()
