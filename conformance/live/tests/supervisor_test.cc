// supervisor_test.cc: run_children() with real processes: status, signals, start errors, deadlines.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "test_util.h"

namespace accord::conformance::live {
namespace {

ChildSpec exec(std::vector<std::string> argv, const ScratchDir& dir) {
  ChildSpec c;
  c.argv = std::move(argv);
  c.log_path = dir.file("log-" + std::to_string(reinterpret_cast<std::uintptr_t>(&c) % 100000));
  return c;
}

TEST(Supervisor, ExitStatusesAndStartErrors) {
  ScratchDir dir;
  ChildSpec body;
  body.body = [] { return std::getenv("ACCORD_SUP_TEST") != nullptr ? 7 : 0; };
  body.env = {{"ACCORD_SUP_TEST", "1"}};
  body.log_path = dir.file("body.log");
  const auto r = run_children({exec({"/bin/true"}, dir), exec({"/bin/sh", "-c", "exit 4"}, dir),
                               exec({"/nonexistent/accord"}, dir), body},
                              {10, 5});
  EXPECT_TRUE(r[0].ok());
  EXPECT_EQ(r[1].exit_code, 4);
  EXPECT_NE(r[2].start_error.find("No such file"), std::string::npos) << r[2].start_error;
  EXPECT_EQ(r[3].exit_code, 7);
  EXPECT_EQ(describe_end(r[1]), "exited with status 4");
}

TEST(Supervisor, FailureStopsTheOthersAfterTheGrace) {
  ScratchDir dir;
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = run_children({exec({"/bin/sh", "-c", "exit 1"}, dir), exec({"/bin/sleep", "30"}, dir)}, {20, 0.3});
  EXPECT_EQ(r[0].exit_code, 1);
  EXPECT_TRUE(r[1].aborted);
  EXPECT_EQ(r[1].signal, SIGTERM);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
}

TEST(Supervisor, DeadlineKillsEvenWhenTermIsIgnored) {
  ScratchDir dir;
  const auto r = run_children({exec({"/bin/sh", "-c", "trap '' TERM; sleep 30"}, dir)}, {0.3, 1});
  EXPECT_TRUE(r[0].timed_out);
  EXPECT_EQ(r[0].signal, SIGKILL);
  EXPECT_NE(describe_end(r[0]).find("signal 9"), std::string::npos);
}

TEST(Supervisor, AnInterruptStopsEveryChildAtOnce) {
  ScratchDir dir;
  const auto t0 = std::chrono::steady_clock::now();
  std::thread signaller([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::kill(::getpid(), SIGINT);  // handled by run_children while it runs
  });
  const auto r = run_children({exec({"/bin/sleep", "30"}, dir), exec({"/bin/sh", "-c", "trap '' TERM; sleep 30"}, dir)}, {60, 5});
  signaller.join();
  EXPECT_EQ(supervisor_interrupt_signal(), SIGINT);
  for (const auto& c : r) {
    EXPECT_EQ(c.interrupted, SIGINT);
    EXPECT_FALSE(c.aborted || c.timed_out);
    EXPECT_NE(c.signal, 0);
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
}

TEST(Supervisor, ChildOutputGoesToItsLog) {
  ScratchDir dir;
  ChildSpec c = exec({"/bin/sh", "-c", "echo out; echo err >&2"}, dir);
  c.log_path = dir.file("echo.log");
  ASSERT_TRUE(run_children({c}, {10, 1})[0].ok());
  EXPECT_EQ(file_tail(c.log_path), "out\nerr\n");
}

}  // namespace
}  // namespace accord::conformance::live
