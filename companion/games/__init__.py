"""One module per game's rules, each a pure reducer over the event log (see base.py)."""
