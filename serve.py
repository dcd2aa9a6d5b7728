"""Serve the app for real: `python app.py [--host H] [--port P] [--workers N]` (127.0.0.1:5000, one worker).

On Linux and macOS this is gunicorn with its gevent worker: each open connection (an idle event stream
above all) is a greenlet of a few kilobytes, not a thread, so one worker holds thousands of open round
pages. gunicorn runs in a fresh interpreter (``os.execv``), so each worker patches the standard library
for gevent before it imports the app, SQLAlchemy or psycopg. Where gunicorn does not run (Windows),
the same app runs in one process on gevent's own WSGI server: ``python serve.py`` does that anywhere.

Against slowloris, a client has ``--header-timeout`` seconds (default 10) to send a request's line and
headers; after that its connection is closed (gunicorn: ``--keep-alive``, which in the gevent worker
bounds the reading of every request's headers, the first included). docs/LIVE_UPDATES.md says why.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: Connections one worker accepts at once (open event streams, mostly).
WORKER_CONNECTIONS = 20000
#: Seconds a stopping worker lets open requests finish; open event streams are then cut (pages reconnect).
GRACEFUL_SECONDS = 5


def get_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python app.py", description="Serve 詩牌 (gunicorn + gevent).")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; "
                                                             "0.0.0.0 for every interface)")
    parser.add_argument("--port", type=int, default=5000, help="port (default 5000)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1); several "
                                                               "share rounds through the database")
    parser.add_argument("--header-timeout", type=int, default=10,
                        help="seconds a client has to send a request's headers (default 10)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Migrate the database once, then replace this process by the server (it does not return)."""
    args = get_parser().parse_args(argv)
    raise_file_limit()
    migrate_once()
    env = {**os.environ, "FLASK_AUTO_MIGRATE": "false"}
    if gunicorn_runs():
        return _replace_process([sys.executable, "-m", "gunicorn", *gunicorn_args(args), "app:create_app()"], env)
    if args.workers != 1:
        print("gunicorn does not run here: serving with one process", file=sys.stderr)
    return _replace_process([sys.executable, str(HERE / "serve.py"), "--host", args.host, "--port", str(args.port),
                             "--header-timeout", str(args.header_timeout)], env)


def gunicorn_args(args: argparse.Namespace) -> list[str]:
    """gunicorn's options for the gevent worker (the README's club line says the same)."""
    return ["--worker-class", "gevent", "--workers", str(args.workers), "--bind", f"{args.host}:{args.port}",
            "--worker-connections", str(WORKER_CONNECTIONS), "--keep-alive", str(args.header_timeout),
            "--graceful-timeout", str(GRACEFUL_SECONDS), "--chdir", str(HERE), "--no-control-socket"]


def gunicorn_runs() -> bool:
    """gunicorn needs fork and fcntl: Linux, macOS, not Windows."""
    return os.name == "posix"


def migrate_once() -> None:
    """Bring the database to the schema before any worker starts (the workers then skip it)."""
    from app import create_app

    app = create_app({"WARM_UP": False})
    app.extensions["poetry_store"].engine.dispose()


def raise_file_limit() -> None:
    """Every open connection is a file descriptor: raise the soft limit to the hard one (POSIX)."""
    try:
        import resource
    except ImportError:  # Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def stop(server: subprocess.Popen, seconds: float = 15) -> None:
    """Stop a server started as `python app.py` (SIGINT: gunicorn's quick shutdown), killing it if it lingers."""
    server.send_signal(signal.SIGINT)
    try:
        server.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def _replace_process(argv: list[str], env: dict[str, str]) -> int:
    """Become the server (exec on POSIX; on Windows, run it and wait)."""
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "posix":
        os.execve(argv[0], argv, env)
    return subprocess.call(argv, env=env)


def serve_with_gevent(host: str, port: int, header_timeout: int) -> None:
    """One process on gevent's WSGI server (where gunicorn does not run); gevent must be patched in first."""
    import gevent
    from gevent.pywsgi import WSGIHandler, WSGIServer

    from app import create_app

    class SlowHeaders(Exception):
        """The request line and headers took longer than ``header_timeout`` (slowloris)."""

    class Handler(WSGIHandler):
        """Closes a connection whose request line and headers take longer than ``header_timeout``."""

        def handle(self):
            try:
                super().handle()
            except SlowHeaders:
                pass  # the server closes the connection

        def read_requestline(self):
            self._headers_due = gevent.Timeout.start_new(header_timeout, SlowHeaders)
            return super().read_requestline()

        def read_request(self, raw_requestline):
            try:
                return super().read_request(raw_requestline)
            finally:
                self._headers_due.close()

    server = WSGIServer((host, port), create_app(), handler_class=Handler)
    print(f"詩牌 on http://{host}:{port} (gevent, one process)", file=sys.stderr, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    from gevent import monkey

    monkey.patch_all()  # before the app, SQLAlchemy or psycopg are imported
    options = get_parser().parse_args()
    raise_file_limit()
    serve_with_gevent(options.host, options.port, options.header_timeout)
