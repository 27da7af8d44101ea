"""accord_conformance: run accord's conformance corpus against a Python implementation of the accelerator connector.

- serve(resolve, ...): a function `resolve(case, profile) -> outcome` as a protocol server (conformance/PROTOCOL.md);
  `python -m accord_conformance module:function` is the same from the command line.
- Skip("reason"): raise it from the function to answer a case `skipped`.
- implementation(...): decorator recording the handshake (name, version, capabilities, profiles).
- the pytest plugin (accord_conformance.plugin): `pytest --accord-impl module:function --accord-profile P`.
"""
from ._server import PROTOCOL, Skip, implementation, serve

__all__ = ["PROTOCOL", "Skip", "implementation", "serve"]
__version__ = "0.1.0"
