"""21X for two or more players: the rules, their moves and the table translator."""
