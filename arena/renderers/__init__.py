"""Pure functions from events to text: the files, logs and statistics arena writes."""
