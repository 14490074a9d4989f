"""The glass box under a classroom burst: raw connections opened all at once, as 64 laptops do.

Prints figures only. Issue 9 measured, before the listen queue was raised, 22 of 320 raw requests
hanging 20 s behind socketserver's backlog of 5. Run: .venv/bin/python benchmarks/bench_wire.py
"""

import json
import os
import socket
import statistics
import threading
import time
from urllib.parse import urlparse

os.environ.setdefault("WORKBOOK_OFFLINE", "1")

from harness.engine.server import ensure_running  # noqa: E402

WAVES, AT_ONCE, SLOW_SECONDS = 5, 64, 1.0


def one_request(host: str, port: int, payload: bytes, seconds: list) -> None:
    start = time.perf_counter()
    with socket.create_connection((host, port), timeout=60) as sock:
        sock.sendall(payload)
        sock.makefile("rb").readline()
    seconds.append(time.perf_counter() - start)


def main() -> None:
    url = urlparse(ensure_running())
    body = json.dumps({"contents": [{"parts": [{"text": "When does the office open?"}]}]}).encode()
    payload = (
        "POST /v1beta/models/gemini-3.8-flash:generateContent HTTP/1.1\r\nHost: x\r\nConnection:"
        " close\r\nContent-Type: application/json\r\nx-goog-api-key: offline\r\nContent-Length:"
        f" {len(body)}\r\n\r\n"
    ).encode() + body
    seconds = []
    for _ in range(WAVES):
        threads = [
            threading.Thread(target=one_request, args=(url.hostname, url.port, payload, seconds))
            for _ in range(AT_ONCE)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    slow = sum(1 for s in seconds if s > SLOW_SECONDS)
    print(
        f"{len(seconds)} raw requests, {AT_ONCE} at a time: median"
        f" {statistics.median(seconds) * 1000:.1f} ms, slowest {max(seconds) * 1000:.0f} ms, {slow}"
        f" over {SLOW_SECONDS:g} s (issue 9 before: 22 of 320 hung 20 s)"
    )


if __name__ == "__main__":
    main()
