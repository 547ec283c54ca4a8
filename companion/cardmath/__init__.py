"""The 21X card mathematics: expressions, exact hand values, the solver, catalogues, sequences."""
