"""harness.plumbing.session_bundles: runs saved as JSONL, reloaded, re-billed; never an API key
on disk."""

import pytest

from harness.billing import bill, price_for
from harness.plumbing.session_bundles import Bundle, Recording, load, load_all, save, save_all

FAKE_KEY = "AIza" + "x" * 35


def _recording(name="run", **config):
    rec = Recording(name, config={"strategy": "capped", **config})
    rec.add(
        Bundle(0, {"promptTokenCount": 1500, "candidatesTokenCount": 30}, tools=["search_course"])
    )
    rec.add(
        Bundle(
            0,
            {"promptTokenCount": 2500, "cachedContentTokenCount": 1500, "candidatesTokenCount": 20},
            compactions=[{"messages": 6, "before": 3000}],
            answer="Noted.",
            probe={"question": "q?", "key_points": ["x"]},
        )
    )
    return rec


def test_a_saved_run_reloads_equal_and_bills_the_same(tmp_path):
    rec = _recording()
    again = load(save(rec, tmp_path / "run.jsonl"))
    assert again == rec
    assert bill(again.usages(), price_for()) == pytest.approx(
        bill([b.usage for b in rec.bundles], price_for())
    )


def test_one_line_per_bundle_after_a_header(tmp_path):
    lines = save(_recording(), tmp_path / "r.jsonl").read_text().splitlines()
    assert len(lines) == 3 and '"session"' in lines[0]


def test_secret_named_config_entries_are_dropped(tmp_path):
    text = save(
        _recording(api_key="whatever", GEMINI_API_KEY="x"), tmp_path / "r.jsonl"
    ).read_text()
    assert "whatever" not in text and "GEMINI_API_KEY" not in text


def test_a_key_shaped_value_is_refused_wherever_it_hides(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="API key"):
        save(_recording(note=FAKE_KEY), tmp_path / "a.jsonl")
    rec = _recording()
    rec.bundles[0].answer = f"the key is {FAKE_KEY}"
    with pytest.raises(ValueError, match="API key"):
        save(rec, tmp_path / "b.jsonl")
    monkeypatch.setenv("GEMINI_API_KEY", "plain-secret-value")
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    with pytest.raises(ValueError, match="API key"):
        save(_recording(note="plain-secret-value"), tmp_path / "c.jsonl")
    assert not list(tmp_path.glob("*.jsonl"))


def test_a_folder_of_runs_round_trips(tmp_path):
    runs = [_recording("full history, 6 questions"), _recording("capped/6")]
    save_all(runs, tmp_path)
    assert sorted(r.name for r in load_all(tmp_path)) == sorted(r.name for r in runs)


def test_a_file_that_is_not_a_recording_is_named(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text('{"turn": 0}\n')
    with pytest.raises(ValueError, match="not a recorded session"):
        load(path)


def test_an_agent_run_report_becomes_a_recording_that_bills_the_same(tmp_path):
    from google.genai import types

    from harness.agent import RunReport, TurnRecord
    from harness.plumbing.session_bundles import from_run_report

    def usage(prompt, cached=0):
        return types.GenerateContentResponseUsageMetadata(
            prompt_token_count=prompt, cached_content_token_count=cached, candidates_token_count=10
        )

    report = RunReport(
        turns=[
            TurnRecord(1, usage(1200), tool="read_file"),
            TurnRecord(
                2,
                usage(4200, 1100),
                tool="run_command",
                compacted=6,
                trigger="4200 > 3500",
                summary_usage=usage(900),
            ),
            TurnRecord(3, usage(1500), result="Done."),
        ],
        status="finished",
    )
    rec = load(
        save(from_run_report(report, "agent", {"context_budget": 5000}), tmp_path / "a.jsonl")
    )
    assert [b.kind for b in rec.bundles] == ["turn", "turn", "summary", "turn"]
    assert rec.compaction_count() == 1 and rec.bundles[-1].answer == "Done."
    assert bill(rec.usages(), price_for()) == pytest.approx(report.cost)
