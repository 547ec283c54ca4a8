"""The game-neutral engine: events, the durable log, the referee, replay, timers, scores.

Nothing here knows a game's rules: those live in :mod:`companion.games`, one package per game.
"""
