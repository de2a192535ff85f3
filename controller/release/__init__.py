"""Releases side by side, signed update bundles, and the way back (docs/install.md, "Updating")."""
