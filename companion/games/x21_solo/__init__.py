"""21X single player against the stopwatch: the rules, their moves and the table translator."""
