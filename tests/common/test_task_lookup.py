"""The first task a web process queues imports the apps' task modules
(``common.tasks.task_by_name``) and leaves the process's logging as it was: looking a task up
must not run ``django.setup()`` again, which would replace every handler of the root logger in
the middle of a request. Run in a fresh interpreter, where no task module is imported yet."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

LOOKUP = """
import logging
import django
django.setup()
from celery import current_app
from common.tasks import STANDINGS_UPDATE, task_by_name
before = STANDINGS_UPDATE in current_app.tasks
marker = logging.NullHandler()
logging.getLogger().addHandler(marker)
task = task_by_name(STANDINGS_UPDATE)
print(before, task.name, marker in logging.getLogger().handlers)
"""


def test_the_first_task_looked_up_is_found_and_the_logging_stays_as_it_was() -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    done = subprocess.run([sys.executable, "-c", LOOKUP], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    before, name, kept = done.stdout.split()[-3:]
    assert before == "False"  # nothing imported the task modules yet: the lookup does
    assert name == "standings.tasks.compute_standings"
    assert kept == "True", "looking a task up configured the logging anew"
