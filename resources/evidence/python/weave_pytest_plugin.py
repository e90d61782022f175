"""Weave's pytest plugin: records what pytest itself concluded, whatever the command does with its output.

Weave puts this folder first on PYTHONPATH for a spec's test command. pytest finds the plugin through the
``pytest11`` entry point of the ``weave_pytest_plugin`` distribution next to it, so a command that replaces
PYTHONPATH simply runs without it (no import error, no changed behaviour). At the end of the session the plugin
writes one JSON file into WEAVE_EVIDENCE_DIR: passed / failed / skipped counts, collection errors, and whether
the session only collected (``--co``). Code under test runs in the same process and could forge the file.
"""

import json
import os
import time

# Only the outermost test runner reports: a pytest (or node --test, mocha) started by a test finds the mark
# this session sets for every process its tests start.
_NESTED = "WEAVE_EVIDENCE_NESTED"
_DIR = None if os.environ.get(_NESTED) else os.environ.get("WEAVE_EVIDENCE_DIR")
_counts = {"passed": 0, "failed": 0, "skipped": 0, "collectionErrors": 0}


def pytest_configure(config):
    if _DIR:
        os.environ[_NESTED] = "1"


def pytest_runtest_logreport(report):
    if not _DIR:
        return
    if report.when == "call":
        if report.passed:
            _counts["passed"] += 1
        elif report.failed:
            _counts["failed"] += 1
        elif report.skipped:
            # xfail shows as skipped with `wasxfail`: the test ran and failed as expected.
            _counts["passed" if hasattr(report, "wasxfail") else "skipped"] += 1
    elif report.failed:
        # An error in setup or teardown fails the test.
        _counts["failed"] += 1
    elif report.when == "setup" and report.skipped:
        _counts["skipped"] += 1


def pytest_collectreport(report):
    if _DIR and report.failed:
        _counts["collectionErrors"] += 1


def pytest_sessionfinish(session, exitstatus):
    if not _DIR:
        return
    run = dict(_counts, runner="pytest", listing=bool(session.config.option.collectonly))
    path = os.path.join(_DIR, "pytest-%d-%d.json" % (os.getpid(), time.time_ns()))
    try:
        with open(path, "w", encoding="utf-8") as out:
            json.dump({"runs": [run]}, out)
    except OSError:
        pass  # the results directory is gone (the run was cancelled)
