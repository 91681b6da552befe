"""The registry page's upload form (parsing only: ``office.registry`` reads and checks the file)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from office.registry import MAX_FILE_BYTES, RegistryFileError, RegistryRow, registry_read


class RegistryUploadForm(forms.Form):
    """A registry file to preview; ``cleaned_data["rows"]`` holds its rows once valid.

    :raises: nothing; a file over 5 MB, unreadable or without the required columns is an error on ``file``.
    """

    file = forms.FileField(
        label=gettext_lazy("Registry file"),
        help_text=gettext_lazy("An Excel workbook (.xlsx) or a CSV file, at most 5 MB and 5,000 players."),
        widget=forms.ClearableFileInput(attrs={"accept": ".xlsx,.csv,text/csv,application/vnd.openxmlformats-"
                                                         "officedocument.spreadsheetml.sheet"}),
    )
    create_clubs = forms.BooleanField(
        required=False, label=gettext_lazy("Create missing clubs"),
        help_text=gettext_lazy("Otherwise a row naming a club the union does not have is refused."),
    )

    def clean(self) -> dict:
        super().clean()
        data = self.cleaned_data
        upload = data.get("file")
        if upload is None:
            return data
        if upload.size > MAX_FILE_BYTES:
            self.add_error("file", gettext_lazy("The file is over 5 MB: the most a registry file may be is 5 MB."))
            return data
        content = upload.read()
        try:
            rows: list[RegistryRow] = registry_read(content=content, file_name=upload.name or "")
        except RegistryFileError as error:
            self.add_error("file", str(error))
            return data
        data["content"], data["rows"] = content, rows
        return data
