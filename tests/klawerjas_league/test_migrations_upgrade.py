"""An installation migrated before the squash (2026-11-24) upgrades with nothing to apply.

The apps' migrations were squashed into one or two per app; each squashed migration names the old ones it
replaces. An installation's ``django_migrations`` table holds the old names: Django then counts the squashed
migrations as applied (docs/operate/deployment.md, Upgrading an installation). These tests hold that to the list
of every migration released before.
"""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder

pytestmark = pytest.mark.django_db

# Every migration of ours an installation could have applied before the squash, app by app.
RELEASED = {
    "appeals": ["0001_initial", "0002_translations"],
    "clubs": [
        "0001_initial",
        "0002_initial",
        "0003_role_groups",
        "0004_team_seed",
        "0005_union_straf_four_points",
        "0006_union_referee",
        "0007_union_roem_counts_straf_named_offence",
        "0008_union_appeals_discipline",
        "0009_team_draft_transfer",
        "0010_translations",
    ],
    "drives": ["0001_drive_entries_nights_rounds_tables_deals", "0002_drive_verbose_names"],
    "klawerjas_league": ["0001_initial", "0002_outbox_message", "0003_user_language"],
    "matches": [
        "0001_initial",
        "0002_played_hand",
        "0003_played_hand_table",
        "0004_team_sheet_version",
        "0005_table_devices_and_sheet",
        "0006_entries_table",
        "0007_entries_table_required",
        "0008_entries_disputes_ties",
        "0009_season",
        "0010_competition_ruleset",
        "0011_deal_line",
        "0012_translations",
        "0013_deal_line_verbose_names",
    ],
    "records": ["0001_initial", "0002_partnership_lines"],
    "referee": ["0001_initial", "0002_table_af", "0003_straf_claim_key", "0004_translations"],
    "tables": ["0001_initial", "0002_table_write_deal", "0003_translations"],
}


def _installation_before_the_squash():
    """The migrations table as an installation fully migrated before the squash has it (ours only)."""
    recorder = MigrationRecorder(connection)
    recorder.migration_qs.filter(app__in=RELEASED).delete()
    for app, names in RELEASED.items():
        for name in names:
            recorder.record_applied(app, name)


def test_an_installation_migrated_before_the_squash_has_nothing_to_apply_but_what_came_since():
    _installation_before_the_squash()
    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    planned = [migration for migration, _ in plan]
    # Nothing of before the squash is applied again: only migrations written since (issue 33 on), which replace
    # nothing and follow the squashed ones.
    assert all(not migration.replaces for migration in planned), planned
    assert all(migration.name not in RELEASED.get(migration.app_label, []) for migration in planned), planned
    assert all(int(migration.name[:4]) > len(RELEASED[migration.app_label]) for migration in planned), planned


def test_every_released_migration_is_replaced_or_kept_by_name():
    loader = MigrationLoader(None, ignore_no_migrations=True)
    kept_or_replaced = set()
    for (app, name), migration in loader.disk_migrations.items():
        kept_or_replaced.add((app, name))
        kept_or_replaced.update(migration.replaces)
    released = {(app, name) for app, names in RELEASED.items() for name in names}
    assert released - kept_or_replaced == set()


def test_a_new_installation_records_the_squashed_migrations():
    applied = set(MigrationRecorder(connection).migration_qs.filter(app="matches").values_list("name", flat=True))
    assert "0001_squashed_0013_deal_line_verbose_names" in applied
