// The Tweaks engine: filled in by its issue.
