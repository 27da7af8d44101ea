// main.cc: the test binary is also its own worker: `launch` re-executes it as `launch-worker`.
#include <cstring>

#include <gtest/gtest.h>

#include "accord/conformance/live.h"

int main(int argc, char** argv) {
  if (argc > 1 && (std::strcmp(argv[1], "launch-worker") == 0 || std::strcmp(argv[1], "launch") == 0 ||
                   std::strcmp(argv[1], "probe") == 0)) {
    return accord::conformance::live_main(argc, argv);
  }
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
