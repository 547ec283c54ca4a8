"""Scores and leaderboards from the game store.

Every finished game leaves one result per player (points, won, and for single-player
21X the time). From those: match standings within a session (a match of N games is a
session with ``games_planned = N``; the most points wins), each player's totals per
game, single-player 21X best times and solitaire high scores.

>>> from companion.engine.store import Store
>>> store = Store(":memory:")
>>> game = store.new_game("21x-solo", started_at=0.0)
>>> store.finish(game, {"over": True, "winners": ["ann"], "points": {"ann": 22}, "time": 95.5})
>>> best_times(store)
[Entry(player='ann', value=95.5, game_id=1)]
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from companion.engine.store import Store

SOLO_GAME = "21x-solo"
HIGH_SCORE_GAMES = ("solitaire",)


@dataclass(frozen=True)
class Entry:
    """One leaderboard line: who, the figure (seconds or points) and which game."""

    player: str
    value: float
    game_id: int


@dataclass(frozen=True)
class Standing:
    """One player's line in a session or overall: games played, won, and points."""

    player: str
    games: int
    wins: int
    points: int


@dataclass(frozen=True)
class Match:
    """A session's standings; ``over`` once ``games_planned`` games have finished."""

    session_id: int
    games_planned: int | None
    games_played: int
    standings: list[Standing]

    @property
    def over(self) -> bool:
        """True when the agreed number of games has been played."""
        return self.games_planned is not None and self.games_played >= self.games_planned

    @property
    def leaders(self) -> list[str]:
        """The players with the most points (the winners once the match is over)."""
        if not self.standings:
            return []
        best = self.standings[0].points
        return [s.player for s in self.standings if s.points == best]


def best_times(store: Store, game: str = SOLO_GAME, limit: int | None = 10) -> list[Entry]:
    """Fastest finished single-player games, fastest first (all of them if ``limit`` is None)."""
    entries = [Entry(r.player, r.time, r.game_id) for r in store.results(game=game)
               if r.won and r.time is not None]
    return sorted(entries, key=lambda e: (e.value, e.game_id))[:limit]


def personal_bests(store: Store, game: str = SOLO_GAME) -> dict[str, float]:
    """Each player's best single-player time."""
    bests: dict[str, float] = {}
    for entry in best_times(store, game, limit=None):
        bests.setdefault(entry.player, entry.value)
    return bests


def high_scores(store: Store, game: str, limit: int = 10) -> list[Entry]:
    """Highest points in finished games of ``game``, highest first."""
    entries = [Entry(r.player, float(r.points), r.game_id) for r in store.results(game=game)]
    return sorted(entries, key=lambda e: (-e.value, e.game_id))[:limit]


def standings(store: Store, game: str | None = None, session_id: int | None = None,
              ) -> list[Standing]:
    """Games, wins and points per player, most points first."""
    table: dict[str, Standing] = {}
    for r in store.results(game=game, session_id=session_id):
        old = table.get(r.player, Standing(r.player, 0, 0, 0))
        table[r.player] = Standing(r.player, old.games + 1, old.wins + r.won,
                                   old.points + r.points)
    return sorted(table.values(), key=lambda s: (-s.points, -s.wins, s.player))


def match(store: Store, session_id: int) -> Match:
    """The standings of one session's match."""
    played = {r.game_id for r in store.results(session_id=session_id)}
    return Match(session_id=session_id,
                 games_planned=store.session_games_planned(session_id),
                 games_played=len(played),
                 standings=standings(store, session_id=session_id))


def leaderboards(store: Store) -> dict[str, Any]:
    """Everything ``companion scores`` shows, JSON-ready."""
    games = sorted({record.game for record in store.games() if record.finished})
    return {
        "best_times": {SOLO_GAME: [asdict(e) for e in best_times(store)]},
        "personal_bests": personal_bests(store),
        "high_scores": {g: [asdict(e) for e in high_scores(store, g)]
                        for g in HIGH_SCORE_GAMES},
        "standings": {g: [asdict(s) for s in standings(store, game=g)] for g in games},
        "matches": [_match_json(match(store, session)) for session in store.sessions()
                    if store.session_games_planned(session) is not None],
    }


def _match_json(result: Match) -> dict[str, Any]:
    return {"session": result.session_id, "games_planned": result.games_planned,
            "games_played": result.games_played, "over": result.over,
            "leaders": result.leaders, "standings": [asdict(s) for s in result.standings]}
