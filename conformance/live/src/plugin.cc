// plugin.cc: the entry points of accord/conformance/live_plugin.h, through which the `accord` command uses this
// library after opening it on first use (conformance/live/README.md, "How accord loads the live commands").
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>

#include "accord/conformance/live.h"
#include "accord/conformance/live_plugin.h"

extern "C" {

__attribute__((visibility("default"))) int accord_live_abi() { return ACCORD_LIVE_ABI; }

__attribute__((visibility("default"))) int accord_live_main(int argc, char** argv) {
  try {
    return accord::conformance::live_main(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "accord: " << e.what() << "\n";
    return 2;
  }
}

__attribute__((visibility("default"))) char* accord_live_probe_json() {
  const std::string text = accord::conformance::to_json(accord::conformance::probe_hardware()).dump();
  char* out = static_cast<char*>(std::malloc(text.size() + 1));
  if (out != nullptr) std::memcpy(out, text.c_str(), text.size() + 1);
  return out;
}

__attribute__((visibility("default"))) void accord_live_free(char* text) { std::free(text); }

}  // extern "C"
