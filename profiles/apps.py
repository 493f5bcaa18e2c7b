from django.apps import AppConfig


class ProfilesConfig(AppConfig):
    name = "profiles"
    verbose_name = "Player profiles across events"

    def ready(self) -> None:
        from . import signals  # noqa: F401 - connects the receivers
