// main.cc: resolves one case through accord's C++ API (reference/CPP-API.md): `Trainer(accelerator="cpu", devices=2,
// strategy="ddp", precision=16)` under Lightning 1.6.5, then prints the plan's strategy and each diagnostic's code.
#include <iostream>

#include "accord/reference/profiles.h"
#include "accord/reference/resolve.h"

int main() {
  namespace ref = accord::reference;
  ref::Case c;  // flags as the user wrote them; env and hardware facts stay empty (a CPU-only machine)
  c.flags.accelerator = ref::PyValue::string("cpu");
  c.flags.devices = ref::PyValue::integer(2);
  c.flags.strategy = ref::PyValue::string("ddp");
  c.flags.precision = ref::PyValue::integer(16);
  ref::Profile profile;
  if (!ref::parse_profile("lightning-1.6", &profile)) return 2;

  const ref::Outcome outcome = ref::resolve(c, profile);
  if (!outcome.ok()) {
    std::cout << "error " << ref::wire_id(outcome.error().code) << ": " << ref::render(outcome.error()) << "\n";
    return 1;
  }
  std::cout << "strategy " << outcome.plan().strategy.name << "\n";
  for (const ref::Diagnostic& note : outcome.notes) std::cout << "note " << ref::wire_id(note.code) << "\n";
  return 0;
}
