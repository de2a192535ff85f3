"""The words of the page's Care section (updates and backups), merged into the page
words (controller.web.page_words) so that every page is built in every language."""

from __future__ import annotations

from controller.i18n import N_

WORDS: dict[str, str] = {
    "nav.care": N_("Care"),
    "title.care": N_("Updates and backups"),
    "care.unpaired": N_("Pair this phone with the table first, on the"),
    "care.unpaired_link": N_("Live page"),
    "care.update": N_("Update"),
    "care.running": N_("Running: {release}"),
    "care.way_back": N_("Way back: {release}"),
    "care.none": N_("none"),
    "care.bundle": N_("Update bundle"),
    "care.upload": N_("Install the update"),
    "care.uploading": N_("Sending…"),
    "care.backup": N_("Backup"),
    "care.download": N_("Download a backup"),
    "care.restore_file": N_("Backup file"),
    "care.restore": N_("Restore this backup"),
    "care.confirm_restore": N_(
        "Restore this backup? The config, the games played and the saved game are replaced;"
        " a backup of them is kept on the table."
    ),
    "care.reset": N_("Factory reset"),
    "care.confirm_reset": N_(
        "Return the table to new? The config and every game played are removed; a backup of"
        " them is kept on the table."
    ),
}
