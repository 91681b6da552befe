"""Which table a request may write: the one access helper of the table pages and the table API.

A device is signed in for one table of one match (``matches.night.table_links``): the pages keep it in the session
(``request.session["table_device"]``), the API sends ``Authorization: Table <key>``. Either way the device may
write only its own table's boem sheet, and only while its link is active and its match not over; anything
else answers "signed out" (the pages send the device back to ``/table/`` with the reason; the API answers 401).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest

from matches.models import BoemEntry, TableDevice
from matches.night.table_links import device_seen, link_valid

SESSION_KEY = "table_device"


class DeviceSignedOut(Exception):
    """The request has no valid table device; ``str()`` says why, in words for the table."""


def device_sign_in(request: HttpRequest, device: TableDevice) -> None:
    """Keep ``device`` in the page session (a new session key, as a sign-in should)."""
    request.session.cycle_key()
    request.session[SESSION_KEY] = device.pk


def device_sign_out(request: HttpRequest) -> None:
    """Forget the page session's device."""
    request.session.pop(SESSION_KEY, None)


def _checked(device: TableDevice | None) -> TableDevice:
    if device is None:
        raise DeviceSignedOut("This device is not signed in at a table: type the table's code from its card.")
    problem = link_valid(device.link)
    if problem:
        raise DeviceSignedOut(problem)
    device_seen(device)
    return device


def _load(**lookup: object) -> TableDevice | None:
    return (TableDevice.objects.select_related("link__match__competition__union", "link__match__home",
                                               "link__match__away").filter(**lookup).first())


def device_for_session(request: HttpRequest) -> TableDevice:
    """The page session's device, if its link still signs in.

    :raises DeviceSignedOut: none, revoked, or its match is over (the session is cleared).
    """
    pk = request.session.get(SESSION_KEY)
    try:
        return _checked(_load(pk=pk) if isinstance(pk, int) else None)
    except DeviceSignedOut:
        device_sign_out(request)
        raise


def device_for_key(key: str) -> TableDevice:
    """The API's device for ``Authorization: Table <key>``.

    :raises DeviceSignedOut: no such key, revoked, or its match is over.
    """
    from matches.night.table_links import key_hash

    return _checked(_load(key_hash=key_hash(key)) if key else None)


def table_entry(*, device: TableDevice, entry_id: int) -> BoemEntry:
    """A line of the device's own table, to confirm or dispute.

    :raises Http404: no such line, or another table's ("not yours" answers like "not there").
    """
    entry = BoemEntry.objects.select_related("table", "team").filter(
        pk=entry_id, table__match_id=device.link.match_id, table__number=device.link.table_number).first()
    if entry is None:
        raise Http404("No such line at this table.")
    return entry
