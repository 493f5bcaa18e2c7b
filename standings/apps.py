from django.apps import AppConfig


class StandingsConfig(AppConfig):
    name = "standings"
    verbose_name = "Standings"

    def ready(self) -> None:
        from . import signals  # noqa: F401 - connects the receivers
