"""The app's tables as of 2026-11-24, squashed from the migrations named in ``replaces`` (see README, Upgrading)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

ROLE_GROUPS = ("Union officials", "Club secretaries", "Captains", "Referees")


def create_groups(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for name in ROLE_GROUPS:
        Group.objects.get_or_create(name=name)


def remove_groups(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.filter(name__in=ROLE_GROUPS, user__isnull=True).delete()


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('clubs', '0002_initial'),
        ('clubs', '0003_role_groups'),
        ('clubs', '0004_team_seed'),
        ('clubs', '0005_union_straf_four_points'),
        ('clubs', '0006_union_referee'),
        ('clubs', '0007_union_roem_counts_straf_named_offence'),
        ('clubs', '0008_union_appeals_discipline'),
        ('clubs', '0009_team_draft_transfer'),
        ('clubs', '0010_translations'),
    ]

    dependencies = [
        ('clubs', '0001_initial'),
        ('matches', '0001_squashed_0013_deal_line_verbose_names'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ('auth', '0012_alter_user_first_name_max_length'),
    ]

    operations = [
        migrations.AddField(
            model_name='historicalteam',
            name='competition',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='matches.competition', verbose_name='competition'),
        ),
        migrations.AddField(
            model_name='historicalteam',
            name='history_user',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='historicalteammembership',
            name='competition',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='matches.competition', verbose_name='competition'),
        ),
        migrations.AddField(
            model_name='historicalteammembership',
            name='history_user',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='historicaltransfer',
            name='from_club',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.club', verbose_name='from club'),
        ),
        migrations.AddField(
            model_name='historicaltransfer',
            name='history_user',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='historicaltransfer',
            name='recorded_by',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='recorded by'),
        ),
        migrations.AddField(
            model_name='historicaltransfer',
            name='to_club',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.club', verbose_name='to club'),
        ),
        migrations.AddField(
            model_name='historicalunion',
            name='history_user',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='player',
            name='club',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='players', to='clubs.club', verbose_name='club'),
        ),
        migrations.AddField(
            model_name='player',
            name='user',
            field=models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='player', to=settings.AUTH_USER_MODEL, verbose_name='user'),
        ),
        migrations.AddField(
            model_name='historicaltransfer',
            name='player',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.player', verbose_name='player'),
        ),
        migrations.AddField(
            model_name='historicalteammembership',
            name='player',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.player', verbose_name='player'),
        ),
        migrations.AddField(
            model_name='historicalteam',
            name='captain',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.player', verbose_name='captain'),
        ),
        migrations.AddField(
            model_name='historicaldisciplinaryrecord',
            name='player',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.player', verbose_name='player'),
        ),
        migrations.AddField(
            model_name='disciplinaryrecord',
            name='player',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='disciplinary_records', to='clubs.player', verbose_name='player'),
        ),
        migrations.AddField(
            model_name='team',
            name='captain',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='captained_teams', to='clubs.player', verbose_name='captain'),
        ),
        migrations.AddField(
            model_name='team',
            name='carried_over_from',
            field=models.ForeignKey(blank=True, help_text="Last season's team this one was carried over from.", null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='carried_over_to', to='clubs.team', verbose_name='carried over from'),
        ),
        migrations.AddField(
            model_name='team',
            name='club',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='teams', to='clubs.club', verbose_name='club'),
        ),
        migrations.AddField(
            model_name='team',
            name='competition',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='teams', to='matches.competition', verbose_name='competition'),
        ),
        migrations.AddField(
            model_name='historicalteammembership',
            name='team',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.team', verbose_name='team'),
        ),
        migrations.AddField(
            model_name='historicalteam',
            name='carried_over_from',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text="Last season's team this one was carried over from.", null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.team', verbose_name='carried over from'),
        ),
        migrations.AddField(
            model_name='historicaldisciplinaryrecord',
            name='team',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.team', verbose_name='team'),
        ),
        migrations.AddField(
            model_name='disciplinaryrecord',
            name='team',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='disciplinary_records', to='clubs.team', verbose_name='team'),
        ),
        migrations.AddField(
            model_name='teammembership',
            name='competition',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='matches.competition', verbose_name='competition'),
        ),
        migrations.AddField(
            model_name='teammembership',
            name='player',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='memberships', to='clubs.player', verbose_name='player'),
        ),
        migrations.AddField(
            model_name='teammembership',
            name='team',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to='clubs.team', verbose_name='team'),
        ),
        migrations.AddField(
            model_name='team',
            name='players',
            field=models.ManyToManyField(related_name='teams', through='clubs.TeamMembership', to='clubs.player', verbose_name='players'),
        ),
        migrations.AddField(
            model_name='transfer',
            name='from_club',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='transfers_out', to='clubs.club', verbose_name='from club'),
        ),
        migrations.AddField(
            model_name='transfer',
            name='player',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='transfers', to='clubs.player', verbose_name='player'),
        ),
        migrations.AddField(
            model_name='transfer',
            name='recorded_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='recorded by'),
        ),
        migrations.AddField(
            model_name='transfer',
            name='to_club',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='transfers_in', to='clubs.club', verbose_name='to club'),
        ),
        migrations.AddField(
            model_name='union',
            name='appeals_committee',
            field=models.ManyToManyField(blank=True, help_text='Officials who hear appeals (through AppealsCommitteeMember); when none are named, every official of the union hears them.', related_name='appeals_committee_of_unions', through='clubs.AppealsCommitteeMember', to=settings.AUTH_USER_MODEL, verbose_name='appeals committee'),
        ),
        migrations.AddField(
            model_name='player',
            name='union',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='players', to='clubs.union', verbose_name='union'),
        ),
        migrations.AddField(
            model_name='historicalplayer',
            name='union',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.union', verbose_name='union'),
        ),
        migrations.AddField(
            model_name='historicaldisciplinaryrecord',
            name='union',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.union', verbose_name='union'),
        ),
        migrations.AddField(
            model_name='historicalclub',
            name='union',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.union', verbose_name='union'),
        ),
        migrations.AddField(
            model_name='disciplinaryrecord',
            name='union',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='disciplinary_records', to='clubs.union', verbose_name='union'),
        ),
        migrations.AddField(
            model_name='club',
            name='union',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='clubs', to='clubs.union', verbose_name='union'),
        ),
        migrations.AddField(
            model_name='appealscommitteemember',
            name='union',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='appeals_committee_links', to='clubs.union', verbose_name='union'),
        ),
        migrations.AddField(
            model_name='unionofficial',
            name='union',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='official_links', to='clubs.union', verbose_name='union'),
        ),
        migrations.AddField(
            model_name='unionofficial',
            name='user',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='union_official_links', to=settings.AUTH_USER_MODEL, verbose_name='user'),
        ),
        migrations.AddField(
            model_name='union',
            name='officials',
            field=models.ManyToManyField(blank=True, help_text='Union officials who run this union (through UnionOfficial).', related_name='official_of_unions', through='clubs.UnionOfficial', to=settings.AUTH_USER_MODEL, verbose_name='officials'),
        ),
        migrations.AddField(
            model_name='unionreferee',
            name='union',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='referee_links', to='clubs.union', verbose_name='union'),
        ),
        migrations.AddField(
            model_name='unionreferee',
            name='user',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='union_referee_links', to=settings.AUTH_USER_MODEL, verbose_name='user'),
        ),
        migrations.AddConstraint(
            model_name='clubsecretary',
            constraint=models.UniqueConstraint(fields=('club', 'user'), name='club_secretary_unique'),
        ),
        migrations.AddConstraint(
            model_name='teammembership',
            constraint=models.UniqueConstraint(fields=('competition', 'player'), name='membership_one_team_per_competition'),
        ),
        migrations.AddConstraint(
            model_name='team',
            constraint=models.UniqueConstraint(fields=('competition', 'name'), name='team_unique_name_in_competition'),
        ),
        migrations.AddConstraint(
            model_name='transfer',
            constraint=models.CheckConstraint(condition=models.Q(('from_club', models.F('to_club')), _negated=True), name='transfer_changes_club'),
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.UniqueConstraint(fields=('union', 'registration_number'), name='player_unique_registration_in_union'),
        ),
        migrations.AddConstraint(
            model_name='disciplinaryrecord',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('club__isnull', True), ('player__isnull', False), ('team__isnull', True)), models.Q(('club__isnull', True), ('player__isnull', True), ('team__isnull', False)), models.Q(('club__isnull', False), ('player__isnull', True), ('team__isnull', True)), _connector='OR'), name='disciplinary_record_one_subject'),
        ),
        migrations.AddConstraint(
            model_name='club',
            constraint=models.UniqueConstraint(fields=('union', 'name'), name='club_unique_name_in_union'),
        ),
        migrations.AddConstraint(
            model_name='appealscommitteemember',
            constraint=models.UniqueConstraint(fields=('union', 'user'), name='appeals_committee_member_unique'),
        ),
        migrations.AddConstraint(
            model_name='unionofficial',
            constraint=models.UniqueConstraint(fields=('union', 'user'), name='union_official_unique'),
        ),
        migrations.AddConstraint(
            model_name='unionreferee',
            constraint=models.UniqueConstraint(fields=('union', 'user'), name='union_referee_unique'),
        ),
        migrations.RunPython(create_groups, remove_groups),
    ]
