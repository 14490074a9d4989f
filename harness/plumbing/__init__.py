"""What the course runs on but does not teach: one module a job, none of them a lesson's subject.

- `client.py`: `connect()`, a real google-genai client, on the glass box offline or on Gemini with a
  key
- `keys.py`: where the key comes from (the environment, else `.env`), so nothing else reads it
- `redaction.py`: hides keys in every text that leaves the harness
- `recording.py`: a lesson's HTTP traffic recorded and replayed (`WORKBOOK_RECORDING`)
- `session_bundles.py`: a tutor session saved one JSON line per call, re-billed for free
- `jail.py`: the allow-list jail every command of the agent (and every graded notebook) runs in
- `warm_start.py`: each command forked from a warm helper, so a jailed test run starts in a tenth
  of the time, and a `grep` without starting an interpreter
- `steady_output.py`: tool output made the same on every run, so a recording replays
- `startup.py`: the kernel's and pytest's start-up speed-ups
- `sessions_in_process.py`: the harness's own tutor sessions, offline, sent to the glass box
  in-process
- `sdk_models.py`: the SDK's Interactions client, spared rebuilding its pydantic models every call
- `arguments.py`: the argument checks every public function makes first
"""
