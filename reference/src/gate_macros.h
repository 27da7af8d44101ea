// gate_macros.h: the gate spellings of the tables (ALWAYS, WHEN, UNLESS, IS) as PolicyGate values. Include right
// before a table whose rows have a Gate column and include gate_macros_end.h after it; the including file includes
// accord/reference/profiles.h (struct Policy) at its top.

#define ALWAYS \
  ::accord::reference::PolicyGate {}
#define ACCORD_GATE_BITS_(P, BITS)                                                                           \
  ::accord::reference::PolicyGate {                                                                          \
    #P, BITS, [](const ::accord::reference::Policy& p) { return static_cast<int>(p.P); }                      \
  }
#define ACCORD_GATE_(P, V) ACCORD_GATE_BITS_(P, ::accord::reference::gate_bit<decltype(::accord::reference::Policy::P)>(V))
#define WHEN(P) ACCORD_GATE_(P, true)
#define UNLESS(P) ACCORD_GATE_(P, false)
#define IS(P, V) ACCORD_GATE_(P, V)
/// The rows of one or more connector releases: IS(connector_release, ConnectorRelease::k<V>), or any of up to three.
#define ACCORD_REL_BIT_(V) ::accord::reference::gate_bit(::accord::reference::ConnectorRelease::k##V)
#define ACCORD_REL1_(A) ACCORD_REL_BIT_(A)
#define ACCORD_REL2_(A, B) (ACCORD_REL_BIT_(A) | ACCORD_REL_BIT_(B))
#define ACCORD_REL3_(A, B, C) (ACCORD_REL_BIT_(A) | ACCORD_REL_BIT_(B) | ACCORD_REL_BIT_(C))
#define ACCORD_REL_PICK_(_1, _2, _3, N, ...) N
#define RELEASE(...) \
  ACCORD_GATE_BITS_(connector_release, ACCORD_REL_PICK_(__VA_ARGS__, ACCORD_REL3_, ACCORD_REL2_, ACCORD_REL1_, )(__VA_ARGS__))
/// A policy gate within the rows of one connector release, or of several (R: a RELEASE(...) gate).
#define IN_RELEASE(V, G) ::accord::reference::in_release(RELEASE(V), G)
#define IN_RELEASES(R, G) ::accord::reference::in_release(R, G)
