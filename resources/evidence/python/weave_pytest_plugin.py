"""Weave's pytest plugin: records what pytest itself concluded, whatever the command does with its output.

Weave puts this folder first on PYTHONPATH for a spec's test command. pytest finds the plugin through the
``pytest11`` entry point of the ``weave_pytest_plugin`` distribution next to it, so a command that replaces
PYTHONPATH simply runs without it (no import error, no changed behaviour). pytest loads it before any
conftest.py or test module. It then:

- takes the run's key from the inherited descriptor named by WEAVE_EVIDENCE_KEY_FD (one line ``<id> <key>``)
  and closes it, so no code under test can read it there;
- keeps references to the functions a verdict rests on (unittest.TestCase's assert methods, the pytest
  functions that run a test and turn its outcome into a report) and reports any that code under test
  replaced;
- writes signed records into WEAVE_EVIDENCE_DIR (one JSON envelope per line, HMAC-SHA256 over the body, as
  src/core/check/evidence/records.ts checks them): ``started`` when the session starts, ``completed`` with
  the counts when it finishes. A session that never finishes (``os._exit(0)`` in a test) never completes,
  and a file code under test writes cannot be signed.

Everything the signing path calls is taken at import, and the key lives in a closure: code under test that
replaces json.dumps or hmac.new later changes nothing here. Python hides nothing from code in its own
process, though (gc, frames, closures are all inspectable): see the README's Containment section.
"""

import os


def _make_channel():
    # Taken now, before any user code: later replacements of these names do not reach the signing path.
    import _hashlib  # the OpenSSL digests, a C module whose functions cannot be patched in place

    sha256 = _hashlib.openssl_sha256
    os_open, os_write, os_close, os_read, os_fstat = os.open, os.write, os.close, os.read, os.fstat
    environ = os.environ
    urandom = os.urandom
    getpid = os.getpid
    import stat

    is_socket = stat.S_ISSOCK
    str_type, bool_type, int_type, list_type, dict_type = str, bool, int, list, dict
    isinstance_ = isinstance
    bytes_ = bytes
    len_ = len
    ord_ = ord

    def hmac_hex(key, text):
        block = key.encode("ascii")
        if len_(block) > 64:
            block = sha256(block).digest()
        block = block + b"\0" * (64 - len_(block))
        inner = sha256(bytes_(b ^ 0x36 for b in block) + text.encode("utf-8")).digest()
        return sha256(bytes_(b ^ 0x5C for b in block) + inner).hexdigest()

    def encode_string(text):
        out = '"'
        for ch in text:
            code = ord_(ch)
            if ch == '"' or ch == "\\" or code < 0x20 or code > 0x7E:
                out += "\\u%04x" % code if code <= 0xFFFF else "?"
            else:
                out += ch
        return out + '"'

    def encode(value):
        if value is None:
            return "null"
        if isinstance_(value, bool_type):
            return "true" if value else "false"
        if isinstance_(value, int_type):
            return "%d" % value
        if isinstance_(value, str_type):
            return encode_string(value)
        if isinstance_(value, list_type):
            return "[" + ",".join([encode(v) for v in value]) + "]"
        if isinstance_(value, dict_type):
            return "{" + ",".join([encode_string(k) + ":" + encode(v) for k, v in value.items()]) + "}"
        return "null"

    def receive_key():
        fd_text = environ.pop("WEAVE_EVIDENCE_KEY_FD", None)
        if fd_text is None or not fd_text.isdigit() or len_(fd_text) > 4 or int(fd_text) < 3:
            return None
        fd = int(fd_text)
        try:
            if not is_socket(os_fstat(fd).st_mode):
                return None
            line = b""
            while len_(line) < 140:
                byte = os_read(fd, 1)
                if not byte or byte == b"\n":
                    break
                line += byte
        except OSError:
            return None
        finally:
            try:
                os_close(fd)
            except OSError:
                pass
        parts = line.decode("ascii", "replace").split(" ")
        if len_(parts) != 2 or len_(parts[1]) != 64:
            return None
        key_id, key = parts
        if not key_id or not all(c in "0123456789abcdefghijklmnopqrstuvwxyz" for c in key_id):
            return None
        if not all(c in "0123456789abcdef" for c in key):
            return None
        return key_id, key

    directory = environ.get("WEAVE_EVIDENCE_DIR")
    received = receive_key()
    if not directory or received is None:
        return None
    key_id, key = received
    path = os.path.join(directory, "pytest-%d-%s.jsonl" % (getpid(), urandom(6).hex()))

    def write(record):
        body = encode(record)
        line = encode({"key": key_id, "body": body, "mac": hmac_hex(key, body)}) + "\n"
        try:
            fd = os_open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            try:
                os_write(fd, line.encode("ascii"))
            finally:
                os_close(fd)
        except OSError:
            pass  # the results directory is gone (the run was cancelled)

    def new_instance():
        return urandom(8).hex()

    return write, new_instance


def _watched_functions():
    """(name, holder, attribute, original) for what a pass rests on, taken before user code loads."""
    import unittest

    import _pytest.python
    import _pytest.reports
    import _pytest.runner

    taken = []
    for name in sorted(vars(unittest.TestCase)):
        if name.startswith("assert") or name.startswith("fail") or name == "_baseAssertEqual":
            taken.append(("unittest.TestCase." + name, unittest.TestCase, name))
    for holder, label, names in (
        (_pytest.runner, "_pytest.runner", ("call_and_report", "call_runtest_hook", "pytest_runtest_makereport")),
        (_pytest.runner.CallInfo, "_pytest.runner.CallInfo", ("from_call",)),
        (_pytest.reports.TestReport, "_pytest.reports.TestReport", ("from_item_and_call", "__init__")),
        (_pytest.reports.BaseReport, "_pytest.reports.BaseReport", ("passed", "failed", "skipped")),
        (_pytest.python, "_pytest.python", ("pytest_pyfunc_call",)),
        (_pytest.python.Function, "_pytest.python.Function", ("runtest",)),
    ):
        for name in names:
            if name in vars(holder):
                taken.append((label + "." + name, holder, name))
    return [(label, holder, name, vars(holder)[name]) for label, holder, name in taken]


def _plugin():
    channel = _make_channel()
    # Only the outermost test runner reports: a pytest (or node --test, mocha) started by a test finds the mark
    # this session sets for every process its tests start (and has no key of its own anyway).
    if channel is None or os.environ.get("WEAVE_EVIDENCE_NESTED"):
        return {}
    write, new_instance = channel
    watched = _watched_functions()
    vars_ = vars
    reported = set()
    counts = {"passed": 0, "failed": 0, "skipped": 0, "collectionErrors": 0}
    instance = new_instance()

    def check_originals():
        fresh = []
        for label, holder, name, original in watched:
            if vars_(holder).get(name) is not original and label not in reported:
                reported.add(label)
                fresh.append(label)
        if fresh:
            write({"instance": new_instance(), "kind": "replaced", "functions": fresh})

    def pytest_configure(config):
        os.environ["WEAVE_EVIDENCE_NESTED"] = "1"

    def pytest_sessionstart(session):
        write({"instance": instance, "kind": "started", "runner": "pytest"})

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
        write({"instance": instance, "kind": "completed", "runner": "pytest", "runs": [run]})

    return {
        "pytest_configure": pytest_configure,
        "pytest_sessionstart": pytest_sessionstart,
        "pytest_runtest_logreport": pytest_runtest_logreport,
        "pytest_collectreport": pytest_collectreport,
        "pytest_sessionfinish": pytest_sessionfinish,
    }


globals().update(_plugin())
del _plugin
