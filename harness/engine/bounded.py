"""A store that keeps at most a count of entries and a total of bytes, dropping the oldest first.

The glass box lives in a lesson's kernel for hours, and a hostile or runaway program may create
stored interactions or caches without end: each store holds its memory to a bound, as Gemini's
servers hold theirs (retention by time, which the stores check themselves, and storage by quota).

    >>> store = Bounded(max_entries=2, max_bytes=100)
    >>> store.put("a", "first", size=10), store.put("b", "second", size=10)
    ([], [])
    >>> store.put("c", "third", size=95)   # over both bounds: the oldest go first
    ['a', 'b']
    >>> store.get("a") is None, store.get("c")
    (True, 'third')

The entry just put always stays, even alone over `max_bytes`: a request the API accepted is kept.
Not thread-safe on its own: each store calls it under its own lock.
"""

from collections import OrderedDict


class Bounded:
    """Entries by key, in the order they were put; `size` is what each one is charged."""

    def __init__(self, max_entries: int, max_bytes: int):
        self.max_entries, self.max_bytes = max_entries, max_bytes
        self._entries: OrderedDict[str, tuple[object, int]] = OrderedDict()
        self.bytes = 0

    def put(self, key: str, value, size: int) -> list[str]:
        """Keep `value` under `key`; the keys of the oldest entries it drops to stay in bounds."""
        self.pop(key)
        self._entries[key] = (value, size)
        self.bytes += size
        dropped = []
        while len(self._entries) > 1 and (
            len(self._entries) > self.max_entries or self.bytes > self.max_bytes
        ):
            oldest = next(iter(self._entries))
            self.pop(oldest)
            dropped.append(oldest)
        return dropped

    def get(self, key: str):
        entry = self._entries.get(key)
        return None if entry is None else entry[0]

    def pop(self, key: str):
        """Forget `key`; its value, or None when it was not kept."""
        entry = self._entries.pop(key, None)
        if entry is None:
            return None
        self.bytes -= entry[1]
        return entry[0]

    def keys(self) -> list[str]:
        return list(self._entries)

    def clear(self) -> None:
        self._entries.clear()
        self.bytes = 0

    def __len__(self) -> int:
        return len(self._entries)
