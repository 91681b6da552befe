"""The site's URLs plus three that only the observability tests use: a view that fails, one that logs under the
request, and one that runs a task in-process and answers the request id the task saw."""

from celery import shared_task
from django.http import HttpRequest, JsonResponse
from django.urls import include, path
from django_guid import get_guid


class DeliberateFailure(RuntimeError):
    """The failure the test view raises (a 500)."""


def fail(request: HttpRequest) -> JsonResponse:
    raise DeliberateFailure("deliberate failure for the error-reporting test")


@shared_task(name="tests.request_id_seen")
def request_id_seen() -> str | None:
    """The request id the task runs under."""
    return get_guid()


def task_view(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"task": request_id_seen.delay().get(), "after": get_guid()})


urlpatterns = [
    path("observed/fail/", fail, name="observed-fail"),
    path("observed/task/", task_view, name="observed-task"),
    path("", include("klawerjas_league.urls")),
]


@shared_task(name="tests.task_fails")
def task_fails() -> None:
    """A task that fails (for the error-reporting test)."""
    raise DeliberateFailure("deliberate failure in a task")
