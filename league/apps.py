from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "League: seasons, leaderboards and ratings"

    def ready(self) -> None:
        from . import signals  # noqa: F401 (connects the receivers)
