// subprocess_test.cc: protocol faults of a subprocess implementation are each marked correctly and
// the run goes on (hang, crash, garbage, noise, wrong id, early exit, stderr flood, bad handshake).
#include <gtest/gtest.h>

#include "accord/conformance/loader.h"
#include "accord/conformance/report.h"
#include "accord/conformance/runner.h"
#include "test_support.h"

namespace accord::conformance {
namespace {

/// Runs the faults corpus; `timeout` also bounds each restart's handshake, so it leaves room for a slow
/// (sanitizer) build under load: only the hang case waits it out.
std::map<std::string, CaseResult> run_faults(const std::string& args, double timeout) {
  Corpus c = load_corpus(testing::data_dir("faults"));
  EXPECT_TRUE(c.errors.empty());
  std::string cmd = std::string(ACCORD_FAULT_IMPL) + " " + args;
  RunOptions o;
  o.filter = std::regex("^(?!fault/huge-line)");  // 64 MiB through a pipe: conformance_fault_huge_line checks it
  Runner r([cmd, timeout] { return make_subprocess_adapter(cmd, timeout); }, o);
  std::string err;
  EXPECT_TRUE(r.start(&err)) << err;
  CollectingSink sink;
  r.run(c.fixtures, "faults", sink);
  std::map<std::string, CaseResult> out;
  for (auto& res : sink.results) out[res.id] = res;
  return out;
}

TEST(Subprocess, EachFaultIsMarkedAndTheRunGoesOn) {
  auto got = run_faults("", 3.0);
  const std::map<std::string, Verdict> want = {
      {"fault/ok-1", Verdict::kPassed},         {"fault/hang", Verdict::kTimeout},
      {"fault/ok-2", Verdict::kPassed},    {"fault/crash", Verdict::kCrashed},
      {"fault/ok-3", Verdict::kPassed},   {"fault/garbage", Verdict::kErrored},
      {"fault/ok-4", Verdict::kPassed}, {"fault/noise", Verdict::kErrored},
      {"fault/ok-5", Verdict::kPassed},   {"fault/wrong-id", Verdict::kErrored},
      {"fault/ok-6", Verdict::kPassed}, {"fault/no-outcome", Verdict::kErrored},
      {"fault/early-exit", Verdict::kCrashed},      {"fault/ok-7", Verdict::kPassed},
      {"fault/stderr-flood", Verdict::kPassed},     {"fault/errored", Verdict::kErrored},
      {"fault/skip", Verdict::kSkipped},            {"fault/needs-ipu", Verdict::kPassed},
      {"fault/ok-8", Verdict::kPassed},             {"fault/double-reply", Verdict::kErrored},
      {"fault/ok-9", Verdict::kPassed},             {"fault/slow", Verdict::kPassed},
      {"fault/ok-10", Verdict::kPassed},            {"fault/double-reply-last", Verdict::kErrored}};
  ASSERT_EQ(got.size(), want.size());
  for (const auto& [id, v] : want) EXPECT_EQ(verdict_name(got[id].verdict), std::string(verdict_name(v))) << id << ": " << got[id].message;
  // SIGABRT: reported as the signal, or as status 134 when /bin/sh did not exec the command.
  EXPECT_TRUE(got["fault/crash"].message.find("signal 6") != std::string::npos ||
              got["fault/crash"].message.find("status 134") != std::string::npos)
      << got["fault/crash"].message;
  EXPECT_NE(got["fault/crash"].message.find("fault impl: crashing now"), std::string::npos);
  EXPECT_NE(got["fault/early-exit"].message.find("exited with status 0"), std::string::npos);
  EXPECT_NE(got["fault/hang"].message.find("no reply within"), std::string::npos);
  EXPECT_NE(got["fault/garbage"].message.find("not a JSON object"), std::string::npos);
  EXPECT_NE(got["fault/wrong-id"].message.find("'not-fault/wrong-id'"), std::string::npos);
  EXPECT_EQ(got["fault/errored"].message, "boom: traceback here");
  EXPECT_EQ(got["fault/skip"].message, "not supported here");
  EXPECT_EQ(got["fault/double-reply"].message,
            "protocol error: a second reply to this case came while the harness waited for 'fault/ok-9'");
  EXPECT_EQ(got["fault/double-reply-last"].message, "protocol error: a second reply to this case came before the implementation exited");
}

TEST(Subprocess, StderrIsKeptBoundedInMessages) {
  auto got = run_faults("", 3.0);
  // The flood (1 MiB) came before the crash case; only a bounded tail is ever kept.
  EXPECT_LT(got["fault/crash"].message.size(), 4096u);
}

TEST(Subprocess, HandshakeCapabilitiesFilterCases) {
  auto got = run_faults("--capabilities=accelerator:cpu,env", 3.0);
  EXPECT_EQ(got["fault/needs-ipu"].verdict, Verdict::kSkipped);
  EXPECT_EQ(got["fault/needs-ipu"].message, "implementation lacks capability accelerator:ipu");
  EXPECT_EQ(got["fault/ok-1"].verdict, Verdict::kPassed);
}

struct BadHandshake {
  const char* command;
  const char* message_part;
  /// Only the hang case waits the timeout out; the others end as soon as the process answers or exits, and
  /// must not race a slow start (an ASan build under load takes more than half a second to start).
  double timeout = 30.0;
};

class SubprocessHandshake : public ::testing::TestWithParam<BadHandshake> {};

TEST_P(SubprocessHandshake, FailsToStartWithAClearError) {
  std::string cmd = GetParam().command;
  if (cmd.rfind("--", 0) == 0) cmd = std::string(ACCORD_FAULT_IMPL) + " " + cmd;
  auto a = make_subprocess_adapter(cmd, GetParam().timeout);
  std::string err;
  EXPECT_FALSE(a->start(&err));
  EXPECT_NE(err.find(GetParam().message_part), std::string::npos) << err;
}

INSTANTIATE_TEST_SUITE_P(
    Modes, SubprocessHandshake,
    ::testing::Values(BadHandshake{"--handshake=refuse", "refused the handshake: cannot speak protocol 1"},
                      BadHandshake{"--handshake=garbage", "not a JSON object: hello there"},
                      BadHandshake{"--handshake=wrong-protocol", "speaks protocol 7"},
                      BadHandshake{"--handshake=exit", "exited with status 0"},
                      BadHandshake{"--handshake=hang", "no handshake reply within the start-up timeout (0.5 s, --startup-timeout)", 0.5},
                      BadHandshake{"echo oops >&2; exit 3", "exited with status 3\nstderr:\noops"},
                      BadHandshake{"/nonexistent/accord-impl", "exited with status 127"}));

TEST(Subprocess, RestartGivesUpAfterRepeatedFailures) {
  // Starts once, then dies at the first case and can never come back: later cases are errored
  // quickly instead of each waiting for a handshake.
  testing::TempDir d;
  d.write("flag", "");
  std::string cmd = "if [ -e " + d.path() + "/flag ]; then rm " + d.path() + "/flag; exec " + ACCORD_FAULT_IMPL +
                    "; else exit 5; fi";
  auto a = make_subprocess_adapter(cmd, 1.0);
  std::string err;
  ASSERT_TRUE(a->start(&err)) << err;
  EXPECT_EQ(a->resolve("fault/crash", "spec", {{"flags", nlohmann::json::object()}}).status, ResultStatus::kCrashed);
  for (int i = 0; i < 5; ++i) {
    AdapterResult r = a->resolve("fault/ok", "spec", {{"flags", nlohmann::json::object()}});
    EXPECT_EQ(r.status, ResultStatus::kErrored);
    EXPECT_NE(r.message.find("could not be restarted"), std::string::npos) << r.message;
  }
}

}  // namespace
}  // namespace accord::conformance
