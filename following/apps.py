from django.apps import AppConfig


class FollowingConfig(AppConfig):
    name = "following"
    verbose_name = "Following: a player told where to sit, on their own phone"

    def ready(self) -> None:
        from . import signals  # noqa: F401 (connects the receivers)
