// The Containers engine: filled in by its issue.
