"""URL routing, split by audience: public pages, management, table entry, API."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

urlpatterns = [
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("config.api_urls")),
    path("", include("clubs.urls")),  # before public: "clubs/new/" is not a club
    path("", include("public.urls")),
    path("", include("draw.urls")),
    path("", include("scoring.urls")),
    path("", include("standings.urls")),
]
