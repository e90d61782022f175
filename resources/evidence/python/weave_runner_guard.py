"""Weave's runner guard: a Python audit hook installed before any code of the project under test runs.

Weave's ``sitecustomize`` (this folder, first on PYTHONPATH) imports this module in every Python process of a
spec's test command that Weave runs with evidence. ``site`` imports ``sitecustomize`` while the interpreter
starts, before the main module, ``-m pytest``, any ``-p`` plugin, conftest or test module: the earliest point
Python code can run without changing the command. (``PYTHONSTARTUP`` is for interactive sessions only, ``.pth``
files would have to be installed into site-packages, and ``-X`` options load no code.) An audit hook
(``sys.addaudithook``, PEP 578) cannot be removed or bypassed by Python code once added; it sees the events
listed below, whoever raises them. It:

- refuses to read bytecode caches (``.pyc``) inside the workspace or a ``PYTHONPYCACHEPREFIX``: the code
  under test can write them (``__pycache__`` carrying a protected test's mtime and size, a sourceless
  ``json.pyc``), so modules there are always compiled from their source, and no cache is written;
- refuses truncating, removing or renaming files in the run's evidence folder (the runner hooks only append);
- records, as attempts on the runner, what code outside the installed Python does to reach it:
  ``gc.get_objects`` / ``gc.get_referrers`` / ``gc.get_referents`` (walks of the heap that find pytest's
  Config or plugin manager), ``sys._getframe`` / ``sys._current_frames`` returning a runner's frame,
  ``ctypes`` reaching into the interpreter (``Py*`` symbols, raw addresses), a runner function given other
  ``__code__`` or defaults, special attributes of a runner's class (``unittest.TestCase``, ``_pytest.*``,
  ``pluggy.*``) set or deleted, and reads of a runner function's ``__globals__``. Weave's pytest plugin connects to the guard when it loads and signs each attempt as it
  happens: the spec is then ``tampered``.

"Code outside the installed Python": the first frame, from the one that raised the event outwards, that is
not in a pass-through helper (``unittest.mock``, pytest's ``monkeypatch``: they act for their caller), must
lie under the interpreter's own prefixes (the standard library, site-packages installed with it) or in this
folder. The project's files, a virtualenv inside the workspace and the user's site-packages are outside.
"""

import sys


def _install():
    import os

    environ = os.environ
    evidence_dir = environ.get("WEAVE_EVIDENCE_DIR")
    # Audit hooks and sys.pycache_prefix are Python >= 3.8: an older one runs unguarded, and the plugin says so.
    if not evidence_dir or not hasattr(sys, "addaudithook"):
        return None
    getframe = sys._getframe
    realpath = os.path.realpath
    join = os.path.join
    sep = os.sep
    isinstance_, str_, type_, len_ = isinstance, str, type, len

    def inside(path, roots):
        for root in roots:
            if path == root or path.startswith(root + sep):
                return True
        return False

    def workspace_root():
        # Weave's spec file lies at the workspace root, and a spec's cwd is inside the workspace.
        here = realpath(os.getcwd())
        probe = here
        while True:
            if os.path.isfile(join(probe, ".weave", "specs.json")):
                return probe
            parent = os.path.dirname(probe)
            if parent == probe:
                return here
            probe = parent

    own_dir = realpath(os.path.dirname(__file__))
    trusted = tuple(
        sorted({realpath(p) for p in (sys.base_prefix, sys.base_exec_prefix) if p} | {own_dir})
    )
    untrusted_caches = [workspace_root()]
    if sys.pycache_prefix:
        untrusted_caches.append(realpath(sys.pycache_prefix))
    untrusted_caches = tuple(untrusted_caches)
    evidence_root = realpath(evidence_dir)
    # Never write a cache for a module compiled from the workspace: nothing would read it.
    sys.dont_write_bytecode = True

    runner_packages = ("_pytest", "pytest", "pluggy", "unittest")
    pass_through = tuple(join("", *parts) for parts in (("unittest", "mock.py"), ("_pytest", "monkeypatch.py")))
    runner_dirs = tuple(sep + name + sep for name in ("_pytest", "pluggy", "unittest"))

    trusted_files = {}
    # The import system's own frames; any other "<…>" name is code compiled at run time (exec, compile).
    frozen_files = frozenset(
        "<frozen %s>" % name for name in ("importlib._bootstrap", "importlib._bootstrap_external", "zipimport")
    )

    def is_trusted_file(filename):
        known = trusted_files.get(filename)
        if known is None:
            known = filename in frozen_files or (filename[:1] == sep and inside(realpath(filename), trusted))
            trusted_files[filename] = known
        return known

    def acting_frame(depth):
        """The frame that asked for the event (skipping pass-through helpers), or None."""
        frame = getframe(depth)
        while frame is not None:
            filename = frame.f_code.co_filename
            if not (filename.endswith(pass_through) and is_trusted_file(filename)):
                return frame
            frame = frame.f_back
        return None

    def outside_installed(depth):
        frame = acting_frame(depth)
        return frame is not None and not is_trusted_file(frame.f_code.co_filename)

    def where(depth):
        frame = acting_frame(depth)
        if frame is None:
            return "?"
        filename = frame.f_code.co_filename
        root = untrusted_caches[0]
        if filename.startswith(root + sep):
            filename = filename[len_(root) + 1 :]
        return "%s:%d" % (os.path.normpath(filename), frame.f_lineno)

    def is_runner_type(obj):
        module = getattr(obj, "__module__", None)
        if not isinstance_(module, str_):
            return False
        top = module.split(".", 1)[0]
        return top in runner_packages and not module.startswith("unittest.mock")

    def is_runner_frame(frame):
        filename = frame.f_code.co_filename if frame is not None else ""
        for part in runner_dirs:
            if part in filename:
                return True
        return False

    pending = []
    sink = [None]
    busy = [False]

    def attempt(text):
        if sink[0] is not None:
            sink[0](text)
        else:
            pending.append(text)

    def evidence_path(path):
        return inside(realpath(path), (evidence_root,))

    # The depth of the frame that raised the event, seen from acting_frame: 0 acting_frame, 1 the helper that
    # called it (outside_installed, where), 2 observe, 3 the hook, 4 the code that raised the event.
    CALLER = 4
    write_flags = os.O_WRONLY | os.O_RDWR | os.O_TRUNC
    watched = frozenset(
        (
            "open",
            "os.remove",
            "os.rename",
            "os.truncate",
            "gc.get_objects",
            "gc.get_referrers",
            "gc.get_referents",
            "sys._getframe",
            "sys._current_frames",
            "ctypes.dlsym",
            "ctypes.cdata",
            "object.__setattr__",
            "object.__delattr__",
            "object.__getattr__",
            "compile",
        )
    )

    def observe(event, args):
        if event == "open":
            path = args[0]
            if not isinstance_(path, str_):
                return
            mode = args[1]
            flags = args[2] if len_(args) > 2 and args[2] is not None else 0
            appending = (mode is not None and "a" in mode) or (flags & os.O_APPEND)
            writing = (mode is not None and ("w" in mode or "+" in mode)) or (flags & write_flags)
            if path.endswith(".pyc") and not writing and not appending:
                if inside(realpath(path), untrusted_caches):
                    # Refused: the import system and pytest's assertion rewriter then compile the module from its
                    # source (both take an OSError here for "no cache"). Writing one stays allowed: never read.
                    raise PermissionError("Weave: bytecode caches in the workspace are not read: " + path)
                return
            # Only rewriting a results file can hide what the hooks wrote; appending is how they write, and a
            # line or file written by anyone else does not verify (the run is then tampered anyway).
            if writing and not (appending and not flags & os.O_TRUNC) and evidence_path(path):
                if os.path.exists(path):
                    attempt("a runner results file opened for rewriting from %s" % where(CALLER))
                    raise PermissionError("Weave: the runner's results are append-only: " + path)
            return
        if event in ("os.remove", "os.rename", "os.truncate"):
            paths = args[:2] if event == "os.rename" else args[:1]
            if any(isinstance_(path, str_) and evidence_path(path) for path in paths):
                attempt("%s of a runner results file from %s" % (event, where(CALLER)))
                raise PermissionError("Weave: the runner's results cannot be removed or replaced")
            return
        if event == "compile":
            # Code compiled under the installed Python's file names would pass for it in the checks above.
            filename = args[1] if len_(args) > 1 else None
            if isinstance_(filename, str_) and is_trusted_file(filename) and outside_installed(CALLER):
                attempt("code compiled as %s from %s" % (filename, where(CALLER)))
            return
        if event.startswith("gc."):
            if outside_installed(CALLER):
                attempt("%s called from %s (a walk of the runner's heap)" % (event, where(CALLER)))
            return
        if event == "sys._getframe":
            if is_runner_frame(args[0]) and outside_installed(CALLER):
                attempt("sys._getframe reached a runner frame from %s" % where(CALLER))
            return
        if event == "sys._current_frames":
            if outside_installed(CALLER):
                attempt("sys._current_frames called from %s" % where(CALLER))
            return
        if event == "ctypes.dlsym":
            name = args[1] if len_(args) > 1 else ""
            if isinstance_(name, str_) and (name.startswith("Py") or name.startswith("_Py")):
                if outside_installed(CALLER):
                    attempt("ctypes looked up the interpreter's %s from %s" % (name, where(CALLER)))
            return
        if event == "ctypes.cdata":
            if outside_installed(CALLER):
                attempt("ctypes read raw memory from %s" % where(CALLER))
            return
        if event == "object.__getattr__":
            obj, name = args[0], args[1]
            if name == "__globals__" and is_runner_type_of_function(obj) and outside_installed(CALLER):
                attempt("a runner function's __globals__ read from %s" % where(CALLER))
            return
        # object.__setattr__ / object.__delattr__: raised for a function's __code__, __defaults__,
        # __kwdefaults__ (a runner function given other code keeps its identity, so no reference comparison
        # sees it) and for a class's special attributes (__name__, __qualname__, __doc__, __bases__ …). A plain
        # class attribute set (`TestCase.assertEqual = …`) raises no event: the plugin's reference comparisons
        # and its test-class check see those.
        obj, name = args[0], args[1]
        if is_runner_type_of_function(obj) and outside_installed(CALLER):
            verb = "set" if event == "object.__setattr__" else "deleted"
            attempt("%s of the runner's %s %s from %s" % (name, obj.__qualname__, verb, where(CALLER)))
        elif isinstance_(obj, type_) and is_runner_type(obj) and outside_installed(CALLER):
            verb = "set" if event == "object.__setattr__" else "deleted"
            attempt("%s.%s.%s %s from %s" % (obj.__module__, obj.__qualname__, name, verb, where(CALLER)))

    def is_runner_type_of_function(obj):
        code = getattr(obj, "__code__", None)
        filename = getattr(code, "co_filename", "")
        for part in runner_dirs:
            if part in filename:
                return True
        return False

    def hook(event, args):
        if event not in watched or busy[0]:
            return
        busy[0] = True
        try:
            observe(event, args)
        except PermissionError:
            raise
        except Exception:
            pass  # an observation that fails must never break the user's process
        finally:
            busy[0] = False

    sys.addaudithook(hook)

    def connect(write):
        """Hands the guard the pytest plugin's signer: attempts so far, then each as it happens. Once only."""
        global _connect
        if sink[0] is not None:
            return False
        sink[0] = write
        # Nothing outside the audit hook's own closure keeps a way to the sink from now on.
        _connect = None
        while pending:
            write(pending.pop(0))
        return True

    return connect


_connect = _install()
del _install


def connect(write):
    """The first caller (Weave's pytest plugin, which loads before any conftest or test module) gets the attempts.

    Returns False when the guard is not installed or another caller took it first (which the plugin reports).
    """
    return _connect(write) if _connect is not None else False
