from django.apps import AppConfig


class DrawConfig(AppConfig):
    name = "draw"
    verbose_name = "Draw"

    def ready(self) -> None:
        from . import signals  # noqa: F401 - connects the wall screens' nudges
