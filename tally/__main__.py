"""``python -m tally``: the same as the ``tally`` command."""

from tally.cli import main

main()
