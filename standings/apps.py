from django.apps import AppConfig


class StandingsConfig(AppConfig):
    name = "standings"
    verbose_name = "Standings"

    def ready(self) -> None:
        from common.standings_status import status_before_announce

        from . import signals  # noqa: F401 - connects the receivers
        from .fragments import bodies_warm_before_announce

        status_before_announce(bodies_warm_before_announce)
