"""The union office's records: invitations to a role, and registry imports waiting for confirmation.

An :class:`Invitation` is how anyone gets a role in a union (official, club secretary, referee, captain): one
e-mail with a link valid once and for ``INVITATION_VALID_DAYS`` days (``office.invitations``). The link is the
invitation's id and ``nonce`` signed with the site's secret key: a copy of the database alone opens no invitation,
and a resend (a new nonce) makes the older e-mail's link useless.

A :class:`RegistryImport` keeps an uploaded registry file between its preview and its confirmation
(``office.registry``); the confirmation reads and checks the file again, all or nothing.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy


class Invitation(models.Model):
    """An invitation to take a role in a union, sent by e-mail (issue 33).

    ``club`` is set for a club secretary, ``player`` for a captain (the player's login: SAKBOC 1.5 teams are of
    registered players, and a captain is one of them). Pending while neither accepted, revoked nor expired.
    """

    class Role(models.TextChoices):
        OFFICIAL = "official", gettext_lazy("Union official")
        SECRETARY = "secretary", gettext_lazy("Club secretary")
        REFEREE = "referee", gettext_lazy("Referee")
        CAPTAIN = "captain", gettext_lazy("Captain")

    union = models.ForeignKey("clubs.Union", on_delete=models.CASCADE, related_name="invitations",
                              verbose_name=gettext_lazy("union"))
    role = models.CharField(max_length=12, choices=Role.choices, verbose_name=gettext_lazy("role"))
    club = models.ForeignKey("clubs.Club", null=True, blank=True, on_delete=models.CASCADE,
                             related_name="invitations", verbose_name=gettext_lazy("club"))
    player = models.ForeignKey("clubs.Player", null=True, blank=True, on_delete=models.CASCADE,
                               related_name="invitations", verbose_name=gettext_lazy("player"))
    email = models.EmailField(verbose_name=gettext_lazy("e-mail"))
    first_name = models.CharField(max_length=150, verbose_name=gettext_lazy("first name"))
    last_name = models.CharField(max_length=150, verbose_name=gettext_lazy("last name"))
    nonce = models.CharField(
        max_length=32, editable=False,
        help_text=gettext_lazy("Signed into the link; new on each resend, so only the latest e-mail's link works."),
    )
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", verbose_name=gettext_lazy("invited by"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("created at"))
    sent_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("last sent at"))
    send_count = models.PositiveSmallIntegerField(default=0, verbose_name=gettext_lazy("times sent"))
    expires_at = models.DateTimeField(verbose_name=gettext_lazy("expires at"))
    accepted_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("accepted at"))
    accepted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="accepted_invitations", verbose_name=gettext_lazy("accepted by"))
    revoked_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("revoked at"))

    class Meta:
        verbose_name = gettext_lazy("invitation")
        verbose_name_plural = gettext_lazy("invitations")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(role="secretary") | models.Q(club__isnull=False),
                name="invitation_secretary_has_club",
            ),
            models.CheckConstraint(
                condition=~models.Q(role="captain") | models.Q(player__isnull=False),
                name="invitation_captain_has_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name} <{self.email}> as {self.get_role_display()}"

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def is_pending(self) -> bool:
        """Neither accepted nor revoked, and not expired."""
        return self.accepted_at is None and self.revoked_at is None and self.expires_at > timezone.now()

    @property
    def state(self) -> str:
        """``"accepted"``, ``"revoked"``, ``"expired"`` or ``"pending"``."""
        if self.accepted_at:
            return "accepted"
        if self.revoked_at:
            return "revoked"
        return "expired" if self.expires_at <= timezone.now() else "pending"


class RegistryImport(models.Model):
    """An uploaded registry file between its preview and its confirmation (``office.registry``)."""

    union = models.ForeignKey("clubs.Union", on_delete=models.CASCADE, related_name="registry_imports",
                              verbose_name=gettext_lazy("union"))
    file_name = models.CharField(max_length=200, verbose_name=gettext_lazy("file name"))
    content = models.BinaryField(verbose_name=gettext_lazy("content"))
    create_clubs = models.BooleanField(default=False, verbose_name=gettext_lazy("create missing clubs"))
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+", verbose_name=gettext_lazy("uploaded by"))
    uploaded_at = models.DateTimeField(auto_now_add=True, verbose_name=gettext_lazy("uploaded at"))
    applied_at = models.DateTimeField(null=True, blank=True, verbose_name=gettext_lazy("applied at"))
    summary = models.JSONField(default=dict, blank=True, verbose_name=gettext_lazy("summary"))

    class Meta:
        verbose_name = gettext_lazy("registry import")
        verbose_name_plural = gettext_lazy("registry imports")
        ordering = ["-uploaded_at"]

    def __str__(self) -> str:
        return f"{self.file_name} ({self.union})"
