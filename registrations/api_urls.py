from __future__ import annotations

from django.urls import path

from . import api

BASE = "events/<int:pk>/registrations/"

urlpatterns = [
    path(BASE, api.RegistrationsApi.as_view(), name="api-registrations"),
    path(BASE + "settings/", api.RegistrationSettingsApi.as_view(),
         name="api-registration-settings"),
    path(BASE + "link/", api.RegistrationLinkApi.as_view(), name="api-registration-link"),
    path(BASE + "check-in/", api.RegistrationsCheckInApi.as_view(),
         name="api-registrations-check-in"),
    path(BASE + "<int:rid>/", api.RegistrationApi.as_view(), name="api-registration"),
    path(BASE + "<int:rid>/confirm/", api.RegistrationConfirmApi.as_view(),
         name="api-registration-confirm"),
    path(BASE + "<int:rid>/approve/", api.RegistrationApproveApi.as_view(),
         name="api-registration-approve"),
    path(BASE + "<int:rid>/refuse/", api.RegistrationRefuseApi.as_view(),
         name="api-registration-refuse"),
    path(BASE + "<int:rid>/paid/", api.RegistrationPaidApi.as_view(),
         name="api-registration-paid"),
    path(BASE + "<int:rid>/withdraw/", api.RegistrationWithdrawApi.as_view(),
         name="api-registration-withdraw"),
    path(BASE + "<int:rid>/here/", api.RegistrationHereApi.as_view(),
         name="api-registration-here"),
]
