"""Settings modules: ``base`` (embedded default), ``production`` and ``test``."""
