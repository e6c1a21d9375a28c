"""hsm-tui: a game-master tool for Heroes, Sidekicks & Minions: Relic Worlds."""

__version__ = "0.1.0"
