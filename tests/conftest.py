"""Shared by every test: a GM's own ``HSM_SAVES`` must not steer where tests write."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _no_saves_folder_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HSM_SAVES", raising=False)
