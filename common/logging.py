"""Logging filters named by ``LOGGING`` in the settings."""

from __future__ import annotations

import logging


class NoTracebackFor4xx(logging.Filter):
    """Keep a refused request (403 and the like) to its one line: Django logs the
    ``PermissionDenied`` behind every 403 with its traceback, which says nothing the line does
    not and buries real errors. 5xx records keep theirs."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and 400 <= status < 500:
            record.exc_info = None
            record.exc_text = None
        return True
