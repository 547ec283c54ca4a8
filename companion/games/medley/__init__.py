"""Mountainside Math Medley: the rules, their moves and the table translator."""
