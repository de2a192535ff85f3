"""The table's backup: one file holding what the family would miss (controller.backup.archive)."""
