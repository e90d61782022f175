// The sitecustomize.py Weave puts first on a spec's PYTHONPATH: every Python process the command starts (the
// test runner, its subprocesses) records which code objects ran, and writes them as JSON when it exits. On
// Python 3.12+ it uses sys.monitoring (each code object reports once, then its events are disabled: nearly
// free); on 3.11 and older sys.setprofile (a call per Python call). Function level only: no line events.
// It then runs the sitecustomize it shadows (Debian ships one), so the interpreter behaves as before.

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

    written = []

    def write():
        if written:
            return
        written.append(True)
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
    os.register_at_fork(after_in_child=written.clear)


def _weave_chain():
    import importlib.machinery
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    rest = [p for p in sys.path if os.path.abspath(p or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


try:
    _weave_install()
finally:
    _weave_chain()
`;
