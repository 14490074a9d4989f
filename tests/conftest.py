"""Shared fixtures. Keep this file small: each fixture is used by more than one test module."""
import pytest


@pytest.fixture
def glass_box(monkeypatch):
    """A google-genai client on the glass box: offline whatever keys are set, SDK retries off
    (so an error path fails at once), and every cache cold and on the real clock."""
    monkeypatch.setenv("WORKBOOK_OFFLINE", "1")
    import harness
    from harness.engine.cache import reset_cache, set_clock

    reset_cache()
    yield harness.connect(retry_attempts=1)
    set_clock()
    reset_cache()


@pytest.fixture
def legacy_models(monkeypatch):
    """The 2.5 models served, as to a project that used them before they closed to new keys."""
    from harness.models import LEGACY_SETTING

    monkeypatch.setenv(LEGACY_SETTING, "1")
