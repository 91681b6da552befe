from django.contrib import admin

from plumbing.models import TaskReceipt


@admin.register(TaskReceipt)
class TaskReceiptAdmin(admin.ModelAdmin):
    list_display = ["key", "task", "worker", "created_at"]
    search_fields = ["key", "task"]
    readonly_fields = ["key", "task", "worker", "created_at"]
