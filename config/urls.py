"""URL routing, split by audience: public pages, management, table entry, API."""

from __future__ import annotations

from allauth.account import views as account_views
from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

urlpatterns = [
    # Sign-up, e-mail confirmation, sign-in, password reset (django-allauth: account_login, ...).
    path("accounts/", include("allauth.urls")),
    # The names older links and code use for the same two pages (after allauth's, which resolve).
    path("accounts/login/", account_views.login, name="login"),
    path("accounts/logout/", account_views.logout, name="logout"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script as a file: no inline script, which the
    # Content-Security-Policy would refuse.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("config.api_urls")),
    # The scripts' strings in the reader's language (static/js: gettext(), interpolate()).
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("", include("clubs.urls")),  # before public: "clubs/new/" is not a club
    path("", include("public.urls")),
    path("", include("events.urls")),
    path("", include("archive.urls")),
    path("", include("scoring.urls")),
    path("", include("conduct.urls")),
    path("", include("standings.urls")),
    path("", include("profiles.urls")),
    path("", include("privacy.urls")),
    path("", include("league.urls")),
    path("", include("following.urls")),
    path("", include("series.urls")),
    path("", include("registrations.urls")),
    path("", include("search.urls")),
]

# The styled 404 page (templates/404.html) with the reason the code gave; 403 is Django's own
# handler, which renders templates/403.html with the PermissionDenied message.
handler404 = "public.views.page_not_found"
# A database that does not answer: a 503 with Retry-After (JSON under /api/), not a 500 page.
handler500 = "public.views.server_error"
