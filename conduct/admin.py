from django.contrib import admin

from .models import Appeal, Penalty, PenaltyTable

admin.site.register(Penalty)
admin.site.register(Appeal)
admin.site.register(PenaltyTable)
