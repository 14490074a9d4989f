"""`workbook doctor`: offline on this machine, and online against a fake Gemini on loopback that
answers as Gemini answers a key that may not use gemini-2.5-flash."""

import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from running_jupyter import free_port

from harness.models import live_models, model_row

FAKE_KEY = "AIza" + "FakeKeyForTheDoctorTest0123456789abc"  # the shape of a Gemini key, not a key
GONE = (  # as reported since July 2026 (FACTS.md)
    "This model models/gemini-2.5-flash is no longer available to new users. Please update your"
    " code to use a newer model for the latest features and improvements."
)


def doctor(*args, cwd=None, **env):
    """Run the doctor in a clean environment: no key, not forced offline, unless `env` says so."""
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in ("GEMINI_API_KEY", "GOOGLE_API_KEY", "WORKBOOK_OFFLINE")
    }
    return subprocess.run(
        [sys.executable, "-m", "harness", "doctor", *args],
        cwd=cwd,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=300,
    )


def lines_of(done) -> dict[str, str]:
    """label -> the line's text, with its ok/!! mark."""
    out = {}
    for line in done.stdout.splitlines():
        mark, label, text = line[:2], line[4:14].strip(), line[16:]
        out[label] = f"{mark} {text}"
    return out


class FakeGemini(BaseHTTPRequestHandler):
    seen: list = []

    def _answer(self):
        self.seen.append((self.command, self.path, self.headers.get("x-goog-api-key")))
        body = json.dumps({"error": {"code": 404, "message": GONE, "status": "NOT_FOUND"}}).encode()
        self.send_response(404)
        self.send_header("Content-Type", "application/json; charset=UTF-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, *args):
        pass


@pytest.fixture
def fake_gemini():
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeGemini)
    FakeGemini.seen = []
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_offline_every_line_is_ok_and_lesson_00_is_timed(tmp_path):
    done = doctor(cwd=tmp_path)  # outside any workbook: the installed lessons are timed
    lines = lines_of(done)
    assert done.returncode == 0, done.stdout + done.stderr
    assert list(lines) == [
        "model",
        "mode",
        "key",
        "glass box",
        "commands",
        "jupyterlab",
        "lesson 00",
    ]
    assert all(text.startswith("ok") for text in lines.values()), done.stdout
    assert "Offline" in lines["mode"] and "none found" in lines["key"]
    assert (
        "serves /lab" in lines["jupyterlab"]
        and "widgets: ipywidgets, plotly;" in lines["jupyterlab"]
    )
    assert "00_first_call.ipynb ran headless in" in lines["lesson 00"]
    if sys.platform.startswith("linux"):  # where tests/test_tools.py checks that it is so
        assert "run with no network" in lines["commands"], lines["commands"]


def test_a_404_for_the_model_names_the_models_open_to_new_keys(fake_gemini, tmp_path):
    # the project thinks it has it
    done = doctor(
        "--quick",
        cwd=tmp_path,
        GEMINI_API_KEY=FAKE_KEY,
        GOOGLE_GEMINI_BASE_URL=fake_gemini,
        WORKBOOK_MODEL="gemini-2.5-flash",
        WORKBOOK_LEGACY_MODELS="1",
    )
    gemini = lines_of(done)["gemini"]
    assert done.returncode == 1 and gemini.startswith("!!"), done.stdout + done.stderr
    assert "404" in gemini and "no longer available to new users" in gemini
    assert model_row("gemini-2.5-flash").replacement in gemini and all(
        m in gemini for m in live_models()
    )
    assert "WORKBOOK_MODEL" in gemini
    assert FakeGemini.seen and "models/gemini-2.5-flash" in FakeGemini.seen[0][1]
    assert FakeGemini.seen[0][2] == FAKE_KEY  # the key went to the (fake) Gemini...
    assert FAKE_KEY not in done.stdout + done.stderr  # ...and never to the screen
    assert lines_of(done)["glass box"].startswith("ok")  # the offline mode still works


def test_gemini_out_of_reach_says_to_set_the_offline_mode(tmp_path):
    (tmp_path / ".env").write_text(f"GEMINI_API_KEY={FAKE_KEY}\n")
    done = doctor("--quick", cwd=tmp_path, GOOGLE_GEMINI_BASE_URL=f"http://127.0.0.1:{free_port()}")
    lines = lines_of(done)
    assert done.returncode == 1, done.stdout + done.stderr
    assert lines["key"].startswith("ok found: GEMINI_API_KEY from") and ".env" in lines["key"]
    assert "Online" in lines["mode"]
    assert (
        lines["gemini"].startswith("!! could not reach Gemini")
        and "WORKBOOK_OFFLINE=1" in lines["gemini"]
    )
    assert FAKE_KEY not in done.stdout + done.stderr


def test_a_model_the_table_lacks_is_said_so_not_blamed_on_the_network(tmp_path):
    done = doctor(
        "--quick",
        cwd=tmp_path,
        GEMINI_API_KEY=FAKE_KEY,
        WORKBOOK_MODEL="gemini-9-ultra",
        GOOGLE_GEMINI_BASE_URL=f"http://127.0.0.1:{free_port()}",
    )
    lines = lines_of(done)
    assert done.returncode == 1 and lines["model"].startswith("!!"), done.stdout + done.stderr
    assert "not in the workbook's table" in lines["model"] and "gemini-3.8-flash" in lines["model"]
    assert "could not reach" not in done.stdout and "gemini" not in lines


@pytest.mark.parametrize("legacy, mark", [("", "!!"), ("1", "ok")])
def test_a_model_closed_to_new_keys_is_warned_about_with_its_replacement(tmp_path, legacy, mark):
    done = doctor(
        "--quick", cwd=tmp_path, WORKBOOK_MODEL="gemini-2.5-flash", WORKBOOK_LEGACY_MODELS=legacy
    )
    model = lines_of(done)["model"]
    assert model.startswith(mark) and "closed to new keys" in model, done.stdout + done.stderr
    assert model_row("gemini-2.5-flash").replacement in model


def test_a_deprecated_model_says_which_model_answers_it(tmp_path):
    model = lines_of(doctor("--quick", cwd=tmp_path, WORKBOOK_MODEL="gemini-3.7-flash"))["model"]
    assert model.startswith("ok") and "deprecated" in model and "gemini-3.8-flash" in model


@pytest.mark.parametrize("key, mark", [("", "ok"), (FAKE_KEY, "!!")])
def test_a_latest_alias_is_warned_about_as_v1beta_only(tmp_path, key, mark):
    done = doctor(
        "--quick",
        cwd=tmp_path,
        WORKBOOK_MODEL="gemini-flash-latest",
        GEMINI_API_KEY=key,
        GOOGLE_GEMINI_BASE_URL=f"http://127.0.0.1:{free_port()}",
    )
    model = lines_of(done)["model"]
    assert (
        model.startswith(mark)
        and "v1beta only" in model
        and "WORKBOOK_MODEL=gemini-3.8-flash" in model
    ), done.stdout


def test_the_key_in_the_projects_env_is_found_from_the_lessons_folder(tmp_path):
    """Kernels run in lessons/; the README puts .env at the project's top."""
    (tmp_path / "lessons").mkdir()
    (tmp_path / ".env").write_text(f"GEMINI_API_KEY={FAKE_KEY}\n")
    done = doctor(
        "--quick",
        cwd=tmp_path / "lessons",
        GOOGLE_GEMINI_BASE_URL=f"http://127.0.0.1:{free_port()}",
    )
    key = lines_of(done)["key"]
    assert key.startswith("ok found: GEMINI_API_KEY from") and str(tmp_path / ".env") in key, (
        done.stdout
    )
    assert FAKE_KEY not in done.stdout + done.stderr


def test_a_env_above_a_folder_outside_any_project_is_not_read(tmp_path):
    from harness.plumbing.keys import dotenv_path

    (tmp_path / ".env").write_text("GEMINI_API_KEY=x\n")
    (tmp_path / "elsewhere").mkdir()
    assert dotenv_path(tmp_path / "elsewhere") is None
    assert dotenv_path(tmp_path) == tmp_path / ".env"


@pytest.mark.parametrize(
    "model, says",
    [
        ("learnlm-2.0-flash-experimental", "shut it down on 2025-12-03"),
        ("gemini-embedding-001", "embedding model"),
    ],
)
def test_a_shut_down_or_embedding_id_stops_the_report_naming_what_to_set(tmp_path, model, says):
    done = doctor(
        "--quick",
        cwd=tmp_path,
        GEMINI_API_KEY=FAKE_KEY,
        WORKBOOK_MODEL=model,
        GOOGLE_GEMINI_BASE_URL=f"http://127.0.0.1:{free_port()}",
    )
    lines = lines_of(done)
    assert done.returncode == 1 and lines["model"].startswith("!!") and says in lines["model"], (
        done.stdout
    )
    assert "WORKBOOK_MODEL=gemini-3.8-flash" in lines["model"] or live_models()[0] in lines["model"]
    assert list(lines) == ["model"]  # no line blames the network or the glass box for it
