"""Model training: builds the shipped glyph model and taught ones (not used at run time)."""
