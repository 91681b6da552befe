"""``python manage.py demo_data``: load the demonstration data (idempotent)."""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

DEMO_PASSWORD = "klawerjas-demo"
DEMO_ACCOUNTS = [
    # username, first name, last name, is_superuser
    ("official", "Fatima", "Abrahams", True),
]


class Command(BaseCommand):
    help = "Load the demonstration data and print the demo accounts. Safe to run again."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        for username, first_name, last_name, is_superuser in DEMO_ACCOUNTS:
            user, created = user_model.objects.get_or_create(
                username=username,
                defaults={"first_name": first_name, "last_name": last_name, "email": f"{username}@example.org"},
            )
            if created:
                user.is_staff = user.is_superuser = is_superuser
                user.set_password(DEMO_PASSWORD)
                user.save()
        self.stdout.write(self.style.SUCCESS("Demo data loaded."))
        self.stdout.write(f"Demo accounts (password for each: {DEMO_PASSWORD}):")
        for username, first_name, last_name, _ in DEMO_ACCOUNTS:
            self.stdout.write(f"  {username:<10} {first_name} {last_name}")
