// live_plugin.cc: opens the live library (LibTorch) with dlopen the first time a live command needs it.
//
// Where: $ACCORD_LIVE_LIBRARY when set, else next to this executable as the build tree lays it out
// (ACCORD_LIVE_BUILD_RELPATH, bin/ -> lib/) or as `cmake --install` does (ACCORD_LIVE_INSTALL_RELPATH).
#include "live_plugin.h"

#include <dlfcn.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "accord/conformance/live_plugin.h"

#ifndef ACCORD_LIVE_BUILD_RELPATH
#define ACCORD_LIVE_BUILD_RELPATH "../lib/libconformance_live.so"
#endif
#ifndef ACCORD_LIVE_INSTALL_RELPATH
#define ACCORD_LIVE_INSTALL_RELPATH ACCORD_LIVE_BUILD_RELPATH
#endif

namespace accord::cli {
namespace {

/// The folder of this executable (/proc/self/exe), with a trailing slash; empty when it cannot be read.
std::string exe_dir() {
  std::array<char, 4096> buf{};
  ssize_t n = readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n <= 0) return "";
  std::string path(buf.data(), static_cast<std::size_t>(n));
  return path.substr(0, path.rfind('/') + 1);
}

struct Library {
  void* handle = nullptr;
  std::string error;  ///< why it could not be opened (every place tried)
};

const Library& library() {
  static const Library lib = [] {
    Library l;
    std::vector<std::string> tried;
    if (const char* env = std::getenv("ACCORD_LIVE_LIBRARY"); env != nullptr && *env != '\0') {
      tried.push_back(env);
    } else {
      const std::string dir = exe_dir();
      tried.push_back(dir + ACCORD_LIVE_BUILD_RELPATH);
      if (std::strcmp(ACCORD_LIVE_BUILD_RELPATH, ACCORD_LIVE_INSTALL_RELPATH) != 0) tried.push_back(dir + ACCORD_LIVE_INSTALL_RELPATH);
    }
    for (const std::string& path : tried) {
      if (access(path.c_str(), F_OK) != 0) {
        l.error += (l.error.empty() ? "" : "; ") + path + ": no such file";
        continue;
      }
      l.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (l.handle != nullptr) break;
      const char* why = dlerror();
      l.error += (l.error.empty() ? "" : "; ") + std::string(why ? why : path + ": cannot be opened");
    }
    if (l.handle != nullptr) {
      auto abi = reinterpret_cast<accord_live_abi_fn>(dlsym(l.handle, "accord_live_abi"));
      if (abi == nullptr || abi() != ACCORD_LIVE_ABI) {
        l.error = "the live library is of another accord (entry point version " + std::to_string(abi ? abi() : 0) +
                  ", expected " + std::to_string(ACCORD_LIVE_ABI) + ")";
        l.handle = nullptr;
      }
    }
    return l;
  }();
  return lib;
}

template <typename Fn>
Fn entry(const char* name) {
  const Library& l = library();
  if (l.handle == nullptr) {
    std::cerr << "accord: the live commands need the LibTorch library libconformance_live.so, which cannot be opened: "
              << l.error << " (set ACCORD_LIVE_LIBRARY to its path)\n";
    return nullptr;
  }
  auto fn = reinterpret_cast<Fn>(dlsym(l.handle, name));
  if (fn == nullptr) std::cerr << "accord: the live library has no entry point " << name << "\n";
  return fn;
}

}  // namespace

bool is_live_command(const char* word) {
  return std::strcmp(word, "probe") == 0 || std::strcmp(word, "launch") == 0 || std::strcmp(word, "launch-worker") == 0;
}

int run_live_command(int argc, char** argv) {
  auto main_fn = entry<accord_live_main_fn>("accord_live_main");
  return main_fn != nullptr ? main_fn(argc, argv) : 2;
}

nlohmann::json live_probe_json() {
  auto probe = entry<accord_live_probe_json_fn>("accord_live_probe_json");
  if (probe == nullptr) return nullptr;  // said once, by entry()
  auto release = entry<accord_live_free_fn>("accord_live_free");
  if (release == nullptr) return nullptr;
  char* text = probe();
  if (text == nullptr) return nullptr;
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  release(text);
  return j.is_discarded() ? nlohmann::json() : j;
}

void register_live_entries(CLI::App& app) {
  app.add_subcommand("probe", "Print this machine's PROTOCOL.md `hardware` block (JSON; LibTorch, loaded now)");
  app.add_subcommand("launch", "Start the processes a plan calls for and check each one (JSON report; LibTorch, loaded now)");
  app.add_subcommand("launch-worker", "one rank of `accord launch` (internal)")->group("");
}

}  // namespace accord::cli
