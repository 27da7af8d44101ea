"""The protocol server: a Python function as an implementation speaking conformance/PROTOCOL.md (version 1).

`serve(resolve, ...)` reads JSON-lines requests and writes one reply per line:

  {"cmd": "start", "protocol": 1}              -> {"ok": true, "implementation": {...}, "protocol": 1}
  {"cmd": "resolve", "id": ..., "case": ...}   -> {"id": ..., "outcome": resolve(case, profile)}
                                                  {"id": ..., "skipped": reason}   resolve raised Skip(reason), or the
                                                                                   profile / a required capability is missing
                                                  {"id": ..., "errored": traceback} resolve raised anything else
  {"cmd": "stop"}                              -> no reply; serve() returns 0
"""
import inspect
import io
import json
import sys
import traceback

PROTOCOL = 1
DEFAULT_NAME = "python"


class Skip(Exception):
    """Raise from a resolve function to answer the case `skipped` with this reason instead of an outcome."""

    def __init__(self, reason="the implementation declined the case"):
        super().__init__(reason)
        self.reason = str(reason)


def implementation(name=None, version=None, capabilities=None, profiles=None, language=None):
    """Decorator that records the handshake of a resolve function.

    serve() and `python -m accord_conformance module:function` (hence the pytest plugin) read it; their own
    arguments win. `capabilities` is a list of tags (conformance/tables/capabilities.def) or a function returning one,
    called at the handshake. `profiles`, when given, lists the profiles the function answers; other profiles are skipped.
    """
    meta = {"name": name, "version": version, "capabilities": capabilities, "profiles": profiles, "language": language}

    def mark(fn):
        fn.accord_implementation = {k: v for k, v in meta.items() if v is not None}
        return fn
    return mark


def _caller(resolve):
    """A function (case, profile) -> outcome calling `resolve` as `resolve(case, profile)` or `resolve(case)`."""
    try:
        sig = inspect.signature(resolve)
    except (TypeError, ValueError):  # a builtin without a signature: assume the full form
        return lambda case, profile: resolve(case, profile)
    params = list(sig.parameters.values())
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(positional) >= 2 or any(p.kind == p.VAR_POSITIONAL for p in params):
        return lambda case, profile: resolve(case, profile)
    if len(positional) == 1:
        if "profile" in sig.parameters or any(p.kind == p.VAR_KEYWORD for p in params):
            return lambda case, profile: resolve(case, profile=profile)
        return lambda case, profile: resolve(case)
    raise TypeError(f"resolve function {resolve!r} must take (case, profile) or (case)")


def salvage_id(text):
    """The `id` of a request that failed to parse, when it was read before the text went wrong, else None.

    Reads the members of the top-level object in order with the standard decoder and stops at the first it cannot read.
    """
    dec = json.JSONDecoder()
    ws = " \t\r\n"
    i = len(text) - len(text.lstrip(ws))
    if not text.startswith("{", i):
        return None
    i += 1
    try:
        while True:
            while i < len(text) and text[i] in ws:
                i += 1
            key, i = dec.raw_decode(text, i)
            while i < len(text) and text[i] in ws:
                i += 1
            if not isinstance(key, str) or not text.startswith(":", i):
                return None
            i += 1
            while i < len(text) and text[i] in ws:
                i += 1
            value, i = dec.raw_decode(text, i)
            if key == "id":
                return value
            while i < len(text) and text[i] in ws:
                i += 1
            if not text.startswith(",", i):
                return None
            i += 1
    except (ValueError, IndexError):
        return None


def _traceback_text(exc):
    """The traceback of `exc` without the server's own frames (the call of the resolve function)."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(exc), exc, tb))


class _Session:
    """One conversation with the harness: the handshake state and the answer to each request."""

    def __init__(self, resolve, name, version, capabilities, profiles, language):
        self.call = _caller(resolve)
        self.name, self.version, self.language = name, version, language
        self.capabilities_source = capabilities
        self.profiles = None if profiles is None else [str(p) for p in profiles]
        self.capabilities = None  # set by a successful start

    def handshake(self, req):
        if req.get("protocol") != PROTOCOL:
            return {"ok": False, "error": f"unsupported protocol {req.get('protocol')!r}; this server speaks {PROTOCOL}"}
        caps = self.capabilities_source
        try:
            caps = caps() if callable(caps) else caps
            caps = sorted({str(c) for c in (caps or ())})
        except Exception as exc:  # noqa: BLE001 - a failing capability function refuses the handshake, visibly
            return {"ok": False, "error": "capabilities could not be computed:\n" + _traceback_text(exc)}
        self.capabilities = caps
        return {"ok": True, "protocol": PROTOCOL, "implementation": {
            "name": self.name, "version": self.version, "language": self.language, "capabilities": caps}}

    def resolve(self, req):
        rid = req.get("id")
        if self.capabilities is None:
            return {"id": rid, "errored": "resolve before a successful start"}
        case, profile = req.get("case"), req.get("profile")
        if not isinstance(case, dict):
            return {"id": rid, "errored": "request has no case object"}
        if self.profiles is not None and profile not in self.profiles:
            return {"id": rid, "skipped": f"profile {profile!r} is not supported (supported: {', '.join(self.profiles)})"}
        requires = req.get("requires")
        if isinstance(requires, list):
            missing = [t for t in requires if t not in self.capabilities]
            if missing:
                return {"id": rid, "skipped": f"implementation lacks capability {missing[0]}"}
        try:
            outcome = self.call(case, profile)
        except Skip as skip:
            return {"id": rid, "skipped": skip.reason}
        except Exception as exc:  # noqa: BLE001 - the implementation failing is a verdict, not the end of the session
            return {"id": rid, "errored": _traceback_text(exc)}
        if not isinstance(outcome, dict):
            return {"id": rid, "errored": f"resolve returned {type(outcome).__name__}, not an outcome dict: {outcome!r:.200}"}
        return {"id": rid, "outcome": outcome}

    def answer(self, line):
        """The reply to one request line, or None for `stop` (and the caller ends)."""
        try:
            req = json.loads(line)
        except ValueError as e:
            where = f"column {e.colno}: {e.msg}" if isinstance(e, json.JSONDecodeError) else str(e)
            return {"id": salvage_id(line), "errored": f"request is not valid JSON: {where}"}
        if not isinstance(req, dict):
            return {"id": None, "errored": "request is not a JSON object"}
        cmd = req.get("cmd")
        if cmd == "start":
            return self.handshake(req)
        if cmd == "stop":
            return None
        if cmd == "resolve":
            return self.resolve(req)
        return {"id": req.get("id"), "errored": f"unknown command {cmd!r}"}


def _encode(reply):
    """One reply line; an outcome that is not JSON (a set, NaN, an object) becomes an `errored` reply."""
    try:
        return json.dumps(reply, allow_nan=False)
    except (TypeError, ValueError) as exc:
        return json.dumps({"id": reply.get("id"), "errored": f"outcome is not JSON: {type(exc).__name__}: {exc}"})


def _is_binary(stream):
    return isinstance(stream, (io.RawIOBase, io.BufferedIOBase)) or "b" in getattr(stream, "mode", "")


def serve(resolve, name=None, version=None, capabilities=None, *, profiles=None, language=None, stdin=None, stdout=None):
    """Answer protocol requests from `stdin` on `stdout` with `resolve` until `stop` or the end of input; returns 0.

    resolve: `resolve(case, profile)` or `resolve(case)` returning the outcome dict (PROTOCOL.md, "The outcome").
      Raise Skip("reason") to answer `skipped`; any other exception answers `errored` with its traceback.
    name, version, capabilities, profiles, language: the handshake (see `implementation`); defaults come from the
      function's @implementation, else name "python", version "0", no capabilities, every profile, language "python".
    stdin, stdout: text or binary streams (default: the process's); while serving on the process's stdout, `print()`
      in the resolve function goes to stderr so that it cannot corrupt the protocol stream.
    """
    meta = dict(getattr(resolve, "accord_implementation", {}))
    given = {"name": name, "version": version, "capabilities": capabilities, "profiles": profiles, "language": language}
    meta.update({k: v for k, v in given.items() if v is not None})
    session = _Session(resolve, str(meta.get("name", DEFAULT_NAME)), str(meta.get("version", "0")), meta.get("capabilities", ()),
                       meta.get("profiles"), str(meta.get("language", "python")))
    inp = stdin if stdin is not None else getattr(sys.stdin, "buffer", sys.stdin)
    out = stdout if stdout is not None else sys.stdout
    swapped = out is sys.stdout
    if swapped:
        sys.stdout = sys.stderr
    binary_out = _is_binary(out)
    try:
        while True:
            raw = inp.readline()
            if not raw:
                return 0
            if isinstance(raw, bytes):
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as e:
                    reply = {"id": salvage_id(raw.decode("utf-8", "replace")),
                             "errored": f"request is not valid JSON: byte {e.start + 1}: invalid UTF-8"}
                    line = None
            else:
                line = raw
            if line is not None:
                if not line.strip():
                    continue
                reply = session.answer(line)
                if reply is None:
                    return 0
            text = _encode(reply) + "\n"
            out.write(text.encode("utf-8") if binary_out else text)
            out.flush()
    finally:
        if swapped:
            sys.stdout = out
