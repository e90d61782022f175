"""Weave's unittest hook: records what unittest itself concluded under ``python -m unittest``.

unittest loads no plugin, so Weave's sitecustomize imports this module while the interpreter starts, when the
command line (``sys.orig_argv``, Python >= 3.10) runs ``-m unittest``: before the main module, test discovery
and any test module or the code it imports. It then:

- takes the run's key from the inherited descriptor named by WEAVE_EVIDENCE_KEY_FD (weave_evidence_common.py)
  and connects to the runner guard (weave_runner_guard.py), signing each attempt it sees as an ``intrusion``;
- wraps unittest.result.TestResult's ``startTest`` and ``add*`` methods (every result class unittest's runners
  make calls them) to record, per test id, the outcome unittest reached, and ``TestProgram.runTests`` to sign
  those outcomes and their totals once the run has finished (``completed``); a run that never gets there
  (``os._exit(0)`` in a test, ``runTests`` replaced) only ever said it ``started``;
- keeps references to the functions a verdict rests on (unittest.TestCase's assert and run methods, ``_Outcome``,
  the wrapped result methods, the runner and program) and reports any that code under test replaced, and names
  assertion or run methods set on a test class from outside its own file, as the pytest plugin does.

A nested ``python -m unittest`` (started by a test) reports nothing: the outermost runner's verdict counts.
"""

import os
import sys


def _runs_unittest(argv):
    """Whether the interpreter's own command line runs ``-m unittest`` (options before it skipped)."""
    index = 1
    while index < len(argv):
        word = argv[index]
        if word == "-m":
            return index + 1 < len(argv) and argv[index + 1] in ("unittest", "unittest.__main__")
        if word.startswith("-m"):
            return word[2:] in ("unittest", "unittest.__main__")
        if word in ("-W", "-X"):
            index += 2
            continue
        if not word.startswith("-") or word in ("-", "-c") or word.startswith("-c"):
            return False
        index += 1
    return False


def _install():
    from weave_evidence_common import is_test_case_machinery, loaded_files, make_channel, origins, steered_classes

    channel = make_channel("unittest")
    if channel is None:
        return
    write, new_instance = channel
    os.environ["WEAVE_EVIDENCE_NESTED"] = "1"
    import builtins
    import unittest
    import unittest.case
    import unittest.main
    import unittest.result
    import unittest.runner
    import unittest.suite

    def report_intrusions(details):
        write({"instance": new_instance(), "kind": "intrusion", "details": details})

    guard = sys.modules.get("weave_runner_guard")
    if guard is None or not guard.connect(lambda text: report_intrusions([text])):
        report_intrusions(["Weave's runner guard did not hold this Python process from its start"])

    instance = new_instance()
    outcomes = {}  # test id -> "passed" | "failed" | "skipped" | "running", in the order tests started
    test_classes = []
    loaded = []  # once: the workspace's modules loaded before the first test (weave_evidence_common.loaded_files)
    collection_errors = set()
    result_type = unittest.result.TestResult
    test_case = unittest.TestCase
    failed_test = getattr(unittest.loader, "_FailedTest", None)
    vars_, type_ = vars, type

    def test_id(test):
        try:
            return str(test.id())
        except Exception:  # a test whose id() raises still counts, under its class's name
            return type_(test).__qualname__

    def settle(test, outcome):
        ident = test_id(test)
        # A failure stays a failure: a subtest failed, then the test's own end reported (addSuccess never is).
        if outcomes.get(ident) != "failed":
            outcomes[ident] = outcome

    original = {name: vars_(result_type)[name] for name in (
        "startTest",
        "addSuccess",
        "addFailure",
        "addError",
        "addSkip",
        "addExpectedFailure",
        "addUnexpectedSuccess",
        "addSubTest",
    )}

    def startTest(self, test):
        if not loaded:
            # The first test starts: discovery has imported the test modules and what they load.
            loaded.append(loaded_files(origins()))
        ident = test_id(test)
        outcomes.setdefault(ident, "running")
        cls = type_(test)
        if failed_test is not None and isinstance(test, failed_test):
            collection_errors.add(ident)
        elif isinstance(test, test_case) and cls not in test_classes:
            test_classes.append(cls)
        return original["startTest"](self, test)

    def addSuccess(self, test):
        settle(test, "passed")
        return original["addSuccess"](self, test)

    def addFailure(self, test, err):
        settle(test, "failed")
        return original["addFailure"](self, test, err)

    def addError(self, test, err):
        # An error in setUpClass / setUpModule arrives on a stand-in (_ErrorHolder): it fails the run too.
        settle(test, "failed")
        return original["addError"](self, test, err)

    def addSkip(self, test, reason):
        settle(test, "skipped")
        return original["addSkip"](self, test, reason)

    def addExpectedFailure(self, test, err):
        settle(test, "passed")
        return original["addExpectedFailure"](self, test, err)

    def addUnexpectedSuccess(self, test):
        settle(test, "failed")
        return original["addUnexpectedSuccess"](self, test)

    def addSubTest(self, test, subtest, err):
        if err is not None:
            settle(test, "failed")
        return original["addSubTest"](self, test, subtest, err)

    for wrapper in (
        startTest,
        addSuccess,
        addFailure,
        addError,
        addSkip,
        addExpectedFailure,
        addUnexpectedSuccess,
        addSubTest,
    ):
        wrapper.__qualname__ = "TestResult." + wrapper.__name__
        setattr(result_type, wrapper.__name__, wrapper)

    # `unittest.main` is the TestProgram class itself (unittest/__init__.py re-exports it under that name).
    program = sys.modules["unittest.main"].TestProgram
    run_tests = vars_(program)["runTests"]

    def runTests(self, *args, **kwargs):
        try:
            return run_tests(self, *args, **kwargs)
        finally:
            # runTests ends in sys.exit(): the SystemExit passes through here once unittest has concluded.
            complete(self)

    program.runTests = runTests
    watched = []
    for name in sorted(vars_(test_case)):
        if is_test_case_machinery(name):
            watched.append(("unittest.TestCase." + name, test_case, name))
    for holder, label, names in (
        (builtins, "builtins", ("__build_class__",)),
        (unittest.case._Outcome, "unittest.case._Outcome", ("testPartExecutor", "__init__")),
        (result_type, "unittest.result.TestResult", tuple(original) + ("wasSuccessful", "stopTest")),
        (unittest.runner.TextTestRunner, "unittest.runner.TextTestRunner", ("run", "_makeResult")),
        (unittest.runner.TextTestResult, "unittest.runner.TextTestResult", tuple(original)),
        (unittest.suite.TestSuite, "unittest.suite.TestSuite", ("run", "__call__")),
        (unittest.suite.BaseTestSuite, "unittest.suite.BaseTestSuite", ("run", "__call__", "__iter__")),
        (program, "unittest.main.TestProgram", ("runTests",)),
    ):
        for name in names:
            if name in vars_(holder):
                watched.append((label + "." + name, holder, name))
    watched = [(label, holder, name, vars_(holder)[name]) for label, holder, name in watched]
    installed = origins()
    root = os.getcwd()

    def relative(filename):
        filename = os.path.normpath(filename)
        return filename[len(root) + 1 :] if filename.startswith(root + os.sep) else filename

    def steered_test_classes():
        return steered_classes(test_classes, test_case, installed, relative)

    done = []

    def complete(program_instance):
        if done:
            return
        done.append(True)
        replaced = [label for label, holder, name, function in watched if vars_(holder).get(name) is not function]
        if replaced:
            write({"instance": new_instance(), "kind": "replaced", "functions": replaced})
        try:
            found = steered_test_classes()
        except Exception as error:  # a test class that no longer reads as a class
            found = ["unittest's test classes could not be read (%s)" % type_(error).__name__]
        if found:
            report_intrusions(found)
        tests = [{"id": ident, "outcome": outcome} for ident, outcome in outcomes.items()]
        counted = [t["outcome"] for t in tests if t["id"] not in collection_errors]
        run = {
            "runner": "unittest",
            "passed": counted.count("passed"),
            # A test that started and never reported an outcome did not pass.
            "failed": counted.count("failed") + counted.count("running"),
            "skipped": counted.count("skipped"),
            "collectionErrors": len(collection_errors),
            "listing": False,
            "tests": tests,
        }
        completed = {"instance": instance, "kind": "completed", "runner": "unittest", "runs": [run]}
        completed["loaded"] = loaded[0] if loaded else []
        write(completed)

    write({"instance": instance, "kind": "started", "runner": "unittest"})


if (
    os.environ.get("WEAVE_EVIDENCE_DIR")
    and not os.environ.get("WEAVE_EVIDENCE_NESTED")
    and _runs_unittest(getattr(sys, "orig_argv", ()))
):
    _install()
del _install
