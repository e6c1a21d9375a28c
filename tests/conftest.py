"""Shared by every test: a GM's own ``HSM_SAVES`` must not steer where tests write, and
the data folder (saves outside a checkout) and the cache folder (the packs as last
loaded) are the run's own, not the user's."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _no_saves_folder_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HSM_SAVES", raising=False)


@pytest.fixture(autouse=True, scope="session")
def _folders_of_the_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The data folder (saves with no ``saves/`` here and no ``HSM_SAVES``) and the cache
    folder are the run's own; children the tests start (``hsm`` as a process) inherit them.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
        patch.setenv("HSM_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        yield


@pytest.fixture(autouse=True, scope="session")
def _forecast_workers_can_start() -> Iterator[None]:
    """As ``hsm`` does before its app takes stderr (``fight_pool.before_apps``), so that
    the apps the tests run play forecasts in worker processes, as the GM's does."""
    from hsm_tui.forecast import fight_pool

    fight_pool.before_apps()
    yield
    fight_pool.stop()
