from django.apps import AppConfig


class DrawConfig(AppConfig):
    name = "draw"
    verbose_name = "Draw"

    def ready(self) -> None:
        # The fixed-partnership formats register themselves in the format registry.
        from . import pair_formats  # noqa: F401
