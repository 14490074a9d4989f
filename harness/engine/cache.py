"""Prompt caching, both kinds Gemini bills: the implicit prefix cache and explicit cachedContents.

Implicit: the cached part of a request is the longest run of leading blocks (see `prompt`) it
shares with an earlier request to the same model, counted only when it reaches the model's
minimum (`MIN_CACHE_TOKENS`). So appending turns keeps the cache, and rewriting an early line
(a timestamp in the system prompt, a summary, reordered tools) loses everything after it.

    >>> cache = PrefixCache()
    >>> cache.lookup_and_record("m", blocks_of("line one\\nline two"), minimum=0)   # cold
    0
    >>> cache.lookup_and_record("m", blocks_of("line one\\nline 2"), minimum=0)     # 1st line shared
    2

How: a request is a chain of hashes, h1 = hash(block1), h2 = hash(h1, block2), ... It shares i
leading blocks with an earlier request exactly when its h_i was seen before. Each hash remembers
the last request that produced it; hashes older than the model's last `max_requests` requests no
longer count and are swept out, so memory stays bounded in a long-running kernel.

Explicit: `STORE` keeps what `client.caches.create` makes; a request naming it in
`cached_content` has the cached blocks put in front of its own, all billed as cached.
"""

import datetime
import re
import threading
import time

from harness.engine import MIN_CACHE_TOKENS
from harness.engine.bounded import Bounded
from harness.engine.limits import check_input
from harness.engine.prompt import Block, blocks, canonical, count_tokens
from harness.engine.wire import (
    WireError,
    check_built_in_tools,
    check_contents,
    invalid,
    resolve_model,
)

DEFAULT_TTL_SECONDS = 3600.0  # the API's default when create() gives neither ttl nor expireTime
# [OFF] ai.google.dev/gemini-api/docs/caching (as copied in public pages, read 2026-12-03): "There
# are no minimum or maximum bounds on the TTL", so any ttl proto's Duration reads is taken. Gemini
# bills storage by the hour instead of capping it, and publishes no limit on the number of caches
# (searched docs and issues, 2026-12-03): these bounds are ours, so that a kernel's memory stays
# small; the oldest cache goes first and its name then gets Gemini's answer to an unknown cache.
MAX_CACHES = 100
MAX_CACHE_BYTES = 64 * 1024 * 1024
CACHED_FIELDS = ("systemInstruction", "tools", "toolConfig", "contents")


def blocks_of(text: str, role: str = "user") -> list[Block]:
    """The blocks of a one-message request: a shorthand for examples and tests."""
    return blocks({"contents": [{"role": role, "parts": [{"text": text}]}]})


class PrefixCache:
    """Per model, the prefixes of its last `max_requests` requests, as hash chains."""

    def __init__(self, max_requests: int = 1000):
        self.max_requests = max_requests
        self._lock = threading.Lock()
        self._models: dict[str, dict] = {}

    def lookup_and_record(self, model: str, request_blocks: list[Block], minimum: int) -> int:
        """Cached tokens of this request (0 when below `minimum`); then remember its prefixes."""
        with self._lock:
            state = self._models.setdefault(model, {"serial": 0, "seen": {}})
            state["serial"] += 1
            serial, seen = state["serial"], state["seen"]
            # a prefix last sent at or before this serial is forgotten
            oldest = serial - self.max_requests
            chain, cached, matching, h = [], 0, True, 0
            for block in request_blocks:
                h = hash((h, block.kind, block.first, block.text))
                chain.append(h)
                # NOTE: once one block differs no later block can match: the hash carries the past.
                matching = matching and seen.get(h, oldest) > oldest
                cached += block.tokens if matching else 0
            for h in chain:
                seen[h] = serial
            if serial % self.max_requests == 0:  # amortised sweep of prefixes nobody sent lately
                state["seen"] = {h: s for h, s in seen.items() if s > oldest + 1}
            return cached if cached >= minimum else 0

    def reset(self) -> None:
        with self._lock:
            self._models.clear()


def rfc3339(seconds: float) -> str:
    """1767225600.0 -> '2026-01-01T00:00:00.000000Z' (the API's timestamp format)."""
    moment = datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# google.protobuf.Duration in proto JSON: seconds with up to 9 decimals and an "s", at most 10,000
# years ([OFF] protobuf's duration.proto). Anything else ("nans", "infs", "1e12s") is the parser's
# 400.
_DURATION = re.compile(r"-?\d{1,12}(\.\d{1,9})?s")
MAX_DURATION_SECONDS = 315_576_000_000
# NOTE: Gemini's words for a ttl that is not positive were not found (2026-12-01): glass-box wording
# in the `* Request.field: problem` style of its other field checks.
NOT_POSITIVE = (
    "* CreateCachedContentRequest.cached_content.{field}: the cache would expire {when}; give a "
    'positive ttl such as "300s", or an expireTime in the future.'
)


def _expiry(body: dict, now: float) -> float:
    """When a cache expires, from `ttl` ("300s") or `expireTime` (RFC 3339); Gemini's 400 for a
    value proto JSON cannot read, or one that is not in the future. Checked before anything is
    stored."""
    if body.get("ttl") is not None:
        ttl = str(body["ttl"])
        if not _DURATION.fullmatch(ttl) or abs(float(ttl[:-1])) > MAX_DURATION_SECONDS:
            raise invalid(
                f"Invalid value at 'cached_content.ttl'"
                f" (type.googleapis.com/google.protobuf.Duration), "
                f'"{ttl[:80]}"'
            )
        if float(ttl[:-1]) <= 0:
            raise invalid(NOT_POSITIVE.format(field="ttl", when=f"{ttl} from now"))
        return now + float(ttl[:-1])
    if body.get("expireTime") is not None:
        stamp = str(body["expireTime"])
        try:
            moment = datetime.datetime.fromisoformat(stamp.replace("Z", "+00:00"))
            if moment.tzinfo is None:
                raise ValueError("no time zone")
            expires = moment.timestamp()
        except (ValueError, OverflowError, OSError):
            raise invalid(
                f"Invalid value at 'cached_content.expire_time'"
                f" (type.googleapis.com/google.protobuf."
                f'Timestamp), "{stamp[:80]}"'
            ) from None
        if expires <= now:
            raise invalid(
                NOT_POSITIVE.format(field="expire_time", when=f"at {stamp}, which has passed")
            )
        return expires
    return now + DEFAULT_TTL_SECONDS


class CachedContentStore:
    """The explicit caches: create, get, list, update (ttl) and delete, with expiry by `clock`."""

    def __init__(self):
        self.clock = time.time  # replaced in tests through cache.set_clock
        self._lock = threading.Lock()
        self._entries = Bounded(MAX_CACHES, MAX_CACHE_BYTES)
        self._serial = 0  # names count up: deterministic, and never reused after a delete

    def create(self, body: dict, api_version: str = "v1beta") -> dict:
        model = resolve_model(str(body.get("model") or ""), api_version, "createCachedContent")
        request = {field: body[field] for field in CACHED_FIELDS if body.get(field)}
        if request.get("contents"):
            check_contents(request["contents"])
        # refused now, not at the first call that uses it
        check_built_in_tools(request.get("tools") or [])
        tokens = count_tokens(request)
        if tokens < MIN_CACHE_TOKENS[model]:
            raise invalid(
                f"Cached content is too small. total_token_count={tokens}, "
                f"min_total_token_count={MIN_CACHE_TOKENS[model]}"
            )
        check_input(tokens, model)  # a cache is part of each prompt that uses it: the same limit
        now = self.clock()
        expires = _expiry(body, now)  # a bad ttl is refused here, before the table is touched
        with self._lock:
            self._serial += 1
            name = f"cachedContents/glassbox{self._serial:06d}"
            entry = {
                "name": name,
                "model": f"models/{model}",
                "displayName": body.get("displayName", ""),
                "createTime": now,
                "updateTime": now,
                "expireTime": expires,
                "request": request,
                "tokens": tokens,
            }
            self._entries.put(name, entry, len(canonical(request)))
            return self.resource(entry)

    def get(self, name: str) -> dict:
        """The live entry called `name`; 403 like the real API when it is unknown or expired
        (the status and wording that public code handling an evicted Gemini cache matches on)."""
        with self._lock:
            entry = self._entries.get(name)
            if entry is not None and entry["expireTime"] <= self.clock():
                self._entries.pop(name)  # an expired cache is gone for good, as for real
                entry = None
        if entry is None:
            raise WireError(
                403, "PERMISSION_DENIED", "CachedContent not found (or permission denied)"
            )
        return entry

    def update(self, name: str, body: dict) -> dict:
        entry = self.get(name)
        now = self.clock()
        expires = _expiry(body, now)
        with self._lock:
            entry["expireTime"], entry["updateTime"] = expires, now
        return self.resource(entry)

    def delete(self, name: str) -> dict:
        self.get(name)
        with self._lock:
            self._entries.pop(name)
        return {}

    def list(self, page_size: int = 100, page_token: str = "") -> dict:
        with self._lock:
            names = sorted(self._entries.keys())
        live = []
        for name in names:
            try:
                live.append(self.resource(self.get(name)))
            except WireError:  # expired (or deleted) since we looked: not listed
                continue
        start = int(page_token) if str(page_token).isdigit() else 0
        page = {"cachedContents": live[start : start + page_size]}
        if start + page_size < len(live):
            page["nextPageToken"] = str(start + page_size)
        return page

    @staticmethod
    def resource(entry: dict) -> dict:
        """The CachedContent as the API returns it (the cached contents themselves are not
        echoed)."""
        return {
            "name": entry["name"],
            "model": entry["model"],
            "displayName": entry["displayName"],
            "createTime": rfc3339(entry["createTime"]),
            "updateTime": rfc3339(entry["updateTime"]),
            "expireTime": rfc3339(entry["expireTime"]),
            "usageMetadata": {"totalTokenCount": entry["tokens"]},
        }

    def reset(self) -> None:
        with self._lock:
            self._entries.clear()


IMPLICIT = PrefixCache()
STORE = CachedContentStore()


def reset_implicit_cache() -> None:
    """Forget earlier requests (explicit caches stay): the next run starts cold, like a new
    session."""
    IMPLICIT.reset()


def reset_cache() -> None:
    """Forget every earlier request and every explicit cache: the next call starts cold."""
    IMPLICIT.reset()
    STORE.reset()


def set_clock(clock=None) -> None:
    """Cache times read `clock()` (seconds since the epoch); `set_clock()` goes back to time.time.

    Tests and lessons expire a cache without waiting: `set_clock(lambda: time.time() + 3600)`.
    """
    STORE.clock = clock or time.time
