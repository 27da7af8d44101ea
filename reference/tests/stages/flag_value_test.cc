// flag_value_test.cc: a final flag borrows the value it reads (the case's, a table's, a shared constant) and copies
// it only when a step rewrites it (context.h, FlagValue and lower_in_place).
#include <gtest/gtest.h>

#include "../../src/context.h"

namespace accord::reference::detail {
namespace {

TEST(FlagValue, ReadsTheAbsentValueUntilAStepSetsIt) {
  FlagValue f;
  EXPECT_TRUE(f->is_absent());
  EXPECT_EQ(&*f, &absent_value());
}

TEST(FlagValue, BorrowsUntilAStepRewritesItThenOwnsACopy) {
  const PyValue given = PyValue::string("ddp"), other = PyValue::string("ddp_spawn");
  FlagValue f;
  f.borrow(given);
  EXPECT_EQ(&*f, &given);  // no copy
  f.own().str = "dp";
  EXPECT_NE(&*f, &given);
  EXPECT_EQ(f->str, "dp");
  EXPECT_EQ(given.str, "ddp");  // the borrowed value is never written
  f.own().str += "x";           // the copy it owns, rewritten again in place
  EXPECT_EQ(f->str, "dpx");
  // Borrowing again reads the new value; the next rewrite copies that value, not the one owned before.
  f.borrow(other);
  EXPECT_EQ(&*f, &other);
  EXPECT_EQ(f.own().str, "ddp_spawn");
  EXPECT_EQ(other.str, "ddp_spawn");
  f.keep(PyValue::integer(16));
  EXPECT_EQ(f->kind, PyValue::Kind::kInt);
  EXPECT_EQ(f->i, 16);
}

TEST(FlagValue, LowerInPlaceCopiesOnlyANameWithUpperCase) {
  const PyValue lower = PyValue::string("ddp_spawn"), mixed = PyValue::string("DDP_Spawn_2");
  FlagValue f;
  f.borrow(lower);
  lower_in_place(f);
  EXPECT_EQ(&*f, &lower);
  f.borrow(mixed);
  lower_in_place(f);
  EXPECT_NE(&*f, &mixed);
  EXPECT_EQ(f->str, "ddp_spawn_2");
  EXPECT_EQ(mixed.str, "DDP_Spawn_2");  // the case keeps what the user wrote (messages quote it)
}

}  // namespace
}  // namespace accord::reference::detail
