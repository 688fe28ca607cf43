// The Preferences engine: filled in by its issue.
