"""Client programs written for Gemini (tests/client_programs/), each run against the glass box as it
stands: the google-genai SDK in its many argument forms, chats, streams, caches, embeddings,
function calling, JSON mode, errors, client.aio, raw REST with urllib / httpx / requests, and the
openai SDK on the OpenAI-compatible endpoint. Each test reads what the program computed (its
globals) and asserts on what a user of it looks at: the shape and sense of the answer, the error's
class, code and words.

Programs run in this process (runpy), which keeps the file to a few seconds; one runs through its
standalone runner in a subprocess, to show the folder's programs run on their own too.
"""

import contextlib
import io
import subprocess
import sys

import pytest

from tests.client_programs.run import HERE, point_at_glass_box, programs, run_program


@pytest.fixture
def run(glass_box, monkeypatch):  # glass_box: offline, caches cold, the scenarios registered
    """`run("name.py")` runs one program against the glass box: (its globals, what it printed)."""
    environ = {}
    point_at_glass_box(environ)
    for name in ("GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_CLOUD_PROJECT"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)

    def run_one(name: str) -> tuple[dict, str]:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            found = run_program(HERE / name)
        return found, printed.getvalue()

    return run_one


def test_every_program_in_the_folder_has_a_test_here():
    source = open(__file__, encoding="utf-8").read()
    untested = [p.name for p in programs() if f'"{p.name}"' not in source]
    assert not untested, f"client programs no test runs: {untested}"


def test_a_program_runs_standalone_through_its_runner():
    done = subprocess.run(
        [sys.executable, str(HERE / "run.py"), "config_forms.py"],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(HERE.parents[1])},
    )
    assert done.returncode == 0, done.stderr
    assert "same: True" in done.stdout and "10:00" in done.stdout


# --- google-genai: the forms of a request ------------------------------------------------------


def test_every_form_of_contents_reaches_the_model_as_the_same_question(run):
    found, _ = run("contents_forms.py")
    answers = found["answers"]
    assert set(answers) == set(found["forms"])
    assert all("Mittens" in text for text in answers.values()), answers


def test_config_as_a_dict_and_as_a_type_give_the_same_answer(run):
    found, printed = run("config_forms.py")
    assert found["as_dict"].text == found["as_type"].text and "10:00" in found["as_type"].text
    assert found["as_type"].model_version == "gemini-3.8-flash"


def test_every_form_of_system_instruction_is_read(run):
    found, _ = run("system_instruction_forms.py")
    assert all("swordfish" in text for text in found["answers"].values()), found["answers"]


def test_sampling_settings_are_accepted_and_a_seed_repeats_the_answer(run):
    found, _ = run("sampling_settings.py")
    assert "level 3" in found["first"].text and found["first"].text == found["again"].text
    assert found["lite"].text  # ignored on 3.5 Flash-Lite, not refused


def test_output_limits_show_in_finish_reason_usage_and_candidates(run):
    found, _ = run("output_limits.py")
    short = found["short"]
    assert short.candidates[0].finish_reason.name == "MAX_TOKENS"
    used = (short.usage_metadata.candidates_token_count or 0) + (
        short.usage_metadata.thoughts_token_count or 0
    )
    assert used <= 8
    assert found["stopped"].text.endswith("1234") and "5678" not in found["stopped"].text
    several = found["several"]
    assert [c.index for c in several.candidates] == [0, 1]
    assert all("42" in c.content.parts[0].text for c in several.candidates)


def test_logprobs_are_refused_as_gemini_refuses_them_on_its_current_models(run):
    found, _ = run("logprobs.py")
    outcome, err = found["outcome"]
    assert outcome == "refused" and err.code == 400 and err.status == "INVALID_ARGUMENT"
    assert "Logprobs is not enabled for models/gemini-3.8-flash" in err.message


def test_thinking_levels_cost_more_as_they_rise_and_minimal_is_refused_where_gemini_refuses_it(run):
    found, _ = run("thinking_settings.py")
    table = found["table"]
    for model in found["MODELS"]:
        low, medium, high = (table[model, level] for level in ("low", "medium", "high"))
        assert 0 < low < medium < high, (model, low, medium, high)
    assert "MINIMAL" in str(table["gemini-3.8-flash", "minimal"]) and str(
        table["gemini-3.8-flash", "minimal"]
    ).startswith("400")
    assert table["gemini-3.5-flash-lite", "minimal"] == 0
    assert len(found["thought_parts"]) == 1 and "07:45" in found["shown"].text
    assert (
        found["both"].code == 400
        and "only one of thinking budget and thinking level" in found["both"].message
    )


# --- chats and streams ----------------------------------------------------------------------------


def test_a_chat_remembers_and_curated_history_leaves_out_a_reply_with_no_text(run):
    found, _ = run("chat_session.py")
    assert "Lyon" in found["replies"][-1]
    assert (
        found["cut"].text is None and found["cut"].candidates[0].finish_reason.name == "MAX_TOKENS"
    )
    assert len(found["curated"]) == 6 and len(found["comprehensive"]) == 8
    assert [c.role for c in found["curated"]] == ["user", "model"] * 3


def test_a_streamed_chat_records_the_stream_and_goes_on(run):
    found, _ = run("chat_stream.py")
    assert len(found["pieces"]) >= 2
    assert found["recorded"] == found["streamed"]
    assert "alpha-seven" in found["follow_up"].text


def test_a_stream_joins_to_the_answer_and_every_chunk_carries_usage(run):
    found, _ = run("stream_usage.py")
    chunks = found["chunks"]
    assert (
        len(chunks) >= 2
        and found["text"] == found["whole"].text
        and "dentist at 9" in found["text"]
    )
    assert all(c.usage_metadata and c.usage_metadata.prompt_token_count for c in chunks)
    assert (
        chunks[-1].usage_metadata.total_token_count
        == found["whole"].usage_metadata.total_token_count
    )
    assert chunks[-1].candidates[0].finish_reason.name == "STOP"


# --- tokens, caches, models, embeddings ---------------------------------------------------------


def test_count_tokens_matches_the_prompt_and_the_sdk_refuses_what_the_developer_api_cannot_count(
    run,
):
    found, _ = run("count_tokens.py")
    assert found["counted"].total_tokens == found["response"].usage_metadata.prompt_token_count
    assert found["history_count"].total_tokens > found["counted"].total_tokens
    assert set(found["refusals"]) == {"system_instruction", "tools", "compute_tokens"}
    assert all("Gemini Developer API" in str(err) for err in found["refusals"].values())


def test_an_explicit_cache_is_created_used_listed_updated_and_deleted(run):
    found, _ = run("explicit_cache.py")
    cache = found["cache"]
    assert cache.name.startswith("cachedContents/") and cache.display_name == "pump manual"
    for usage in found["usages"]:
        assert usage.cached_content_token_count == cache.usage_metadata.total_token_count
        assert usage.prompt_token_count > usage.cached_content_token_count
    assert found["listed"] and cache.name not in [c.name for c in found["client"].caches.list()]
    assert found["updated"].expire_time > found["fetched"].expire_time


def test_models_list_and_get_describe_the_live_models(run):
    found, _ = run("models_catalogue.py")
    assert "models/gemini-3.8-flash" in found["names"]
    assert found["flash"].input_token_limit == 1_048_576 and found["flash"].display_name


def test_models_list_names_the_embedding_models(run):
    found, _ = run("models_catalogue.py")
    assert "models/gemini-embedding-001" in found["embedders"]


def test_embeddings_have_the_asked_dimension_and_rank_the_matching_text_first(run):
    found, _ = run("embeddings.py")
    assert len(found["one"].embeddings[0].values) == 3072
    assert [len(e.values) for e in found["batch"].embeddings] == [768] * 3
    assert found["best"].startswith("Reset your password")


# --- function calling and JSON mode -------------------------------------------------------------


def test_automatic_function_calling_runs_python_functions_and_answers_from_them(run):
    found, _ = run("function_calling_auto.py")
    assert found["calls"] == [
        ("get_current_temperature", "London"),
        ("get_time", "Tokyo"),
        ("get_current_temperature", "Paris"),
    ]
    assert (
        "21" in found["response"].text
        and "14:05" in found["first"].text
        and "Paris" in found["second"].text
    )
    assert [c.role for c in found["afc"]] == ["user", "model", "user"]


def test_a_declared_function_is_called_with_typed_arguments_and_its_result_answered(run):
    found, _ = run("function_calling_manual.py")
    assert found["call"].name == "set_light_values"
    assert found["call"].args == {"brightness": 20, "color_temp": "warm"}
    assert found["signed"] and "warm" in found["final"].text


def test_parameters_json_schema_arguments_take_each_value_the_prompt_gives(run):
    found, _ = run("function_json_schema.py")
    [call] = found["calls"]
    assert call.args == {"destination": "Madrid", "date": "2026-12-20", "passengers": 2}


def test_function_calling_modes_and_allowed_names(run):
    found, _ = run("function_modes.py")
    results = found["results"]
    weather, hello = "What's the weather like in Berlin?", "Hello there!"
    assert results["AUTO", weather] == [("get_weather", {"city": "Berlin"})]
    assert isinstance(results["AUTO", hello], str)
    assert results["ANY", weather] == [("get_weather", {"city": "Berlin"})]
    assert isinstance(results["ANY", hello], list)  # ANY always calls
    assert all(name == "get_news" for name, _ in results["ANY get_news", weather])
    assert isinstance(results["NONE", weather], str) and isinstance(results["NONE", hello], str)


def test_json_mode_with_pydantic_parses_into_the_models(run):
    found, _ = run("json_mode_pydantic.py")
    assert isinstance(found["recipes"], list) and isinstance(found["data"], list)
    assert all(type(r).__name__ == "Recipe" for r in found["recipes"])
    assert set(found["single"].parsed) == {"recipe_name", "ingredients"}


def test_json_mode_fills_a_list_with_items_that_are_not_placeholders(run):
    found, _ = run("json_mode_pydantic.py")
    assert found["recipes"] and not any("Noted" in r.recipe_name for r in found["recipes"])


# --- errors ---------------------------------------------------------------------------------------


def test_api_errors_carry_geminis_code_status_and_message(run):
    found, _ = run("errors_api_error.py")
    caught = found["caught"]
    expected = {
        "unknown model": (404, "NOT_FOUND", "is not found for API version v1"),
        "temperature 5": (400, "INVALID_ARGUMENT", "temperature"),
        "bad role": (400, "INVALID_ARGUMENT", "Please use a valid role: user, model."),
        "too many tokens": (
            400,
            "INVALID_ARGUMENT",
            "exceeds the maximum number of tokens allowed (1048576)",
        ),
        "output cap": (400, "INVALID_ARGUMENT", "max_output_tokens"),
        "bad mime type": (400, "INVALID_ARGUMENT", "response_mime_type"),
        "missing cache": (403, "PERMISSION_DENIED", "CachedContent not found"),
    }
    for label, (code, status, words) in expected.items():
        err = caught[label]
        assert (err.code, err.status) == (code, status) and words in err.message, (label, err)
        assert err.details["error"]["code"] == code  # the SDK's details: the whole error body
    assert isinstance(caught["empty contents"], ValueError)


def test_a_request_with_no_key_is_geminis_403_and_the_sdk_wants_one(run):
    found, _ = run("errors_bad_key.py")
    status, body = found["no_key"]
    assert status == 403 and body["error"]["status"] == "PERMISSION_DENIED"
    assert body["error"]["message"].startswith("Method doesn't allow unregistered callers")
    assert "API key" in str(found["sdk_refusal"])


# --- client.aio -----------------------------------------------------------------------------------


def test_async_calls_streams_chats_counts_and_embeddings(run):
    found, _ = run("async_calls.py")
    assert [a.text.count(n) for a, n in zip(found["answers"], ("11", "22", "33"))] == [1, 1, 1]
    assert "4471" in found["streamed"]
    assert "teal" in found["reply"].text
    assert found["counted"].total_tokens > 0 and len(found["vectors"].embeddings) == 2


def test_async_caches_are_created_used_and_deleted(run):
    found, _ = run("async_caches.py")
    assert "9:00" in found["response"].text
    assert (
        found["response"].usage_metadata.cached_content_token_count
        == found["cache"].usage_metadata.total_token_count
    )
    assert (
        found["cache"].name in found["names_before"]
        and found["cache"].name not in found["names_after"]
    )


# --- raw REST -------------------------------------------------------------------------------------


def test_rest_with_the_key_in_the_query_string_and_snake_case_fields(run):
    found, _ = run("rest_urllib_key_query.py")
    assert "Neko" in found["reply"]["candidates"][0]["content"]["parts"][0]["text"]
    usage = found["reply"]["usageMetadata"]
    assert (
        usage["totalTokenCount"]
        == usage["promptTokenCount"] + usage["candidatesTokenCount"] + usage["thoughtsTokenCount"]
    )
    assert found["counted"]["totalTokens"] > 0


def test_rest_with_the_header_on_both_versions_pages_models_and_names_a_bad_field(run):
    found, _ = run("rest_httpx_header.py")
    assert all(
        "Fredville" in a["candidates"][0]["content"]["parts"][0]["text"]
        for a in found["answers"].values()
    )
    assert len(found["listed"]["models"]) == 3 and found["listed"]["nextPageToken"]
    assert (
        found["bad"].status_code == 400
        and '"temprature"' in found["bad"].json()["error"]["message"]
    )
    assert found["latest"].status_code == 200


def test_rest_sse_streams_events_each_with_usage(run):
    found, _ = run("rest_requests_sse.py")
    assert found["response"].headers["Content-Type"].startswith("text/event-stream")
    assert len(found["events"]) >= 2 and "June" in found["text"]
    assert all("usageMetadata" in e for e in found["events"])
    assert isinstance(found["array"], list) and len(found["array"]) == len(found["events"])


# --- the openai SDK -------------------------------------------------------------------------------


def test_openai_chat_completions_answer_with_usage_and_n_choices(run):
    found, _ = run("openai_chat.py")
    assert "18:30" in found["response"].choices[0].message.content
    usage = found["response"].usage
    assert usage.total_tokens >= usage.prompt_tokens + usage.completion_tokens
    assert [c.index for c in found["several"].choices] == [0, 1]


def test_openai_stream_gives_chunks_a_finish_reason_and_usage(run):
    found, _ = run("openai_stream.py")
    assert len(found["pieces"]) >= 2 and found["finish"] == "stop"
    assert found["usage"] is not None and found["usage"].total_tokens > 0


def test_openai_tool_calls_round_trip(run):
    found, _ = run("openai_tools.py")
    assert found["first"].choices[0].finish_reason == "tool_calls"
    [call] = found["message"].tool_calls
    assert call.function.name == "get_stock_price" and '"GOOG"' in call.function.arguments
    assert "171.2" in found["second"].choices[0].message.content
    assert [c.function.name for c in found["forced"].choices[0].message.tool_calls] == [
        "get_stock_price"
    ]


def test_openai_json_schema_answers_parse(run):
    found, _ = run("openai_json_schema.py")
    assert set(found["event"]) == {"name", "date", "participants"}
    assert found["parsed"].choices[0].message.parsed is not None


def test_openai_embeddings_and_models(run):
    found, _ = run("openai_embeddings_models.py")
    assert len(found["vectors"].data) == 2 and len(found["vectors"].data[0].embedding) == 3072
    assert any(m.endswith("gemini-3.8-flash") for m in found["models"])
    assert found["one"].id.endswith("gemini-3.8-flash")


# --- http_options ---------------------------------------------------------------------------------


def test_http_options_timeout_version_headers_and_retries(run):
    found, _ = run("http_options.py")
    assert (
        "9981" in found["response"].text
        and "9981"
        in found["v1"]
        .models.generate_content(
            model="gemini-3.8-flash", contents="The door code is 9981. What is the door code?"
        )
        .text
    )
    assert found["per_call"].text
    assert found["refused"].code == 400


# --- more function calling ------------------------------------------------------------------------


def test_parallel_calls_are_made_at_once_with_one_signature_and_answered_from_every_result(run):
    found, _ = run("function_calling_parallel.py")
    assert [p.function_call.args["city"] for p in found["parts"]] == ["Paris", "London", "Tokyo"]
    # the first only
    assert [p.thought_signature is not None for p in found["parts"]] == [
        True,
        False,
        False,
    ]
    assert found["seen"] == ["Paris", "London", "Tokyo"]
    assert all(w in found["answer"].text for w in ("18C", "12C", "21C"))


def test_a_function_response_sent_through_a_chat_is_answered(run):
    found, _ = run("function_calling_chat_manual.py")
    assert found["call"].args == {"order_number": "A-1042"}
    assert "shipped" in found["second"].text
    assert [c.role for c in found["chat"].get_history()] == ["user", "model", "user", "model"]


def test_sequential_steps_use_the_first_result_in_the_second_call(run):
    found, _ = run("function_calling_steps.py")
    assert found["log"] == [
        ("find_theaters", "Mountain View, CA", "Barbie"),
        ("get_showtimes", "Regal Crossing", "Barbie"),
    ]
    assert "18:30" in found["reply"].text


def test_a_call_sent_back_without_its_signature_is_geminis_400_and_a_dummy_passes(run):
    found, _ = run("thought_signatures.py")
    outcomes = found["outcomes"]
    assert "1.08" in outcomes["own signature"] and "1.08" in outcomes["dummy"]
    err = outcomes["no signature"]
    assert err.code == 400 and "missing a thought_signature" in err.message
    assert "default_api:get_exchange_rate" in err.message


def test_a_streamed_call_arrives_whole(run):
    found, _ = run("stream_with_tools.py")
    assert [(c.name, c.args) for c in found["calls"]] == [("set_alarm", {"time": "06:30"})]


def test_async_automatic_function_calling_awaits_the_function(run):
    found, _ = run("async_function_calling.py")
    assert found["ran"] == [(50, "USD")] and "54.0" in found["reply"].text


# --- models, tokens, REST, built-in tools, roles --------------------------------------------------


def test_routed_closed_and_latest_model_ids_answer_as_gemini_does(run):
    found, _ = run("model_lifecycle.py")
    assert found["routed"].model_version == "gemini-3.6-flash"
    assert (
        found["closed"].code == 404
        and "no longer available to new users" in found["closed"].message
    )
    assert found["latest"].model_version.startswith("gemini-")
    assert found["latest_on_v1"].code == 404 and "API version v1," in found["latest_on_v1"].message


def test_rest_count_tokens_takes_a_whole_request_but_not_a_stray_field(run):
    found, _ = run("rest_count_tokens.py")
    assert found["plain"][0] == 200 and found["whole"][0] == 200
    # system and tools counted
    assert found["whole"][1]["totalTokens"] > found["plain"][1]["totalTokens"]
    status, body = found["misplaced"]
    assert status == 400 and 'Unknown name "systemInstruction"' in body["error"]["message"]


def test_rest_function_calling_with_snake_case_tool_config(run):
    found, _ = run("rest_function_calling.py")
    assert found["call"] == {"name": "set_light_color", "args": {"rgb_hex": "ff0000"}}
    assert "ff0000" in found["text"]


def test_rest_embeddings_single_and_batch(run):
    found, _ = run("rest_embeddings.py")
    assert len(found["one"]["embedding"]["values"]) == 256
    assert [len(e["values"]) for e in found["batch"]["embeddings"]] == [3072, 3072]


def test_built_in_tools_are_refused_by_name(run):
    found, _ = run("built_in_tools.py")
    for label in ("google_search", "code_execution"):
        err = found["outcomes"][label]
        assert err.code == 400 and label in err.message


def test_consecutive_user_turns_are_read_and_a_prefill_answered_on_3_8_flash(run):
    found, _ = run("prefill_and_roles.py")
    assert "red" in found["two_users"].text
    assert isinstance(found["outcomes"]["gemini-3.8-flash"], str)


def test_a_prefill_is_refused_on_3_5_flash_lite(run):
    found, _ = run("prefill_and_roles.py")
    assert getattr(found["outcomes"]["gemini-3.5-flash-lite"], "code", None) == 400
