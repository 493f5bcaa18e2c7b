from django.apps import AppConfig


class StandingsConfig(AppConfig):
    name = "standings"
    verbose_name = "Standings"
