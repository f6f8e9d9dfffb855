"""``tally publish``: the results as a static web site a club can put on any host.

Plain HTML and CSS, no script, nothing from another host, relative links only (it works
from ``file://`` and from any sub-path): an index of the events and series, a page per
event (standings, rounds, cross-table, bracket, prizes), per player, per match, per recorded
deal (its ruling, and its analysis with ``--analyse``) and per series.

Every page is made by the builders the printed sheets use (:mod:`tally.sheets.build`,
:mod:`tally.sheets.knockout`, :mod:`tally.sheets.ratings`) and their templates, in a frame of
its own (``templates/publish/``): one path for standings, tiebreaks and rulings.

- :mod:`tally.publish.site`: the pages, as bytes by their path in the site;
- :mod:`tally.publish.privacy`: private players by their initials;
- :mod:`tally.publish.writing`: writing only the files that changed;
- :mod:`tally.publish.watch`: publishing again whenever the store changes.
"""
