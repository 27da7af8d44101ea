// run.h: resolving every cell of a domain (or the rows of a covering array) on worker threads.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "accord/reference/inputs.h"
#include "enumerate/domain.h"

namespace accord::enumerate {

/// Turns one case into its outcome class (outcome_class.h). One per worker thread; need not be
/// thread-safe. Must not throw: faults become classes starting with `!`.
class Classifier {
 public:
  virtual ~Classifier() = default;
  virtual void classify(const reference::Case& c, std::string* out) = 0;
};
using ClassifierFactory = std::function<std::unique_ptr<Classifier>()>;

/// The in-process reference under `profile`: reference::resolve + outcome_class, no JSON.
std::unique_ptr<Classifier> reference_classifier(reference::Profile profile);

struct RunOptions {
  int jobs = 2;                  ///< worker threads
  std::uint64_t chunk = 4096;    ///< cells a worker takes at a time
  /// Called on the calling thread about every `interval_s` seconds, and once at the end.
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
  double interval_s = 0.2;
};

struct RunResult {
  std::vector<std::uint32_t> ids;     ///< class index per cell, in cell order
  std::vector<std::string> classes;   ///< in order of first discovery
  double seconds = 0;
};

/// Resolves every cell of the domain's product (rows == nullptr) or every row of a covering array.
/// A worker keeps one case and re-applies only the axes whose value changed from its last cell.
RunResult run_cells(const Domain& d, const std::vector<std::vector<std::uint16_t>>* rows, const ClassifierFactory& make,
                    const RunOptions& opt);

}  // namespace accord::enumerate
