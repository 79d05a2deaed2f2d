"""The doors: records (JSONL/CSV) and the command line. The top layer."""
