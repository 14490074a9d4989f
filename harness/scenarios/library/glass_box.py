"""The library tutor's glass box: the policy of requests declaring `read_file` and `search_course`.

It reads the request only, like every behaviour of the glass box. The turn is what follows the
latest question; each call it takes the first step that applies:

    1. the index was not read this turn       -> read_file("INDEX.md")
    2. an index line shares the question's    -> read_file(that file), two files at most
       words, its file not read yet
    3. no line matches, corpus_shell declared -> grep -rli WORD . for the question's two longest
                                                 words, one a call; then read_file the files they
                                                 point to most (a word in few files counts more)
    4. nothing found yet                      -> search_course(question)
    5. otherwise                              -> answer, by the reader's rules

It answers from what it read, never from the index's one-line descriptions (they are pointers, not
material: the index text is left out of what the reader sees). So a fact moved to a file is
answered only once the file is read back, and a file the index no longer lists is found only by
grep.

    >>> declared = [{"name": "read_file"}, {"name": "search_course"}]
    >>> request = {"tools": [{"functionDeclarations": declared}],
    ...            "contents": [{"role": "user", "parts": [{"text": "What is a prefix cache?"}]}]}
    >>> Librarian().act(request)
    [{'functionCall': {'name': 'read_file', 'args': {'path': 'INDEX.md'}}}]
"""

import re

from harness.engine import reader
from harness.engine.prompt import content_text, response_output
from harness.engine.scenario import Scenario, register
from harness.formats import INDEX_NAME, CallMatcher, index_entries, is_error_output
from harness.scenarios.course.glass_box import TOOL as SEARCH

READ, SHELL = "read_file", "corpus_shell"
MAX_FOLLOW = 2  # files read for one question, from the index or from grep
MAX_GREPS = 2  # words grepped for one question: each grep is a jailed program, about 50 ms of CPU


def _question_at(contents: list) -> int | None:
    """The index of the latest user message with text, if it asks a question (None otherwise)."""
    for index in range(len(contents) - 1, -1, -1):
        content = contents[index]
        if (content.get("role") or "user") == "user" and content_text(content).strip():
            return index if "?" in content_text(content) else None
    return None


def _this_turn(contents: list) -> list[tuple[str, dict, str]]:
    """(name, args, output) of each call of the turn that has its response, in order."""
    calls, found = CallMatcher(), []
    for content in contents:
        for part in content.get("parts") or []:
            if "functionCall" in part:
                calls.called(part["functionCall"].get("name"), part["functionCall"])
            elif "functionResponse" in part:
                name = part["functionResponse"].get("name")
                found.append(
                    (name, calls.answered(name, {}).get("args") or {}, response_output(part))
                )
    return found


def _grep_word(command: str) -> str | None:
    found = re.fullmatch(r"grep -rli (\w+) \.", command)
    return found.group(1) if found else None


def _hits(output: str) -> list[str]:
    """The files a `grep -rl` output lists (the index itself left out)."""
    # line 1: the exit code
    lines = [line.strip().removeprefix("./") for line in output.splitlines()[1:]]
    return [line for line in lines if line.endswith(".md") and line != INDEX_NAME]


def _without_index(request: dict) -> dict:
    """The request with its index outputs emptied: the reader answers from files, not pointers."""
    contents = []
    for content in request.get("contents") or []:
        parts = [
            (
                {"functionResponse": {"name": READ, "response": {"output": ""}}}
                if "functionResponse" in part and response_output(part).startswith("# INDEX")
                else part
            )
            for part in content.get("parts") or []
        ]
        contents.append({**content, "parts": parts})
    return {**request, "contents": contents}


def _call(name: str, **args) -> list[dict]:
    return [{"functionCall": {"name": name, "args": args}}]


class Librarian(Scenario):
    name, tools = "library", frozenset({READ, SEARCH})

    def act(self, request: dict) -> list[dict]:
        contents = request.get("contents") or []
        at = _question_at(contents)
        if at is None:
            return reader.respond(request)
        question = " ".join(
            s for s in reader.sentences(content_text(contents[at])) if s.endswith("?")
        )
        wanted = reader.content_words(question)
        needed = 1 if len(set(wanted)) <= 3 else 2
        done = _this_turn(contents[at + 1 :])
        # a failed read is not retried
        tried = {args.get("path") for name, args, _ in done if name == READ}
        read = {
            args.get("path")
            for name, args, output in done
            if name == READ and not is_error_output(output)
        }
        index = next(
            (
                output
                for name, args, output in reversed(done)
                if name == READ and args.get("path") == INDEX_NAME
            ),
            None,
        )
        if index is None:
            return _call(READ, path=INDEX_NAME)
        ranked = sorted(
            (
                (reader.score(wanted, text), -n, path)
                for n, (path, text) in enumerate(index_entries(index))
            ),
            reverse=True,
        )
        matches = [path for points, _, path in ranked if points >= needed][:MAX_FOLLOW]
        for path in matches:
            if path not in tried:
                return _call(READ, path=path)
        declared = {
            d.get("name")
            for tool in request.get("tools") or []
            for d in tool.get("functionDeclarations") or []
        }
        if not matches and SHELL in declared:
            step = self._grep(wanted, done, tried)
            if step:
                return step
        searched = any(name == SEARCH for name, _, _ in done)
        if not matches and not read - {INDEX_NAME} and not searched:
            return _call(SEARCH, query=question)
        return reader.respond(_without_index(request))

    @staticmethod
    def _grep(wanted: list[str], done: list, tried: set) -> list[dict] | None:
        """The next grep, or the next file the greps point to most; None once nothing is left."""
        words = sorted(dict.fromkeys(w for w in wanted if not w.isdigit()), key=len, reverse=True)[
            :MAX_GREPS
        ]
        grepped = {
            _grep_word(args.get("command", "")): _hits(output)
            for name, args, output in done
            if name == SHELL
        }
        for word in words:
            if word not in grepped:
                return _call(SHELL, command=f"grep -rli {word} .")
        weight: dict[str, float] = {}
        for hits in grepped.values():  # a word in few files says more about which file is meant
            for path in hits:
                weight[path] = weight.get(path, 0) + 1 / len(hits)
        best = sorted(weight, key=lambda path: (-weight[path], path))[:MAX_FOLLOW]
        for path in best:
            if path not in tried:
                return _call(READ, path=path)
        return None


register(Librarian())
