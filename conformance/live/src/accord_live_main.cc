// accord_live_main.cc: `accord_live probe|launch|launch-worker`, the live commands on their own.
#include "accord/conformance/live.h"

int main(int argc, char** argv) { return accord::conformance::live_main(argc, argv); }
