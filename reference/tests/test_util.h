// test_util.h: helpers and matchers shared by the reference unit tests.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "accord/reference/json_io.h"
#include "accord/reference/resolve.h"

namespace accord::reference::testing {

/// Resolves a case written as JSON text; fails the test when the case itself is malformed.
inline Outcome run(const std::string& case_json, Profile p = Profile::kSpec) {
  Case c;
  std::string err;
  bool ok = case_from_json(nlohmann::json::parse(case_json), &c, &err);
  EXPECT_TRUE(ok) << err;
  return resolve(c, p);
}

/// The outcome as JSON (plan fields are easiest to check there).
inline nlohmann::json plan_of(const Outcome& o) { return outcome_to_json(o)["plan"]; }

/// Matches an outcome that failed with `code`, naming every key in `fields`.
MATCHER_P2(FailsWith, code, fields, std::string("fails with ") + wire_id(code)) {
  if (arg.ok()) {
    *result_listener << "resolved to a plan with strategy " << arg.plan().strategy.name;
    return false;
  }
  if (arg.error().code != code) {
    *result_listener << "failed with " << arg.error();
    return false;
  }
  for (const std::string& f : std::vector<std::string>(fields)) {
    if (!arg.error().field(f)) {
      *result_listener << "error " << arg.error() << " does not name " << f;
      return false;
    }
  }
  return true;
}

/// Matches an outcome that resolved to a plan whose strategy name is `strategy`.
MATCHER_P(ResolvesTo, strategy, std::string("resolves to strategy ") + strategy) {
  if (!arg.ok()) {
    *result_listener << "failed with " << arg.error();
    return false;
  }
  *result_listener << "strategy " << arg.plan().strategy.name;
  return arg.plan().strategy.name == std::string(strategy);
}

/// Matches an outcome whose notes include `code`.
MATCHER_P(Warns, code, std::string("emits ") + wire_id(code)) {
  for (const auto& n : arg.notes)
    if (n.code == code) return true;
  *result_listener << "notes:";
  for (const auto& n : arg.notes) *result_listener << " " << n;
  return false;
}

}  // namespace accord::reference::testing
