"""Test-scene generators: synthetic table scenes with exact truth (not used at run time)."""
