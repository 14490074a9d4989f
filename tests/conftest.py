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


@pytest.fixture
def post_json():
    """`post(path, body)` sends one JSON body to the glass box and gives (status, parsed answer), an
    error's included: for routes the google-genai SDK does not reach, or reaches without the body.
    """
    import json
    import urllib.error
    import urllib.request

    from harness.engine.server import ensure_running

    def post(path: str, body: dict) -> tuple[int, object]:
        request = urllib.request.Request(
            ensure_running() + path,
            json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "x-goog-api-key": "offline"},
        )
        try:
            with urllib.request.urlopen(request) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read())

    return post


@pytest.fixture
def removed_at_end():
    """A list of folders removed at the end, however deep, whatever happened: a tree 1,200 levels
    deep left in a temporary folder makes pytest's own cleanup raise RecursionError in a later
    session (shutil.rmtree recurses), other helpers' and CI's included."""
    from harness.plumbing.jail import remove_tree

    folders = []
    yield folders
    for folder in folders:
        remove_tree(folder)
