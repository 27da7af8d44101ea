// mutant_impl.cc: `conformance_mutant_impl`: the mutant adapter served over the JSON-lines protocol.
#include <iostream>

#include "accord/conformance/protocol.h"
#include "mutant/mutant_adapter.h"

int main() {
  std::ios::sync_with_stdio(false);
  auto impl = accord::conformance::testing::make_mutant_adapter();
  std::string err;
  if (!impl->start(&err)) return 1;
  return accord::conformance::serve(std::cin, std::cout, *impl, "spec");
}
