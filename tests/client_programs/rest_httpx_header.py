"""Raw REST with httpx and the x-goog-api-key header, on v1 and v1beta, plus models and a bad
field."""

import os

import httpx

BASE = os.environ.get("GOOGLE_GEMINI_BASE_URL", "https://generativelanguage.googleapis.com")
headers = {"x-goog-api-key": os.environ["GEMINI_API_KEY"], "Content-Type": "application/json"}
body = {
    "contents": [
        {
            "role": "user",
            "parts": [
                {"text": "The capital of Freedonia is Fredville. What is the capital of Freedonia?"}
            ],
        }
    ]
}
with httpx.Client(base_url=BASE, headers=headers, timeout=30) as http:
    answers = {}
    for version in ("v1", "v1beta"):
        r = http.post(f"/{version}/models/gemini-3.8-flash:generateContent", json=body)
        answers[version] = r.json()
        print(version, r.status_code, r.json()["candidates"][0]["content"]["parts"][0]["text"])
    listed = http.get("/v1beta/models", params={"pageSize": 3}).json()
    print(
        "models page:",
        [m["name"] for m in listed["models"]],
        "next:",
        bool(listed.get("nextPageToken")),
    )
    bad = http.post(
        "/v1beta/models/gemini-3.8-flash:generateContent",
        json={**body, "generationConfig": {"temprature": 0.3}},
    )
    print("bad field:", bad.status_code, bad.json()["error"]["message"])
    latest = http.post("/v1beta/models/gemini-flash-latest:generateContent", json=body)
    print("-latest on v1beta:", latest.status_code, latest.json().get("modelVersion"))
