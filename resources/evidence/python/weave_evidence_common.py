"""What Weave's Python runner hooks share: the signed results channel and what a verdict rests on.

The pytest plugin (weave_pytest_plugin.py) and the unittest hook (weave_unittest_hook.py) both import this
module before any code of the project under test runs, and take from it the signer (the run's key received on
the inherited descriptor, kept in a closure) and the checks of unittest's machinery and of where code comes from.
"""

import os


def make_channel(runner):
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
    path = os.path.join(directory, "%s-%d-%s.jsonl" % (runner, getpid(), urandom(6).hex()))

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


def is_test_case_machinery(name):
    """unittest.TestCase's members a verdict rests on: its assertions and the methods that run a test."""
    return (
        name.startswith("assert")
        or name.startswith("fail")
        or name
        in (
            "_baseAssertEqual",
            "_getAssertEqualityFunc",
            "__init_subclass__",
            "__call__",
            "run",
            "debug",
            "_callTestMethod",
            "_callSetUp",
            "_callTearDown",
            "_callCleanup",
            "doCleanups",
        )
    )


def origins():
    """Where code may come from to take part in the verdict: files the code under test cannot write.

    The installed Python (the standard library, site-packages under the interpreter's prefixes), this folder,
    conftest.py files and the plugin modules a command names (``-p``, ``pytest_plugins``, PYTEST_PLUGINS) or
    an installed distribution's entry point loads: Weave protects those as test infrastructure.
    """
    import os
    import sys

    realpath = os.path.realpath
    sep = os.sep
    trusted = tuple(
        sorted(
            {realpath(p) for p in (sys.base_prefix, sys.base_exec_prefix) if p}
            | {realpath(os.path.dirname(__file__))}
        )
    )
    known = {}

    def installed(filename):
        found = known.get(filename)
        if found is None:
            real = realpath(filename) if filename[:1] == sep else filename
            found = filename.startswith("<frozen ") or any(real == t or real.startswith(t + sep) for t in trusted)
            known[filename] = found
        return found

    return installed


def code_file(value):
    """The file a function (or a method, classmethod, staticmethod, wrapper of one) was defined in, or None."""
    for _ in range(8):
        inner = getattr(value, "__func__", None) or getattr(value, "__wrapped__", None)
        if inner is None:
            break
        value = inner
    code = getattr(value, "__code__", None)
    filename = getattr(code, "co_filename", None)
    return filename if isinstance(filename, str) else None


def steered_classes(test_classes, test_case, installed, relative):
    """Assertion or run methods set on a test class from outside the class's own file, as sentences.

    A method may come from the class's own file, or from the installed Python when the class itself is
    installed (a library's TestCase subclass); anything else steers the class's verdict from elsewhere.
    """
    import sys

    vars_ = vars
    found = []
    for cls in test_classes:
        for holder in cls.__mro__:
            if holder is test_case or holder is object:
                break
            module = sys.modules.get(holder.__module__)
            home = getattr(module, "__file__", None)
            for name, value in list(vars_(holder).items()):
                if not is_test_case_machinery(name):
                    continue
                filename = code_file(value)
                if filename is not None and home is not None and (
                    filename == home or (installed(home) and installed(filename))
                ):
                    continue
                where_from = relative(filename) if filename else "not Python code"
                found.append("%s.%s was set from outside its class (%s)" % (holder.__qualname__, name, where_from))
    return found


# Where installed third-party code lives (a virtual environment may sit inside the checkout): never the test's own.
_INSTALLED_PARTS = ("site-packages", "dist-packages")


def loaded_files(installed):
    """The source files of the modules loaded so far that are not the installed Python's, nor third-party packages.

    Taken once, as the first test starts: the test modules, the conftests and plugins, and every helper they
    loaded, however its name was computed. Weave keeps those a check of the user's own tree saw as part of
    the protected set (src/core/sandbox/observedLoads.ts), minus the code under test.
    """
    import sys

    sep = os.sep
    found = []
    for module in list(sys.modules.values()):
        filename = getattr(module, "__file__", None)
        if not isinstance(filename, str) or filename[:1] != sep or installed(filename):
            continue
        if any(sep + part + sep in filename for part in _INSTALLED_PARTS):
            continue
        found.append(filename)
    return sorted(set(found))
