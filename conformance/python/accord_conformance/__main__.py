"""python -m accord_conformance MODULE:FUNCTION: a Python resolve function as a protocol implementation.

Usable as `accord conform fixtures --impl 'python3 -m accord_conformance mypkg.connector:resolve'`.
The handshake comes from the function's @accord_conformance.implementation, then from the options below.
Anything the function prints (print(), or C code writing to file descriptor 1) goes to stderr; the protocol
stream keeps a private copy of the original stdout.
"""
import argparse
import importlib
import json
import os
import sys
import traceback

from . import _server


def load_target(target):
    """The function named by 'package.module:function' ('package.module' alone means its `resolve`)."""
    module_name, _, attr = target.partition(":")
    if not module_name:
        raise ValueError(f"{target!r} names no module: write package.module:function")
    obj = importlib.import_module(module_name)
    for part in (attr or "resolve").split("."):
        obj = getattr(obj, part)
    if not callable(obj):
        raise TypeError(f"{target!r} is a {type(obj).__name__}, not a function")
    return obj


def _protocol_stream():
    """A private text stream on the original stdout; file descriptor 1 then points at stderr."""
    sys.stdout.flush()
    try:
        fd = os.dup(1)
        os.dup2(2, 1)
    except OSError:
        return sys.stdout
    return os.fdopen(fd, "w", encoding="utf-8", newline="\n")


def _refuse(message, stdin, stdout):
    """Answer the handshake with ok: false (the harness shows the message); exit status 2."""
    sys.stderr.write(message + "\n")
    if not stdin.isatty():
        line = stdin.readline()
        if line:
            stdout.write(json.dumps({"ok": False, "error": message}) + "\n")
            stdout.flush()
    return 2


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m accord_conformance", description=__doc__.splitlines()[0])
    ap.add_argument("target", metavar="MODULE:FUNCTION", help="the resolve function, e.g. mypkg.connector:resolve")
    ap.add_argument("--name", help="implementation name in the handshake (default: the function's, else 'python')")
    ap.add_argument("--version", dest="impl_version", metavar="VERSION", help="implementation version in the handshake")
    ap.add_argument("--capability", action="append", default=[], metavar="TAG",
                    help="a capability tag to declare, in addition to the function's (repeatable)")
    ap.add_argument("--profile", action="append", default=None, metavar="P",
                    help="a profile the function answers (repeatable; default: the function's, else every profile)")
    ap.add_argument("--path", action="append", default=[], metavar="DIR", help="a directory to put first on sys.path (repeatable)")
    args = ap.parse_args(argv)
    for directory in reversed(args.path):
        sys.path.insert(0, os.path.abspath(directory))
    out = _protocol_stream()
    sys.stdout = sys.stderr
    stdin = sys.stdin
    try:
        fn = load_target(args.target)
        meta = getattr(fn, "accord_implementation", {})
        caps = meta.get("capabilities", ())
        if args.capability:
            base = caps
            caps = (lambda: list(base() if callable(base) else base or ()) + args.capability)
    except Exception as exc:  # noqa: BLE001 - reported to the harness as a refused handshake
        sys.stderr.write(traceback.format_exc())
        what = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        hint = " (is it importable here? PYTHONPATH, --path DIR)" if isinstance(exc, ImportError) else ""
        return _refuse(f"cannot load {args.target!r}: {what}{hint}", stdin, out)
    return _server.serve(fn, name=args.name, version=args.impl_version, capabilities=caps, profiles=args.profile,
                         stdin=getattr(stdin, "buffer", stdin), stdout=out)


if __name__ == "__main__":
    sys.exit(main())
