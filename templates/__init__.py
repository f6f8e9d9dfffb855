"""Jinja2 templates for tally's printed sheets (shipped as ``tally.templates``)."""
