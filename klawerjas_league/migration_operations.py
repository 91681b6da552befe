"""Migration operations of our own.

:class:`NamesOnly` applies many ``AlterField``/``AlterModelOptions`` operations that change only what the database
never sees (verbose names, help texts, choices: Django's ``non_db_attrs``), such as marking every field's name for
translation (issue 19). Django's own operations each re-render the changed model and its relations in the
migration state, several hundred times over for a whole app (about 45 s of a fresh SQLite database's ``migrate``);
this runs them against the state with its rendered models set aside, so they are rendered once, when next needed.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations


class NamesOnly(migrations.SeparateDatabaseAndState):
    """``SeparateDatabaseAndState(state_operations=...)`` with no database operations, rendered once.

    Use it only for operations that change no column, index or constraint: the database is not touched.
    """

    def __init__(self, operations: list[Any]) -> None:
        super().__init__(state_operations=operations)

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        return self.__class__.__qualname__, [self.state_operations], {}

    def state_forwards(self, app_label: str, state: Any) -> None:
        state.__dict__.pop("apps", None)  # the rendered models: rendered afresh from the state when next asked for
        super().state_forwards(app_label, state)

    def describe(self) -> str:
        return f"Names, help texts and choices of {len(self.state_operations)} fields and models (no schema change)"
