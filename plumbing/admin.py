from typing import TYPE_CHECKING

from django.contrib import admin

from plumbing.models import TaskReceipt

if TYPE_CHECKING:  # Django's ModelAdmin is generic to the type checker only
    TaskReceiptAdminBase = admin.ModelAdmin[TaskReceipt]
else:
    TaskReceiptAdminBase = admin.ModelAdmin


@admin.register(TaskReceipt)
class TaskReceiptAdmin(TaskReceiptAdminBase):
    """The task receipts, read-only: which task ran for which key, on which worker and when."""

    list_display = ["key", "task", "worker", "created_at"]
    search_fields = ["key", "task"]
    readonly_fields = ["key", "task", "worker", "created_at"]
