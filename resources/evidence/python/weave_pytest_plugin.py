"""Weave's pytest plugin: records what pytest itself concluded, whatever the command does with its output.

Weave puts this folder first on PYTHONPATH for a spec's test command. pytest finds the plugin through the
``pytest11`` entry point of the ``weave_pytest_plugin`` distribution next to it, so a command that replaces
PYTHONPATH simply runs without it (no import error, no changed behaviour). pytest loads it before any
conftest.py or test module. It then:

- takes the run's key from the inherited descriptor named by WEAVE_EVIDENCE_KEY_FD (one line ``<id> <key>``)
  and closes it, so no code under test can read it there;
- keeps references to the functions a verdict rests on (unittest.TestCase's assert and run methods, the
  pytest and pluggy functions that run a test and turn its outcome into a report) and reports any that code
  under test replaced;
- holds pytest's outcome path: the implementations of the hooks that decide an outcome must come from where
  test infrastructure may (the installed Python, conftest.py, plugins the command names or an entry point
  loads), pytest's hook dispatch must be the one it built, and unittest test classes may only carry assertion
  and run methods defined in their own file; anything else is reported as an ``intrusion``;
- connects to the runner guard (weave_runner_guard.py, installed by Weave's sitecustomize before any user
  code) and signs each attempt it sees as an ``intrusion`` as it happens;
- writes signed records into WEAVE_EVIDENCE_DIR (one JSON envelope per line, HMAC-SHA256 over the body, as
  src/core/check/evidence/records.ts checks them): ``started`` when the session starts, ``completed`` with
  the counts when it finishes. A session that never finishes (``os._exit(0)`` in a test) never completes,
  and a file code under test writes cannot be signed.

Everything the signing path calls is taken at import, and the key lives in a closure: code under test that
replaces json.dumps or hmac.new later changes nothing here. Python hides nothing from code in its own
process, though (closures and frames reached through f_back are not audited): docs/runner-integrity.md says
what is held, what is observed and what remains possible.
"""

import os

from weave_evidence_common import code_file, is_test_case_machinery, loaded_files, make_channel, origins, steered_classes


def _watched_functions():
    """(name, holder, attribute, original) for what a pass rests on, taken before user code loads."""
    import builtins
    import unittest
    import unittest.case
    import unittest.result

    import _pytest.python
    import _pytest.reports
    import _pytest.runner
    import _pytest.unittest
    import pluggy._callers
    import pluggy._hooks
    import pluggy._manager

    taken = []
    for name in sorted(vars(unittest.TestCase)):
        if is_test_case_machinery(name):
            taken.append(("unittest.TestCase." + name, unittest.TestCase, name))
    result_methods = ("addSuccess", "addFailure", "addError", "addSubTest", "addSkip", "addExpectedFailure")
    for holder, label, names in (
        (builtins, "builtins", ("__build_class__",)),
        (unittest.case._Outcome, "unittest.case._Outcome", ("testPartExecutor", "__init__")),
        (unittest.result.TestResult, "unittest.result.TestResult", result_methods + ("wasSuccessful",)),
        (_pytest.runner, "_pytest.runner", ("call_and_report", "call_runtest_hook", "pytest_runtest_makereport")),
        (_pytest.runner, "_pytest.runner", ("runtestprotocol", "check_interactive_exception")),
        (_pytest.runner.CallInfo, "_pytest.runner.CallInfo", ("from_call",)),
        (_pytest.reports.TestReport, "_pytest.reports.TestReport", ("from_item_and_call", "__init__")),
        (_pytest.reports.BaseReport, "_pytest.reports.BaseReport", ("passed", "failed", "skipped")),
        (_pytest.python, "_pytest.python", ("pytest_pyfunc_call",)),
        (_pytest.python.Function, "_pytest.python.Function", ("runtest",)),
        (_pytest.unittest.TestCaseFunction, "_pytest.unittest.TestCaseFunction", ("runtest",) + result_methods),
        (pluggy._callers, "pluggy._callers", ("_multicall",)),
        (pluggy._hooks._HookCaller, "pluggy.HookCaller", ("__call__", "get_hookimpls", "_add_hookimpl")),
        (pluggy._manager.PluginManager, "pluggy.PluginManager", ("_hookexec",)),
    ):
        for name in names:
            if name in vars(holder):
                taken.append((label + "." + name, holder, name))
    return [(label, holder, name, vars(holder)[name]) for label, holder, name in taken]


# The hooks whose implementations decide a test's outcome or what is counted: a foreign implementation (a
# tryfirst pytest_pyfunc_call returning True, a makereport that rewrites the outcome) steers the verdict.
_OUTCOME_HOOKS = (
    "pytest_collection",
    "pytest_collection_modifyitems",
    "pytest_make_collect_report",
    "pytest_pycollect_makeitem",
    "pytest_collectreport",
    "pytest_runtestloop",
    "pytest_runtest_protocol",
    "pytest_runtest_setup",
    "pytest_runtest_call",
    "pytest_pyfunc_call",
    "pytest_runtest_teardown",
    "pytest_runtest_makereport",
    "pytest_runtest_logreport",
)


def _plugin():
    channel = make_channel("pytest")
    # Only the outermost test runner reports: a pytest (or node --test, mocha) started by a test finds the mark
    # this session sets for every process its tests start (and has no key of its own anyway).
    if channel is None or os.environ.get("WEAVE_EVIDENCE_NESTED"):
        return {}
    write, new_instance = channel
    import sys

    def report_intrusions(details):
        write({"instance": new_instance(), "kind": "intrusion", "details": details})

    # The audit hook sitecustomize installed before any user code (weave_runner_guard.py) signs its findings
    # through this plugin from now on. Absent (python -S) or taken by another caller first, nothing watched the
    # code that ran before the tests: that is said, and the run is tampered.
    guard = sys.modules.get("weave_runner_guard")
    if guard is None or not guard.connect(lambda text: report_intrusions([text])):
        report_intrusions(["Weave's runner guard did not hold this Python process from its start"])
    watched = _watched_functions()
    installed = origins()
    import unittest

    test_case = unittest.TestCase
    vars_ = vars
    reported = set()
    counts = {"passed": 0, "failed": 0, "skipped": 0, "collectionErrors": 0}
    instance = new_instance()
    held = {}  # the plugin manager's parts as they were when this plugin registered, before any conftest
    allowed = {"files": None}
    judged = {}
    test_classes = []
    loaded = []  # the workspace's modules loaded before the first test (weave_evidence_common.loaded_files)

    def relative(filename):
        root = held.get("root", "")
        filename = os.path.normpath(filename)
        return filename[len(root) + 1 :] if root and filename.startswith(root + os.sep) else filename

    def allowed_files():
        # Computed once the tests start: the conftests and named plugins are all loaded by then.
        if allowed["files"] is None:
            pm = held["pm"]
            files = set()
            names = list(held.get("named", ()))
            names += [n for n in os.environ.get("PYTEST_PLUGINS", "").split(",") if n]
            for plugin in pm.get_plugins():
                names += list(getattr(plugin, "pytest_plugins", ()) or ()) if hasattr(plugin, "__file__") else []
            for name in names:
                module = sys.modules.get(name if isinstance(name, str) else "")
                if module is not None and getattr(module, "__file__", None):
                    files.add(module.__file__)
            for plugin, _dist in pm.list_plugin_distinfo():
                file = getattr(plugin, "__file__", None)
                if file:
                    files.add(file)
            allowed["files"] = files
        return allowed["files"]

    def foreign(function):
        """Why a hook implementation does not come from where test infrastructure may, or None."""
        filename = code_file(function)
        if filename is None:
            return "not Python code"
        if installed(filename) or os.path.basename(filename) == "conftest.py" or filename in allowed_files():
            return None
        return "defined in " + relative(filename)

    def foreign_hooks():
        pm = held.get("pm")
        if pm is None:
            return []
        found = []
        if pm._inner_hookexec is not held["inner"]:
            found.append("pytest's plugin manager runs its hooks through a replaced function")
        for name in _OUTCOME_HOOKS:
            caller = getattr(pm.hook, name, None)
            if caller is None:
                continue
            hookexec = getattr(caller, "_hookexec", None)
            if caller is not held["callers"].get(name) or getattr(hookexec, "__func__", None) is not held["hookexec"]:
                found.append("pytest's %s hook was replaced" % name)
                continue
            for impl in held["get_hookimpls"](caller):
                function = impl.function
                if function in judged:
                    why = judged[function]
                else:
                    why = judged[function] = foreign(function)
                if why is not None:
                    found.append("a %s implementation not from test infrastructure (%s)" % (name, why))
        return found

    def steered_test_classes():
        return steered_classes(test_classes, test_case, installed, relative)

    def check_originals():
        fresh = []
        for label, holder, name, original in watched:
            if vars_(holder).get(name) is not original and label not in reported:
                reported.add(label)
                fresh.append(label)
        if fresh:
            write({"instance": new_instance(), "kind": "replaced", "functions": fresh})
        try:
            found = foreign_hooks() + steered_test_classes()
        except Exception as error:  # the runner's own objects no longer read as pytest made them
            found = ["pytest's plugin manager could not be read (%s)" % type(error).__name__]
        found = [text for text in found if text not in reported]
        if found:
            reported.update(found)
            report_intrusions(found)

    def pytest_addhooks(pluginmanager):
        # Called as this plugin registers (entry points load before any conftest, test module or the code
        # they import): the plugin manager's dispatch as pytest built it.
        caller_type = type(pluginmanager.hook.pytest_pyfunc_call)
        held.update(
            pm=pluginmanager,
            inner=pluginmanager._inner_hookexec,
            hookexec=type(pluginmanager)._hookexec,
            get_hookimpls=caller_type.get_hookimpls,
            callers={name: getattr(pluginmanager.hook, name, None) for name in _OUTCOME_HOOKS},
        )

    def pytest_configure(config):
        os.environ["WEAVE_EVIDENCE_NESTED"] = "1"
        held["root"] = str(config.rootpath)
        held["named"] = [n for n in (getattr(config.option, "plugins", None) or []) if not n.startswith("no:")]

    def pytest_sessionstart(session):
        write({"instance": instance, "kind": "started", "runner": "pytest"})

    def pytest_collection_finish(session):
        # Collection has imported every test module, conftest and what they load: the tests start next.
        loaded[:] = loaded_files(installed)
        for item in session.items:
            cls = getattr(item, "cls", None)
            if isinstance(cls, type) and issubclass(cls, test_case) and cls not in test_classes:
                test_classes.append(cls)

    def pytest_runtest_logreport(report):
        check_originals()
        if report.when == "call":
            if report.passed:
                counts["passed"] += 1
            elif report.failed:
                counts["failed"] += 1
            elif report.skipped:
                # xfail shows as skipped with `wasxfail`: the test ran and failed as expected.
                counts["passed" if hasattr(report, "wasxfail") else "skipped"] += 1
        elif report.failed:
            # An error in setup or teardown fails the test.
            counts["failed"] += 1
        elif report.when == "setup" and report.skipped:
            counts["skipped"] += 1

    def pytest_collectreport(report):
        if report.failed:
            counts["collectionErrors"] += 1

    def pytest_sessionfinish(session, exitstatus):
        check_originals()
        run = dict(counts, runner="pytest", listing=bool(session.config.option.collectonly))
        write({"instance": instance, "kind": "completed", "runner": "pytest", "runs": [run], "loaded": loaded})

    return {
        "pytest_addhooks": pytest_addhooks,
        "pytest_configure": pytest_configure,
        "pytest_sessionstart": pytest_sessionstart,
        "pytest_collection_finish": pytest_collection_finish,
        "pytest_runtest_logreport": pytest_runtest_logreport,
        "pytest_collectreport": pytest_collectreport,
        "pytest_sessionfinish": pytest_sessionfinish,
    }


globals().update(_plugin())
del _plugin
