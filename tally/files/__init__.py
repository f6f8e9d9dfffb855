"""Files an event comes in and goes out as: event folders (``event.toml`` and ``.deal``
records), the JSON and CSV exports and FIDE's TRF-16.

docs/file-formats.md describes each format.
"""
