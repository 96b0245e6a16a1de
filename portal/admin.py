from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from portal.models import FeeStatus, ReminderLog


@admin.register(ReminderLog)
class ReminderLogAdmin(admin.ModelAdmin):
    list_display = ["sent_at", "kind", "object_type", "object_id", "offset", "subject"]
    list_filter = ["kind"]
    search_fields = ["subject"]

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(FeeStatus)
class FeeStatusAdmin(SimpleHistoryAdmin):
    list_display = ["object_type", "object_id", "kind", "collected_on", "passed_to_ubf_on"]
    list_filter = ["kind", "object_type"]
