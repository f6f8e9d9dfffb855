"""Alembic migrations for tally's database (shipped inside the package as ``tally.migrations``)."""
