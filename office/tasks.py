"""The union office's Celery tasks (found by ``app.autodiscover_tasks()``): the invitation e-mail."""

from office.invitations import invitation_email_send

__all__ = ["invitation_email_send"]
