"""The small shared pieces: the token counter, the transcript and the connection's mode."""

import random
import re

import pytest
from google.genai import types

from harness.plumbing import client as client_module
from harness.tokens import approx_tokens
from harness.transcript import transcript_text_of


class TestApproxTokens:
    @pytest.mark.parametrize(
        "text, tokens",
        [
            ("", 0),
            ("cat", 1),
            ("cats", 1),
            ("kitten", 2),  # a token per started 4 letters
            ("a, b.", 4),  # each symbol is a token
            ("Invoices round half-up to the cent.", 11),
        ],
    )
    def test_counts(self, text, tokens):
        assert approx_tokens(text) == tokens

    def test_none_is_refused_not_counted_as_nothing(self):
        # a non-text part's .text is None: counting it as 0 would hide it from a budget (issue 19)
        with pytest.raises(TypeError, match="text must be a string, got None"):
            approx_tokens(None)

    def test_whitespace_costs_nothing(self):
        assert approx_tokens("one two\n\nthree") == approx_tokens("one two three")

    def test_each_word_costs_a_token_per_started_four_characters(self):
        """The counter cuts words into pieces of four; the rule sums ceil(len / 4) over whole words
        (a run of letters, digits, underscores) plus one per symbol: the same, on any text."""
        rng = random.Random(7)
        alphabet = "ab_9é字 \t\n.,;-'\"()€→🙂"
        for _ in range(3_000):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 60)))
            words = re.findall(r"\w+|[^\w\s]", text)
            assert approx_tokens(text) == sum((len(w) + 3) // 4 for w in words), repr(text)

    def test_counts_add_up_over_lines(self):
        # The engine counts a request line by line; the harness counts whole texts: they must agree.
        text = "def f(x):\n    return x >= 50\n# done"
        assert approx_tokens(text) == sum(approx_tokens(line) for line in text.split("\n"))


class TestTranscript:
    def history(self, output="6 passed"):
        return [
            types.Content(role="user", parts=[types.Part.from_text(text="Fix it.")]),
            types.Content(
                role="model",
                parts=[
                    types.Part.from_function_call(name="run_command", args={"command": "pytest"})
                ],
            ),
            types.Content(
                role="user",
                parts=[
                    types.Part.from_function_response(
                        name="run_command", response={"output": output}
                    )
                ],
            ),
        ]

    def test_one_entry_per_part_in_order(self):
        assert transcript_text_of(self.history()).splitlines() == [
            "user: Fix it.",
            'model called run_command({"command": "pytest"})',
            "tool run_command returned: 6 passed",
        ]

    def test_long_outputs_are_cut_and_say_so(self):
        text = transcript_text_of(self.history("x" * 1000), max_output_chars=600)
        assert (
            "x" * 240 + "\n[... 400 characters omitted ...]\n" + "x" * 360 in text
            and "x" * 361 not in text
        )

    def test_a_cut_log_keeps_its_verdict(self):
        log = "test_a PASSED\n" * 100 + "=== 1 failed, 5 passed in 0.02s ==="
        assert "1 failed, 5 passed" in transcript_text_of(self.history(log), max_output_chars=600)


class TestMode:
    def test_no_key_means_offline(self, monkeypatch, tmp_path):
        monkeypatch.chdir(tmp_path)  # no .env here
        for name in ("GOOGLE_API_KEY", "GEMINI_API_KEY", "WORKBOOK_OFFLINE"):
            monkeypatch.delenv(name, raising=False)
        assert client_module.is_offline() and client_module.mode_line().startswith("Offline")

    def test_a_key_in_dotenv_means_online_unless_forced_offline(self, monkeypatch, tmp_path):
        monkeypatch.chdir(tmp_path)
        (tmp_path / ".env").write_text("# my key\nexport GEMINI_API_KEY='not-a-real-key-123'\n")
        for name in ("GOOGLE_API_KEY", "GEMINI_API_KEY", "WORKBOOK_OFFLINE"):
            monkeypatch.delenv(name, raising=False)
        assert client_module.api_key() == "not-a-real-key-123" and not client_module.is_offline()
        assert "not-a-real-key" not in client_module.mode_line()
        monkeypatch.setenv("WORKBOOK_OFFLINE", "1")
        assert client_module.is_offline()

    def test_google_key_wins_over_gemini_key(self, monkeypatch):
        monkeypatch.setenv("GOOGLE_API_KEY", "google-one")
        monkeypatch.setenv("GEMINI_API_KEY", "gemini-one")
        assert client_module.api_key() == "google-one"

    def test_offline_connect_reaches_the_glass_box(self, monkeypatch):
        monkeypatch.setenv("WORKBOOK_OFFLINE", "1")
        client = client_module.connect()
        assert "127.0.0.1" in client._api_client._http_options.base_url
