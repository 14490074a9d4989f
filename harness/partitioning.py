"""Partitioning a task across sub-agents: the split (10.1) and the merge that validates first
(10.2).

« Techniques d'Optimisation de Contexte » plans partitioning once the task's estimated
context passes 60% of the window, gives each sub-agent a clean context of its own sub-task, and
validates that every partition finished before merging their structured results.

`split_task` packs the sub-tasks, in order, into partitions whose estimated context stays within
`share x window`; a task that fits is one partition (one agent, no coordinator):

>>> split_task([("stock", 300), ("grades", 300), ("slugs", 300)], window=1000)
[['stock', 'grades'], ['slugs']]
>>> split_task([("stock", 300), ("grades", 300)], window=1000)
[['stock', 'grades']]

`merge_results` takes one `SubResult` per partition, in the partitions' order, and returns every
edit (path -> new text), or raises `MergeRefused` when a partition did not finish or two edit the
same file differently:

>>> done = SubResult(("stock",), finished=True, edits={"stock/levels.py": "..."})
>>> merge_results([done], [["stock"]])
{'stock/levels.py': '...'}
>>> merge_results([SubResult(("stock",), finished=False)], [["stock"]])
Traceback (most recent call last):
...
harness.partitioning.MergeRefused: partition ['stock'] did not finish: its tests do not pass yet; nothing was merged. Run it again (more turns, a larger budget) before merging.
"""  # noqa: E501

from dataclasses import dataclass, field

from harness.plumbing.arguments import (
    checked,
    require_fields,
    require_instance,
    require_int,
    require_list,
    require_list_of_text,
    require_mapping,
    require_number,
    shown,
)

# « Techniques d'Optimisation de Contexte »: plan partitioning when the estimated context passes 60%
# of the window
PLAN_SHARE = 0.6


class MergeRefused(ValueError):
    """The coordinator will not merge: a partition did not finish, or two partitions conflict."""


@dataclass(frozen=True)
class SubResult:
    """What a sub-agent hands back to the coordinator: structured, so the merge can validate it."""

    packages: tuple  # the sub-tasks of its partition, in order
    finished: bool  # its tests pass in its own workspace (the harness read the verdict)
    edits: dict = field(default_factory=dict)  # path -> the file's text after its edits
    tokens: int = 0  # input + output tokens of every call it made (summaries included)
    verdict: str = ""  # its last test verdict, as pytest printed it

    def __post_init__(self):
        require_fields(self, packages=_names, edits=_edits)  # the merge trusts what a result says

    def __repr__(self):
        state = "finished" if self.finished else "NOT finished"
        return (
            f"SubResult({list(self.packages)}: {state}, {len(self.edits)} file(s) edited, "
            f"{self.tokens:,} tokens, {self.verdict or 'no verdict'!r})"
        )


def _names(name: str, value) -> None:
    require_instance(name, value, (tuple, list), "a tuple of sub-task names")
    require_list_of_text(name, value)
    if not value:
        raise ValueError(f"{name} must name at least one sub-task, got {value!r}.")


def _edits(name: str, value) -> None:
    require_mapping(name, value, "edits, path -> the file's text", str, "a file's text (a string)")
    require_list_of_text(f"{name}'s paths", list(value))


def _subtasks(name: str, subtasks) -> None:
    require_list(name, subtasks, "(name, estimated tokens) pairs")
    for i, item in enumerate(subtasks):
        if not (isinstance(item, (tuple, list)) and len(item) == 2 and isinstance(item[0], str)):
            raise ValueError(
                f"{name}[{i}] must be a (name, estimated tokens) pair, got {shown(item)}."
            )
        require_int(f"{name}[{i}]'s estimate", item[1], 0)


def _share(name: str, share) -> None:
    if not 0 < require_number(name, share, 0) <= 1:
        raise ValueError(f"{name} must be in (0, 1] (a share of the window), got {share!r}.")


def _partitions(name: str, partitions) -> None:
    require_list(name, partitions, "partitions (lists of names)")
    for index, partition in enumerate(partitions):
        _names(f"{name}[{index}]", partition)


def _results(name: str, results) -> None:
    require_list(name, results, "SubResults")
    for index, result in enumerate(results):
        require_instance(f"{name}[{index}]", result, (SubResult, type(None)), "a SubResult or None")


@checked(subtasks=_subtasks, window=(1, None), share=_share)
def split_task(
    subtasks: list[tuple[str, int]], window: int, share: float = PLAN_SHARE
) -> list[list[str]]:
    """The partitions of a task: lists of sub-task names, each a sub-agent's clean context.

    `subtasks`: (name, estimated tokens) pairs, in the order to keep. The limit is `share * window`
    (not rounded). Walk the sub-tasks in order: each joins the current partition while that
    partition's estimated total stays at or under the limit; otherwise it starts a new partition.
    A sub-task over the limit on its own still gets a partition (of its own). No sub-tasks: [].
    """
    limit, partitions, total = share * window, [], 0
    for name, tokens in subtasks:
        if partitions and total + tokens <= limit:
            partitions[-1].append(name)
            total += tokens
        else:
            partitions.append([name])
            total = tokens
    return partitions


@checked(results=_results, partitions=_partitions)
def merge_results(results, partitions) -> dict[str, str]:
    """Every partition's edits in one dict (path -> text), after checking that the merge is safe.

    `results[i]` is the SubResult of `partitions[i]` (None if its sub-agent never reported).
    Refuse, raising MergeRefused and merging nothing, when the counts differ, when a partition has
    no result or did not finish, or when two partitions edit the same path with different texts
    (the same text twice is kept once). The inputs are not changed.
    """
    results, partitions = list(results), list(partitions)
    if len(results) != len(partitions):
        raise MergeRefused(
            f"{len(partitions)} partitions but {len(results)} results: every partition must report "
            "exactly once before the coordinator merges."
        )
    merged, owner = {}, {}
    for result, partition in zip(results, partitions):
        if result is None or not result.finished:
            why = (
                "never reported" if result is None else "did not finish: its tests do not pass yet"
            )
            raise MergeRefused(
                f"partition {list(partition)} {why}; nothing was merged. Run it again "
                "(more turns, a larger budget) before merging."
            )
        for path, text in result.edits.items():
            if path in merged and merged[path] != text:
                raise MergeRefused(
                    f"partitions {owner[path]} and {list(partition)} both edit {path} with"
                    " different texts; nothing was merged. Give that file to one partition only."
                )
            merged[path], owner[path] = text, list(partition)
    return merged
