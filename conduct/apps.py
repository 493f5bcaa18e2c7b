from django.apps import AppConfig


class ConductConfig(AppConfig):
    name = "conduct"
    verbose_name = "Conduct"

    def ready(self) -> None:
        from . import signals  # noqa: F401 - connects the receivers
