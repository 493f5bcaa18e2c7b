"""Load benchmark of the production stack (``make bench-load``; see ``bench/load/run.py``).

Modules: ``harness`` (pure: percentiles, CPU accounting from /proc, end-to-end visibility,
the report), ``hands`` (legal hands for a ruleset, from the rules engine alone), ``stack``
(PostgreSQL, Redis, gunicorn, Celery worker and beat on free loopback ports, stopped by pid),
``data`` (a Django script: the club, the event, its seated round; the checksum after a run),
``phones`` (the locust users: the table's scorer phone, standings phones, wall screens) and
``run`` (the command). Only ``run`` and ``phones`` import locust (and so gevent's patching).
"""
