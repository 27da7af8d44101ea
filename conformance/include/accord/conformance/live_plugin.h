// live_plugin.h: the C entry points of the live library (libconformance_live.so, LibTorch), which the `accord`
// command opens with dlopen the first time a live command runs (`probe`, `launch`, `launch-worker`,
// `conform --live`), so that every other command starts without loading LibTorch. Plain C, no LibTorch here.
#pragma once

/// Bumped when an entry point below changes; `accord` refuses a library of another version.
#define ACCORD_LIVE_ABI 1

extern "C" {
/// ACCORD_LIVE_ABI of the library.
using accord_live_abi_fn = int (*)();
/// The live subcommands as a command line (`accord probe --compact`, ...): the exit status (0 ok, 1 the run failed,
/// 2 usage or input error).
using accord_live_main_fn = int (*)(int argc, char** argv);
/// This machine's probe (`{"hardware", "interactive", "details"}`) as JSON text; free it with accord_live_free.
using accord_live_probe_json_fn = char* (*)();
using accord_live_free_fn = void (*)(char*);
}
