// fault_impl.cc: `conformance_fault_impl`: answers like the reference, but breaks the protocol on
// purpose when a case id contains a fault word, or at the handshake when told so on the command line.
//   --handshake=ok|refuse|garbage|wrong-protocol|exit|hang   --capabilities=tag,tag,...
//   --die-after-handshake (exits at every resolve request: a crash loop)   --pid-file=PATH (appends its PID at start,
//   so a test can check that no process is left)   --ignore-term (SIGTERM does not end it; only SIGKILL does)
// Case-id words: hang, crash, garbage, noise, wrong-id, no-outcome, early-exit, stderr-flood,
// errored, skip, double-reply, slow (1 s), huge-line (a reply line past 64 MiB).
#include <unistd.h>

#include <csignal>
#include <chrono>
#include <fstream>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>

#include "accord/conformance/adapter.h"

namespace {
using nlohmann::json;
namespace cf = accord::conformance;

bool has(const std::string& id, const char* word) { return id.find(word) != std::string::npos; }

void hang() {
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

/// Replies to a start request according to `mode`; false when the process should stop reading.
bool handshake(const std::string& mode, const std::string& caps) {
  if (mode == "exit") std::exit(0);
  if (mode == "hang") hang();
  if (mode == "garbage") std::cout << "hello there" << std::endl;
  else if (mode == "refuse") std::cout << R"({"ok": false, "error": "cannot speak protocol 1"})" << std::endl;
  else if (mode == "wrong-protocol") std::cout << R"({"ok": true, "protocol": 7, "implementation": {"name": "x"}})" << std::endl;
  if (mode != "ok") return true;
  json c = json::array();
  if (caps.empty()) c = cf::known_capabilities();
  std::stringstream ss(caps);
  for (std::string tag; std::getline(ss, tag, ',');) c.push_back(tag);
  json impl = {{"name", "accord-fault"}, {"version", "1"}, {"language", "c++"}, {"capabilities", c}};
  std::cout << json({{"ok", true}, {"protocol", 1}, {"implementation", impl}}).dump() << std::endl;
  return true;
}

void resolve(cf::Adapter& ref, const json& req) {
  std::string id = req.value("id", "");
  if (has(id, "hang")) hang();
  if (has(id, "crash")) {
    std::cerr << "fault impl: crashing now" << std::endl;
    std::abort();
  }
  if (has(id, "early-exit")) std::exit(0);
  if (has(id, "garbage")) return void(std::cout << "}{ this is not JSON" << std::endl);
  if (has(id, "no-outcome")) return void(std::cout << json({{"id", id}}).dump() << std::endl);
  if (has(id, "errored")) return void(std::cout << json({{"id", id}, {"errored", "boom: traceback here"}}).dump() << std::endl);
  if (has(id, "skip")) return void(std::cout << json({{"id", id}, {"skipped", "not supported here"}}).dump() << std::endl);
  if (has(id, "stderr-flood")) std::cerr << std::string(1 << 20, 'x') << std::endl;
  if (has(id, "noise")) std::cout << "debug: resolving " << id << std::endl;
  cf::AdapterResult r = ref.resolve(id, req.value("profile", "spec"), req.value("case", json::object()));
  std::string reply_id = has(id, "wrong-id") ? "not-" + id : id;
  if (has(id, "slow")) std::this_thread::sleep_for(std::chrono::seconds(1));
  if (has(id, "huge-line")) return void(std::cout << "{\"id\":\"" << id << "\",\"errored\":\"" << std::string((64u << 20) + 16, 'x') << "\"}" << std::endl);
  std::string reply = json({{"id", reply_id}, {"outcome", r.outcome}}).dump();
  std::cout << reply << std::endl;
  if (has(id, "double-reply")) std::cout << reply << std::endl;
}

}  // namespace

int main(int argc, char** argv) {
  std::string mode = "ok", caps;
  bool die_after_handshake = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--handshake=", 0) == 0) mode = a.substr(12);
    if (a.rfind("--capabilities=", 0) == 0) caps = a.substr(15);
    if (a.rfind("--pid-file=", 0) == 0) std::ofstream(a.substr(11), std::ios::app) << ::getpid() << std::endl;
    if (a == "--die-after-handshake") die_after_handshake = true;
    if (a == "--ignore-term") std::signal(SIGTERM, SIG_IGN);
  }
  auto ref = cf::make_reference_adapter();
  std::string err;
  ref->start(&err);
  std::string line;
  while (std::getline(std::cin, line)) {
    json req = json::parse(line, nullptr, false);
    std::string cmd = req.is_object() ? req.value("cmd", "") : "";
    if (cmd == "start") handshake(mode, caps);
    else if (cmd == "stop") return 0;
    else if (cmd == "resolve" && die_after_handshake) return 3;
    else if (cmd == "resolve") resolve(*ref, req);
  }
  return 0;
}
