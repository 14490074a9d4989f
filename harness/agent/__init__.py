"""The agent harness: a config, the loop, its run report and checkpoints.

>>> from harness.agent import AgentConfig, run_agent
>>> report = run_agent(AgentConfig(context_budget=5000))   # doctest: +SKIP
>>> print(report.table())                                   # doctest: +SKIP
"""

from harness.agent.config import AgentConfig
from harness.agent.loop import SYSTEM_PROMPT, run_agent
from harness.agent.report import RunReport, TurnRecord

__all__ = ["AgentConfig", "RunReport", "SYSTEM_PROMPT", "TurnRecord", "run_agent"]
