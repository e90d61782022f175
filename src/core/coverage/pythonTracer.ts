// The sitecustomize.py Weave puts first on a spec's PYTHONPATH: every Python process the command starts (the
// test runner, its subprocesses) records which code objects ran, and writes them as JSON when it exits. On
// Python 3.12+ it uses sys.monitoring (each code object reports once, then its events are disabled: nearly
// free); on 3.11 and older sys.setprofile (a call per Python call). Function level only: no line events.
// It writes at exit, on os._exit (forked multiprocessing workers) and on SIGTERM (Pool.__exit__ ends its
// workers so). It then runs the sitecustomize it shadows (Debian ships one), so the interpreter behaves as before.

export const SITECUSTOMIZE_PY = String.raw`# Written by Weave for per-spec coverage; removed after the run.
import os
import sys


def _weave_install():
    out_dir = os.environ.get("WEAVE_COVERAGE_DIR")
    root = os.environ.get("WEAVE_COVERAGE_ROOT")
    if not out_dir or not root:
        return
    root = os.path.realpath(root) + os.sep
    start_dir = os.getcwd()
    seen = {}
    monitoring = getattr(sys, "monitoring", None)
    installed = False
    if monitoring is not None:
        for tool in (monitoring.COVERAGE_ID, monitoring.PROFILER_ID, 5):
            try:
                monitoring.use_tool_id(tool, "weave")
            except ValueError:
                continue

            def on_start(code, offset):
                seen[id(code)] = code
                return monitoring.DISABLE

            monitoring.register_callback(tool, monitoring.events.PY_START, on_start)
            monitoring.set_events(tool, monitoring.events.PY_START)
            installed = True
            break
    if not installed:
        import threading

        def profile(frame, event, arg):
            if event == "call":
                code = frame.f_code
                if id(code) not in seen:
                    seen[id(code)] = code

        sys.setprofile(profile)
        threading.setprofile(profile)

    import signal

    # written: once per process (reset in a forked child); writing: a write is under way, so a SIGTERM that
    # arrives meanwhile (a pool worker leaving through os._exit as its pool terminates it) waits for it.
    state = {"written": False, "writing": False, "terminated": False}

    def die_of_sigterm():
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)

    def write():
        if state["written"]:
            return
        state["written"] = state["writing"] = True
        try:
            write_files()
        finally:
            state["writing"] = False
            if state["terminated"]:
                die_of_sigterm()

    def write_files():
        files = {}
        real = {}
        for code in list(seen.values()):
            name = code.co_filename
            if name.startswith("<"):
                continue  # <frozen posixpath>, <string>, <stdin>: no file (joined to the cwd it would look like one)
            where = real.get(name)
            if where is None:
                where = os.path.realpath(os.path.join(start_dir, name))
                real[name] = where
            if not where.startswith(root):
                continue
            files.setdefault(where, []).append([getattr(code, "co_qualname", code.co_name), code.co_firstlineno])
        if not files:
            return
        import json

        target = os.path.join(out_dir, "python-%d-%d.json" % (os.getpid(), id(seen)))
        try:
            with open(target + ".tmp", "w") as out:
                json.dump({"files": files}, out)
            os.replace(target + ".tmp", target)
        except OSError:
            pass

    import atexit

    atexit.register(write)
    # multiprocessing's forked workers leave through os._exit, which skips atexit.
    exit_now = os._exit

    def _exit(code):
        write()
        exit_now(code)

    os._exit = _exit
    os.register_at_fork(after_in_child=lambda: state.update(written=False, writing=False, terminated=False))

    # SIGTERM ends a process without atexit: multiprocessing.Pool's __exit__ ends its workers so, and a runner
    # its children. Written first; then the signal does what it would have done. A program's own handler (set
    # later) or an inherited SIG_IGN is left to decide.
    def on_term(signum, frame):
        if state["writing"]:
            state["terminated"] = True
            return
        write()
        die_of_sigterm()

    try:
        if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
            signal.signal(signal.SIGTERM, on_term)
    except (ValueError, OSError):
        pass  # not the main thread of the main interpreter: no handler can be set


def _weave_chain():
    import importlib.machinery
    import importlib.util

    # Weave's runner evidence has a sitecustomize of its own that chains the same way: each skips every folder
    # a Weave sitecustomize already ran from (kept on sys), or the two would run each other without end.
    seen = sys.__dict__.setdefault("_weave_sitecustomize_dirs", set())
    seen.add(os.path.realpath(os.path.dirname(os.path.abspath(__file__))))
    rest = [p for p in sys.path if os.path.realpath(p or ".") not in seen]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


try:
    _weave_install()
finally:
    _weave_chain()
`;
