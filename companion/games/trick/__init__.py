"""Twenty One, the trick game: the rules, their moves and the table translator."""
