"""Registration pages: the public form, the personal link, the door, the director's list."""

from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("events/<int:pk>/register/", views.register, name="event-register"),
    path("events/<int:pk>/registered/", views.door, name="event-registered"),
    path("events/<int:pk>/registrations/", views.manage, name="event-registrations"),
    path("events/<int:pk>/registrations/check-in/", views.check_in_all,
         name="registrations-check-in"),
    path("events/<int:pk>/registrations/<int:rid>/<str:action>/", views.act,
         name="registration-act"),
    path("registrations/<str:token>/", views.mine, name="registration-mine"),
]
