// gate_macros.h: the gate spellings of the tables (ALWAYS, WHEN, UNLESS, IS) as PolicyGate values. Include right
// before a table whose rows have a Gate column and include gate_macros_end.h after it; the including file includes
// accord/reference/profiles.h (struct Policy) at its top.

#define ALWAYS \
  ::accord::reference::PolicyGate {}
#define ACCORD_GATE_(P, V)                                                                                   \
  ::accord::reference::PolicyGate {                                                                          \
    #P, ::accord::reference::gate_value<decltype(::accord::reference::Policy::P)>(V),                        \
        [](const ::accord::reference::Policy& p) { return static_cast<int>(p.P); }                           \
  }
#define WHEN(P) ACCORD_GATE_(P, true)
#define UNLESS(P) ACCORD_GATE_(P, false)
#define IS(P, V) ACCORD_GATE_(P, V)
/// The rows of one connector release: IS(connector_release, ConnectorRelease::k<V>).
#define RELEASE(V) ACCORD_GATE_(connector_release, ::accord::reference::ConnectorRelease::k##V)
/// A policy gate within the rows of one connector release.
#define IN_RELEASE(V, G) ::accord::reference::in_release(RELEASE(V), G)
