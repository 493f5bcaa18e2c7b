from django.apps import AppConfig


class RegistrationsConfig(AppConfig):
    name = "registrations"
    verbose_name = "Registrations: entering an event in advance, the waitlist, the door"
