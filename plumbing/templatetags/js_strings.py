"""The words the site's scripts write on the page, in the reader's language (issue 19).

The table's offline queue (``static/js/table-queue.js``), the offline banner (``static/js/offline.js``) and the
referee console's card picker (``referee/static/referee/console.js``) write text of their own. The site's
Content Security Policy forbids inline scripts and a table device must work without a network, so the words are
not fetched: ``{% js_strings %}`` renders them into the page as a ``<script type="application/json"
id="js-strings">`` block (``{English msgid: translation}``), translated by the ``django`` catalogue like any
template string, and kept with the page by the service worker. Each script's ``t(msgid, params)`` looks its
words up there (falling back to the English) and fills ``%(name)s`` placeholders.
"""

from __future__ import annotations

from django import template
from django.utils.html import json_script
from django.utils.safestring import SafeString
from django.utils.translation import gettext, gettext_noop

register = template.Library()

#: Every msgid a script uses; ``gettext_noop`` marks them for ``makemessages``. Keep in step with the scripts.
JS_STRINGS: tuple[str, ...] = (
    # static/js/table-queue.js
    gettext_noop("%(team)s on %(strokes)s"),
    gettext_noop("Confirmation of %(label)s"),
    gettext_noop("Dispute of %(label)s: “%(reason)s”"),
    gettext_noop("Already received: %(message)s"),
    gettext_noop("The server refused this phone's entries (its session ended): open the table again with its "
                 "code. The entries below wait on this phone and are sent then."),
    gettext_noop("This phone is signed out of the table (the referee may have issued a new link): open the table "
                 "again with its code. The entries below wait on this phone and are sent then."),
    gettext_noop("A new boem, waiting to send"),
    gettext_noop("dotted: waiting to send"),
    gettext_noop("Boem %(number)s · waiting to send"),
    gettext_noop("%(label)s: waiting to send"),
    gettext_noop("confirmation waiting to send"),
    gettext_noop("dispute waiting to send"),
    gettext_noop("The sheet now (another phone or the referee)"),
    gettext_noop("The sheet now"),
    gettext_noop("No lines yet."),
    gettext_noop("Conflict: the sheet changed on another phone or at the referee's while this one waited"),
    gettext_noop("Conflict: the sheet is not as this phone last saw it"),
    gettext_noop("Conflict: settled already"),
    gettext_noop("Could not be read"),
    gettext_noop("Conflict: this entry's id was used for another entry"),
    gettext_noop("refused: %(reason)s"),
    gettext_noop("refused: settle it"),
    gettext_noop("It was cut before the interval: send it"),
    gettext_noop("Send it again"),
    gettext_noop("conflict: settle it"),
    gettext_noop("waiting to send (after the conflict above)"),
    gettext_noop("waiting to send"),
    gettext_noop("entered %(time)s"),
    gettext_noop("This phone's entry"),
    gettext_noop("%(label)s (entered %(time)s, on the sheet as it was then)"),
    gettext_noop("Send mine on the sheet as it is now"),
    gettext_noop("OK: drop mine"),
    gettext_noop("Drop mine"),
    gettext_noop("Confirm: I am %(telman)s"),
    gettext_noop("Dispute…"),
    gettext_noop("Only %(telman)s, %(team)s's telman, confirms or disputes this."),
    gettext_noop("Conflict: %(label)s"),
    gettext_noop("Waiting to send: %(label)s"),
    gettext_noop("To settle on this phone"),
    gettext_noop("Waiting to send (%(count)s)"),
    gettext_noop("The server did not take an entry as it stood: compare both versions and choose. The rest wait "
                 "behind it."),
    gettext_noop("Kept on this phone; sent by itself, in order, as soon as the network returns."),
    # static/js/offline.js
    gettext_noop("No network: the last known state of every table, as of %(time)s. Stale until the network "
                 "returns."),
    gettext_noop("No network: the last known state of every table. Stale until the network returns."),
    gettext_noop("No network: the sheet as it was at %(time)s. What you enter waits on this phone and is sent by "
                 "itself when the network returns."),
    gettext_noop("No network: the sheet as it was. What you enter waits on this phone and is sent by itself when "
                 "the network returns."),
    # referee/static/referee/console.js
    gettext_noop("seat %(seat)s"),
)


def js_strings_catalogue() -> dict[str, str]:
    """``{msgid: translation}`` of :data:`JS_STRINGS` in the active language (``{msgid: msgid}`` in English)."""
    return {msgid: gettext(msgid) for msgid in JS_STRINGS}


@register.simple_tag
def js_strings() -> SafeString:
    """The ``<script type="application/json" id="js-strings">`` block of :func:`js_strings_catalogue`."""
    return json_script(js_strings_catalogue(), "js-strings")
