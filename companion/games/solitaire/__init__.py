"""Twenty One solitaire: the rules, their moves and the table translator."""
