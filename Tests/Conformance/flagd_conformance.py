"""flagd's test bed (open-feature/flagd-testbed) as an acceptance test of an OFREP server.

What it does: reads the test bed's Gherkin feature files with a small parser of its own (Feature,
Background, Scenario, Scenario Outline, Examples, tags, tables, comments), expands every outline row
into a case, and runs each case's steps through the OpenFeature Python SDK (`openfeature.api`):

  suite "evaluator": evaluator/gherkin/*.feature       flags: evaluator/flags/testkit-flags.json
  suite "targeting": gherkin/targeting.feature         flags: flags/*.json except selector-*,
                     deep-merged in file-name order, as the test bed's launchpad writes allFlags.json

Cases tagged @fractional-v1, @fractional-v2 or @deprecated are left out (tags are inherited from the
Feature by its Scenarios and from a Scenario by its Examples): they describe older bucketing.

Two modes choose the SDK's provider:
  --reference   openfeature-flagd-core evaluates in process (wrapped as an OpenFeature provider here).
                This checks the harness itself: every case must pass.
  --ofrep URL   the OFREP provider (openfeature-provider-ofrep) sends each evaluation to a running
                server, `POST URL/ofrep/v1/evaluate/flags/{key}`, with `Authorization: Bearer T` when
                --token T is given. The server must serve the suite's flags; the two suites' flag sets
                differ (three keys are defined differently), so --ofrep runs one --suite at a time.
  --flags-file-out PATH writes the selected suite's flags file (the file to start the server on);
                with neither mode it only writes the file.

It prints each feature file's passed/failed/excluded counts, each failed case with what was expected
and what came back, `N of M passed`, and exits 0 when all pass, 1 when any case fails (a step the
harness does not know is a failure of its own, printed as HARNESS ERROR, never skipped), 2 on a usage
error. Run it through scripts/flagd-conformance, which sets up its virtual environment:

  scripts/flagd-conformance /path/to/flagd-testbed --reference
  scripts/flagd-conformance /path/to/flagd-testbed --suite targeting --flags-file-out /tmp/t.json
  scripts/flagd-conformance /path/to/flagd-testbed --suite targeting --ofrep http://127.0.0.1:8016 --token T

What the OFREP provider (openfeature-provider-ofrep 0.3) asks of a server's answers, past the spec:
  - 200 answers need "reason" and "variant" keys (variant may be null); a missing one is GENERAL.
  - "reason" must be an OpenFeature reason name (DEFAULT too, which the OFREP spec's enum lacks);
    another one is GENERAL.
  - a value's JSON kind is checked: a Float flag's whole value must be written 0.0, not 0 (TYPE_MISMATCH),
    an Integer's 2, not 2.0; the caller's default is taken only when "value" is absent (null: TYPE_MISMATCH).
  - errorCode in a 200 answer is ignored; errors come with 400 (body needs errorCode and errorDetails),
    404 (FLAG_NOT_FOUND), 401/403/500 (GENERAL), 429 (GENERAL, and no request until Retry-After).
  - it sends only single-flag requests, no If-None-Match: a 304 would be a PARSE_ERROR.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import json
import logging
import os
import re
import sys
import typing
from importlib import metadata as package_metadata

EXCLUDED_TAGS = frozenset({"fractional-v1", "fractional-v2", "deprecated"})


class UsageError(Exception):
    """A command line or test bed path that cannot be used (exit status 2)."""


class HarnessError(Exception):
    """The harness cannot run a case: an unknown step, a malformed feature file, a bad value."""


# ---------------------------------------------------------------------------------------------------
# Gherkin: the subset the test bed uses, parsed strictly (anything else is a HarnessError).


@dataclasses.dataclass
class Step:
    keyword: str
    text: str
    line: int
    table: list[list[str]] | None = None
    doc_string: str | None = None


@dataclasses.dataclass
class Examples:
    name: str
    tags: frozenset[str]
    line: int
    rows: list[list[str]] = dataclasses.field(default_factory=list)  # header first


@dataclasses.dataclass
class Scenario:
    name: str
    tags: frozenset[str]
    line: int
    outline: bool
    steps: list[Step] = dataclasses.field(default_factory=list)
    examples: list[Examples] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Feature:
    path: str
    name: str = ""
    tags: frozenset[str] = frozenset()
    background: list[Step] = dataclasses.field(default_factory=list)
    scenarios: list[Scenario] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Case:
    """One scenario, or one row of an outline's Examples, with its steps made concrete."""

    path: str
    scenario: str
    example: str  # "" for a plain scenario, else "<examples name> #<row>"
    line: int
    tags: frozenset[str]
    steps: list[Step]

    @property
    def title(self) -> str:
        suffix = f" [{self.example}]" if self.example else ""
        return f"{os.path.basename(self.path)}:{self.line} {self.scenario}{suffix}"


STEP_KEYWORDS = ("Given", "When", "Then", "And", "But", "*")
SCENARIO_KEYWORDS = {"Scenario": False, "Example": False, "Scenario Outline": True, "Scenario Template": True}
EXAMPLES_KEYWORDS = ("Examples", "Scenarios")


def split_table_row(line: str, where: str) -> list[str]:
    """The cells of `| a | b |`, with Gherkin's escapes in cells: \\| \\\\ \\n (others kept as written)."""
    if not (line.startswith("|") and line.endswith("|")):
        raise HarnessError(f"{where}: table row does not start and end with '|'")
    cells, cell, index, body = [], [], 0, line[1:]
    while index < len(body):
        char = body[index]
        if char == "\\" and index + 1 < len(body):
            following = body[index + 1]
            cell.append({"|": "|", "\\": "\\", "n": "\n"}.get(following, "\\" + following))
            index += 2
            continue
        if char == "|":
            cells.append("".join(cell).strip())
            cell = []
        else:
            cell.append(char)
        index += 1
    return cells


def keyword_of(stripped: str, keywords: typing.Iterable[str]) -> tuple[str, str] | None:
    """(keyword, rest) when the line is `Keyword: rest`."""
    for keyword in keywords:
        if stripped.startswith(keyword + ":"):
            return keyword, stripped[len(keyword) + 1 :].strip()
    return None


def parse_feature(path: str) -> Feature:
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    feature = Feature(path=path)
    pending_tags: list[str] = []
    steps: list[Step] | None = None  # the step list being filled (background or scenario)
    examples: Examples | None = None  # the Examples block being filled
    describable = False  # free description text is allowed right after a header line
    index = 0
    while index < len(lines):
        number, stripped = index + 1, lines[index].strip()
        where = f"{path}:{number}"
        index += 1
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("@"):
            for tag in stripped.split("#")[0].split():
                if not tag.startswith("@"):
                    raise HarnessError(f"{where}: tag line has a word that is no tag: {tag!r}")
                pending_tags.append(tag[1:])
            continue
        if header := keyword_of(stripped, ("Feature",)):
            feature.name, feature.tags = header[1], frozenset(pending_tags)
            pending_tags, describable = [], True
            continue
        if header := keyword_of(stripped, ("Background",)):
            steps, examples, describable = feature.background, None, True
            continue
        if header := keyword_of(stripped, SCENARIO_KEYWORDS):
            keyword, name = header
            scenario = Scenario(name=name, tags=frozenset(pending_tags), line=number, outline=SCENARIO_KEYWORDS[keyword])
            feature.scenarios.append(scenario)
            pending_tags, steps, examples, describable = [], scenario.steps, None, True
            continue
        if header := keyword_of(stripped, EXAMPLES_KEYWORDS):
            if not feature.scenarios or not feature.scenarios[-1].outline:
                raise HarnessError(f"{where}: Examples outside a Scenario Outline")
            examples = Examples(name=header[1], tags=frozenset(pending_tags), line=number)
            feature.scenarios[-1].examples.append(examples)
            pending_tags, steps, describable = [], None, True
            continue
        if keyword_of(stripped, ("Rule",)):
            raise HarnessError(f"{where}: 'Rule:' is not supported by this harness")
        if stripped.startswith("|"):
            row = split_table_row(stripped, where)
            if examples is not None:
                if examples.rows and len(row) != len(examples.rows[0]):
                    raise HarnessError(f"{where}: row has {len(row)} cells, header has {len(examples.rows[0])}")
                examples.rows.append(row)
            elif steps:
                steps[-1].table = (steps[-1].table or []) + [row]
            else:
                raise HarnessError(f"{where}: table with no step or Examples before it")
            describable = False
            continue
        if stripped.startswith('"""') or stripped.startswith("```"):
            if not steps:
                raise HarnessError(f"{where}: doc string with no step before it")
            fence, body = stripped[:3], []
            while index < len(lines) and lines[index].strip() != fence:
                body.append(lines[index].strip())
                index += 1
            if index == len(lines):
                raise HarnessError(f"{where}: doc string never closed")
            index += 1
            steps[-1].doc_string = "\n".join(body)
            continue
        word = stripped.split(" ", 1)[0]
        if word in STEP_KEYWORDS and steps is not None:
            steps.append(Step(keyword=word, text=stripped[len(word) :].strip(), line=number))
            describable = False
            continue
        if describable:
            continue  # a description line under a header
        raise HarnessError(f"{where}: line not understood: {stripped!r}")
    if pending_tags:
        raise HarnessError(f"{path}: tags {pending_tags} at the end of the file belong to nothing")
    return feature


def substitute(text: str, values: dict[str, str]) -> str:
    return re.sub(r"<([^<>]+)>", lambda match: values.get(match.group(1), match.group(0)), text)


def concrete_step(step: Step, values: dict[str, str]) -> Step:
    table = [[substitute(cell, values) for cell in row] for row in step.table] if step.table else None
    doc = substitute(step.doc_string, values) if step.doc_string is not None else None
    return Step(step.keyword, substitute(step.text, values), step.line, table, doc)


def cases_of(feature: Feature) -> list[Case]:
    cases = []
    for scenario in feature.scenarios:
        tags = feature.tags | scenario.tags
        if not scenario.outline:
            steps = feature.background + scenario.steps
            cases.append(Case(feature.path, scenario.name, "", scenario.line, tags, steps))
            continue
        if not scenario.examples:
            raise HarnessError(f"{feature.path}:{scenario.line}: Scenario Outline without Examples")
        for block in scenario.examples:
            if not block.rows:
                raise HarnessError(f"{feature.path}:{block.line}: Examples without a header row")
            header = block.rows[0]
            for number, row in enumerate(block.rows[1:], start=1):
                values = dict(zip(header, row))
                steps = [concrete_step(step, values) for step in feature.background + scenario.steps]
                label = f"{block.name or 'Examples'} #{number}"
                cases.append(Case(feature.path, scenario.name, label, scenario.line, tags | block.tags, steps))
    return cases


# ---------------------------------------------------------------------------------------------------
# Steps: each phrasing the test bed uses, matched in full; an unmatched step is a HarnessError.

TYPES = ("Boolean", "String", "Integer", "Float", "Object")


def typed_value(type_name: str, text: str) -> typing.Any:
    """A cell's text as a value of a Gherkin type name (Object: JSON, `\\"` written for `"`)."""
    if type_name == "Boolean":
        if text not in ("true", "false"):
            raise HarnessError(f"not a Boolean: {text!r}")
        return text == "true"
    try:
        if type_name == "Integer":
            return int(text)
        if type_name == "Float":
            return float(text)
        if type_name == "Object":
            return json.loads(text.replace('\\"', '"'))
    except ValueError as error:
        raise HarnessError(f"not a {type_name}: {text!r} ({error})") from error
    if type_name == "String":
        return text
    raise HarnessError(f"unknown type {type_name!r}")


def same_json(expected: typing.Any, actual: typing.Any) -> bool:
    """Equal as JSON values of the same kinds: a bool is no number, an integer is no float."""
    if type(expected) is not type(actual):
        return False
    if isinstance(expected, dict):
        return expected.keys() == actual.keys() and all(same_json(expected[k], actual[k]) for k in expected)
    if isinstance(expected, list):
        return len(expected) == len(actual) and all(map(same_json, expected, actual))
    return expected == actual


def shown(value: typing.Any) -> str:
    return f"{value!r} ({type(value).__name__})"


@dataclasses.dataclass
class CaseState:
    client: typing.Any
    flag_type: str | None = None
    flag_key: str | None = None
    default: typing.Any = None
    targeting_key: str | None = None
    attributes: dict[str, typing.Any] = dataclasses.field(default_factory=dict)
    details: typing.Any = None
    checks: int = 0
    failures: list[str] = dataclasses.field(default_factory=list)

    def evaluated(self) -> typing.Any:
        if self.details is None:
            raise HarnessError("a Then step before 'the flag was evaluated with details'")
        self.checks += 1
        return self.details

    def check(self, what: str, ok: bool, expected: str, got: str) -> None:
        if not ok:
            self.failures.append(f"{what}: expected {expected}, got {got}")


STEPS: list[tuple[re.Pattern[str], typing.Callable[..., None]]] = []


def step(pattern: str) -> typing.Callable[[typing.Callable[..., None]], typing.Callable[..., None]]:
    def register(handler: typing.Callable[..., None]) -> typing.Callable[..., None]:
        STEPS.append((re.compile(pattern), handler))
        return handler

    return register


# Options the harness's providers already have: no cache in flagd-core's provider nor in OFREP's.
ACCEPTED_OPTIONS = {("cache", "CacheType", "disabled")}


@step(r'an option "([^"]*)" of type "([^"]*)" with value "([^"]*)"')
def given_option(state: CaseState, step: Step, name: str, type_name: str, value: str) -> None:
    if (name, type_name, value) not in ACCEPTED_OPTIONS:
        raise HarnessError(f"provider option {name}={value} ({type_name}) is not supported")


@step(r"a stable flagd provider|an evaluator")
def given_provider(state: CaseState, step: Step) -> None:
    """The provider is the mode's one (flagd-core in process, or OFREP), ready before any case."""


@step(r'a (\w+)-flag with key "([^"]*)" and a (?:fallback|default) value "(.*)"')
def given_flag(state: CaseState, step: Step, type_name: str, key: str, default: str) -> None:
    if type_name not in TYPES:
        raise HarnessError(f"unknown flag type {type_name!r}")
    state.flag_type, state.flag_key, state.default = type_name, key, typed_value(type_name, default)


@step(r'a context containing a targeting key with value "(.*)"')
def given_targeting_key(state: CaseState, step: Step, value: str) -> None:
    state.targeting_key = value


@step(r'a context containing a key "([^"]*)", with type "(\w+)" and with value "(.*)"')
def given_context_value(state: CaseState, step: Step, key: str, type_name: str, value: str) -> None:
    state.attributes[key] = typed_value(type_name, value)


@step(r'a context containing a nested property with outer key "([^"]*)" and inner key "([^"]*)", with value "(.*)"')
def given_nested_context_value(state: CaseState, step: Step, outer: str, inner: str, value: str) -> None:
    nested = state.attributes.setdefault(outer, {})
    if not isinstance(nested, dict):
        raise HarnessError(f"context key {outer!r} already holds a {type(nested).__name__}")
    nested[inner] = value


@step(r"the flag was evaluated with details")
def when_evaluated(state: CaseState, step: Step) -> None:
    if state.flag_type is None:
        raise HarnessError("evaluation before a flag was given")
    from openfeature.evaluation_context import EvaluationContext

    context = EvaluationContext(targeting_key=state.targeting_key, attributes=dict(state.attributes))
    method = getattr(state.client, f"get_{state.flag_type.lower()}_details")
    state.details = method(state.flag_key, state.default, context)


@step(r'the resolved details value should be "(.*)"')
def then_value(state: CaseState, step: Step, text: str) -> None:
    details = state.evaluated()
    expected = typed_value(state.flag_type, text)
    state.check("value", same_json(expected, details.value), shown(expected), shown(details.value) + errors_of(details))


@step(r'the reason should be "([^"]*)"')
def then_reason(state: CaseState, step: Step, reason: str) -> None:
    details = state.evaluated()
    got = None if details.reason is None else str(details.reason)
    state.check("reason", got == reason, repr(reason), repr(got) + errors_of(details))


@step(r'the error-code should be "([^"]*)"')
def then_error_code(state: CaseState, step: Step, code: str) -> None:
    details = state.evaluated()
    expected = code or None
    got = None if details.error_code is None else str(details.error_code)
    state.check("error code", got == expected, repr(expected), repr(got) + errors_of(details))


@step(r'the variant should be "([^"]*)"')
def then_variant(state: CaseState, step: Step, variant: str) -> None:
    details = state.evaluated()
    state.check("variant", details.variant == variant, repr(variant), repr(details.variant))


@step(r"the resolved metadata should contain")
def then_metadata_contains(state: CaseState, step: Step) -> None:
    details = state.evaluated()
    if not step.table or step.table[0] != ["key", "metadata_type", "value"]:
        raise HarnessError("metadata table must have the header | key | metadata_type | value |")
    for key, type_name, text in step.table[1:]:
        expected = typed_value(type_name, text)
        got = details.flag_metadata.get(key, "<absent>")
        state.check(f"metadata {key!r}", same_json(expected, got), shown(expected), shown(got) + errors_of(details))


@step(r"the resolved metadata is empty")
def then_metadata_empty(state: CaseState, step: Step) -> None:
    details = state.evaluated()
    state.check("metadata", not details.flag_metadata, "{}", repr(dict(details.flag_metadata)))


def errors_of(details: typing.Any) -> str:
    if details.error_code is None:
        return ""
    return f" [error {details.error_code}: {details.error_message}]"


def run_step(state: CaseState, step: Step) -> None:
    if step.doc_string is not None:
        raise HarnessError(f"line {step.line}: doc strings are not used by any known step: {step.text!r}")
    for pattern, handler in STEPS:
        if match := pattern.fullmatch(step.text):
            if step.table is not None and handler is not then_metadata_contains:
                raise HarnessError(f"line {step.line}: unexpected table under {step.text!r}")
            handler(state, step, *match.groups())
            return
    raise HarnessError(f"line {step.line}: no step definition for {step.keyword} {step.text!r}")


@dataclasses.dataclass
class Outcome:
    case: Case
    failures: list[str]
    harness_error: str | None = None

    @property
    def passed(self) -> bool:
        return not self.failures and self.harness_error is None


def run_case(client: typing.Any, case: Case) -> Outcome:
    state = CaseState(client=client)
    try:
        for each in case.steps:
            run_step(state, each)
        if state.details is None or state.checks == 0:
            raise HarnessError("the case evaluates nothing or checks nothing")
    except HarnessError as error:
        return Outcome(case, state.failures, str(error))
    return Outcome(case, state.failures)


# ---------------------------------------------------------------------------------------------------
# Test bed layout, flags and providers.


@dataclasses.dataclass
class Suite:
    name: str
    feature_paths: list[str]
    flags: dict[str, typing.Any]


def deep_merge(target: dict[str, typing.Any], source: dict[str, typing.Any]) -> dict[str, typing.Any]:
    """The launchpad's merge: objects present on both sides merge key by key, anything else replaces."""
    for key, value in source.items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            target[key] = deep_merge(target[key], value)
        else:
            target[key] = value
    return target


def load_json(path: str) -> dict[str, typing.Any]:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def merged_testbed_flags(flags_dir: str) -> dict[str, typing.Any]:
    merged: dict[str, typing.Any] = {}
    for name in sorted(os.listdir(flags_dir)):
        if name.endswith(".json") and not name.startswith("selector-"):
            deep_merge(merged, load_json(os.path.join(flags_dir, name)))
    return merged


def feature_files(directory: str) -> list[str]:
    return sorted(os.path.join(directory, name) for name in os.listdir(directory) if name.endswith(".feature"))


def load_suites(testbed: str, names: list[str]) -> list[Suite]:
    required = ["evaluator/gherkin", "evaluator/flags/testkit-flags.json", "gherkin/targeting.feature", "flags"]
    missing = [path for path in required if not os.path.exists(os.path.join(testbed, path))]
    if missing:
        raise UsageError(f"{testbed} is not a flagd-testbed checkout (missing {', '.join(missing)})")
    builders = {
        "evaluator": lambda: Suite(
            "evaluator",
            feature_files(os.path.join(testbed, "evaluator/gherkin")),
            load_json(os.path.join(testbed, "evaluator/flags/testkit-flags.json")),
        ),
        "targeting": lambda: Suite(
            "targeting",
            [os.path.join(testbed, "gherkin/targeting.feature")],
            merged_testbed_flags(os.path.join(testbed, "flags")),
        ),
    }
    return [builders[name]() for name in names]


def reference_provider(flags: dict[str, typing.Any]) -> typing.Any:
    """flagd-core evaluates in process; it offers an evaluator, so it is wrapped as a provider here."""
    from openfeature.contrib.tools.flagd.core import FlagdCore
    from openfeature.provider import AbstractProvider, Metadata

    core = FlagdCore()
    core.set_flags(flags)

    class FlagdCoreProvider(AbstractProvider):
        def get_metadata(self) -> Metadata:
            return Metadata(name="openfeature-flagd-core in process")

        def resolve_boolean_details(self, flag_key, default_value, evaluation_context=None):  # type: ignore[no-untyped-def]
            return core.resolve_boolean_value(flag_key, default_value, evaluation_context)

        def resolve_string_details(self, flag_key, default_value, evaluation_context=None):  # type: ignore[no-untyped-def]
            return core.resolve_string_value(flag_key, default_value, evaluation_context)

        def resolve_integer_details(self, flag_key, default_value, evaluation_context=None):  # type: ignore[no-untyped-def]
            return core.resolve_integer_value(flag_key, default_value, evaluation_context)

        def resolve_float_details(self, flag_key, default_value, evaluation_context=None):  # type: ignore[no-untyped-def]
            return core.resolve_float_value(flag_key, default_value, evaluation_context)

        def resolve_object_details(self, flag_key, default_value, evaluation_context=None):  # type: ignore[no-untyped-def]
            return core.resolve_object_value(flag_key, default_value, evaluation_context)

    return FlagdCoreProvider()


def ofrep_provider(url: str, token: str | None) -> typing.Any:
    from openfeature.contrib.provider.ofrep import OFREPProvider

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return OFREPProvider(base_url=url, headers_factory=lambda: dict(headers))


# ---------------------------------------------------------------------------------------------------
# Running and reporting.


def run_suite(suite: Suite, provider: typing.Any) -> list[tuple[str, list[Outcome], int]]:
    """Per feature file: its outcomes and how many of its cases were excluded."""
    from openfeature import api

    domain = f"flagd-conformance-{suite.name}"
    api.set_provider_and_wait(provider, domain)
    client = api.get_client(domain)
    results = []
    for path in suite.feature_paths:
        cases = cases_of(parse_feature(path))
        kept = [case for case in cases if not case.tags & EXCLUDED_TAGS]
        results.append((path, [run_case(client, case) for case in kept], len(cases) - len(kept)))
    return results


def report(testbed: str, results: list[tuple[str, list[Outcome], int]], verbose: bool) -> int:
    total = passed = harness_errors = 0
    by_tag: collections.Counter[str] = collections.Counter()
    for path, outcomes, excluded in results:
        good = sum(outcome.passed for outcome in outcomes)
        total, passed = total + len(outcomes), passed + good
        name = os.path.relpath(path, testbed)
        print(f"{name}: {good} passed, {len(outcomes) - good} failed, {excluded} excluded")
        for outcome in outcomes:
            by_tag.update(outcome.case.tags)
            if verbose and outcome.passed:
                print(f"  ok    {outcome.case.title}")
            if outcome.passed:
                continue
            print(f"  FAIL  {outcome.case.title}")
            for failure in outcome.failures:
                print(f"        {failure}")
            if outcome.harness_error:
                harness_errors += 1
                print(f"        HARNESS ERROR: {outcome.harness_error}")
    if by_tag:
        print("cases by tag: " + ", ".join(f"@{tag} {count}" for tag, count in sorted(by_tag.items())))
    if harness_errors:
        print(f"HARNESS ERRORS: {harness_errors} case(s) could not be run as written (see above)")
    print(f"conformance: {passed} passed, {total - passed} failed")
    print(f"{passed} of {total} passed")
    return 0 if passed == total and total > 0 else 1


def package_versions() -> str:
    names = ["openfeature-sdk", "openfeature-provider-ofrep", "openfeature-flagd-core"]
    return ", ".join(f"{name} {package_metadata.version(name)}" for name in names)


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="flagd-conformance",
        description="flagd's test bed through the OpenFeature Python SDK, in process or over OFREP.",
    )
    parser.add_argument("testbed", help="a flagd-testbed checkout (a plain directory)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--reference", action="store_true", help="evaluate with openfeature-flagd-core in process")
    mode.add_argument("--ofrep", metavar="URL", help="evaluate through the OFREP provider against URL")
    parser.add_argument("--token", help="bearer token for --ofrep")
    parser.add_argument("--suite", choices=["evaluator", "targeting", "all"], default="all")
    parser.add_argument("--flags-file-out", metavar="PATH", help="write the suite's flags file to PATH")
    parser.add_argument("-v", "--verbose", action="store_true", help="list passing cases too")

    arguments = parser.parse_args(argv)
    if arguments.token and not arguments.ofrep:
        raise UsageError("--token goes with --ofrep")
    one_suite_needed = arguments.ofrep or arguments.flags_file_out
    if one_suite_needed and arguments.suite == "all":
        raise UsageError(
            "--ofrep and --flags-file-out need --suite evaluator or --suite targeting: the two suites' flag sets differ"
        )
    if not (arguments.reference or arguments.ofrep or arguments.flags_file_out):
        raise UsageError("choose --reference, --ofrep URL or --flags-file-out PATH")
    return arguments


def main(argv: list[str]) -> int:
    try:
        arguments = parse_arguments(argv)
        # flagd-core logs each operator error it turns into null (with a traceback); the SDK logs
        # each failed evaluation. Shown with --verbose only: the report says what failed.
        logging.basicConfig(level=logging.WARNING if arguments.verbose else logging.CRITICAL)
        names = ["evaluator", "targeting"] if arguments.suite == "all" else [arguments.suite]
        suites = load_suites(arguments.testbed, names)
    except UsageError as error:
        print(f"flagd-conformance: {error}", file=sys.stderr)
        return 2
    if arguments.flags_file_out:
        with open(arguments.flags_file_out, "w", encoding="utf-8") as handle:
            json.dump(suites[0].flags, handle, indent=2)
        print(f"wrote the {suites[0].name} suite's flags to {arguments.flags_file_out}")
        if not (arguments.reference or arguments.ofrep):
            return 0
    where = "in process (openfeature-flagd-core)" if arguments.reference else f"over OFREP at {arguments.ofrep}"
    print(f"flagd test bed {arguments.testbed}, evaluated {where}; {package_versions()}")
    print(f"excluded tags: {', '.join('@' + tag for tag in sorted(EXCLUDED_TAGS))}")
    results = []
    try:
        for suite in suites:
            provider = reference_provider(suite.flags) if arguments.reference else ofrep_provider(arguments.ofrep, arguments.token)
            results += run_suite(suite, provider)
    except HarnessError as error:
        print(f"HARNESS ERROR: {error}")
        return 1
    return report(arguments.testbed, results, arguments.verbose)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
