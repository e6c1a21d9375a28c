"""Shared by every test: a GM's own ``HSM_SAVES`` must not steer where tests write, and
the data folder (saves outside a checkout) and the cache folder (the packs as last
loaded) are the run's own, not the user's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _no_saves_folder_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HSM_SAVES", raising=False)


@pytest.fixture(autouse=True, scope="session")
def _a_data_folder_of_the_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Where saves go with no ``saves/`` here and no ``HSM_SAVES``: never the user's own."""
    folder = tmp_path_factory.mktemp("data")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(folder))
        yield folder


@pytest.fixture(autouse=True, scope="session")
def _a_cache_folder_of_the_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Children the tests start inherit it too (``hsm`` run as a process)."""
    folder = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HSM_CACHE_DIR", str(folder))
        yield folder


@pytest.fixture(autouse=True, scope="session")
def _forecast_workers_can_start() -> Iterator[None]:
    """As ``hsm`` does before its app takes stderr (``fight_pool.before_apps``), so that
    the apps the tests run play forecasts in worker processes, as the GM's does."""
    from hsm_tui.forecast import fight_pool

    fight_pool.before_apps()
    yield
    fight_pool.stop()
