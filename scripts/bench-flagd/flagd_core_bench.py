"""The baseline of `scripts/bench tweaks`' targeting figures: openfeature-flagd-core (PyPI), flagd's
reference evaluator, evaluating the same flags file in process, timed here the way EnvScriptBench times
ours (the best of several rounds, so a busy machine's pauses are left out).

usage: flagd_core_bench.py FLAGS_FILE ITERATIONS
Prints one line per rule: `fractional NS` and `two_attributes NS` (nanoseconds per evaluation)."""

import json
import sys
import time

from openfeature.contrib.tools.flagd.core import FlagdCore
from openfeature.evaluation_context import EvaluationContext


def best_ns_per_evaluation(evaluate, iterations: int, rounds: int = 5) -> float:
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter_ns()
        for index in range(iterations):
            evaluate(index)
        best = min(best, (time.perf_counter_ns() - started) / iterations)
    return best


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as file:
        flags = json.load(file)
    iterations = int(sys.argv[2])
    core = FlagdCore()
    core.set_flags(flags)
    # The same contexts as the Swift side: eight users taking turns for the split, one German premium user.
    users = [EvaluationContext(targeting_key=f"user-{index}") for index in range(8)]
    premium = EvaluationContext(targeting_key="user-1", attributes={"country": "DE", "plan": "premium"})
    if core.resolve_boolean_value("bench.two_attributes", False, premium).value is not True:
        print("flagd-core: bench.two_attributes is not true for the premium user", file=sys.stderr)
        return 1
    fractional = best_ns_per_evaluation(
        lambda index: core.resolve_string_value("bench.fractional", "", users[index % 8]), iterations)
    two_attributes = best_ns_per_evaluation(
        lambda index: core.resolve_boolean_value("bench.two_attributes", False, premium), iterations)
    print(f"fractional {fractional:.0f}")
    print(f"two_attributes {two_attributes:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
