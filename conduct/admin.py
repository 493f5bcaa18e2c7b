from django.contrib import admin

from .models import Appeal, DirectorCall, Penalty, PenaltyTable

admin.site.register(Penalty)
admin.site.register(Appeal)
admin.site.register(PenaltyTable)
admin.site.register(DirectorCall)
