// The AppState engine: filled in by its issue.
