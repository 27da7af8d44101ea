// analysis.h: decision-space coverage of a corpus on the reference: rule IDs and diagnostic codes exercised,
// and the pairwise matrices (accelerator x strategy, ...) with each cell covered, uncovered or impossible.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "accord/coverage/dimensions.h"
#include "accord/reference/inputs.h"
#include "accord/reference/plan.h"

namespace accord::coverage {

/// One corpus case as the analysis needs it: its id, the profiles it applies to, the rule IDs it claims to
/// cover and its input.
struct CorpusCase {
  std::string id;
  std::string file;
  std::vector<reference::Profile> profiles;
  std::vector<std::string> covers;
  reference::Case given;
};

enum class CellStatus {
  kCovered,        ///< a plan is possible and at least one case falls into the cell
  kUncovered,      ///< a plan is possible (a probe or case resolved) but no case falls into the cell
  kImpossible,     ///< every probe (and every case) of the cell resolves to an error
  kNotApplicable,  ///< no input can fall into the cell (e.g. legacy flag given with an absent value)
};
/// `covered`, `uncovered`, `impossible`, `n/a`.
const char* status_name(CellStatus s);

/// How many cases exercised something, and the first few of their ids.
struct Tally {
  std::string name;
  int cases = 0;
  std::vector<std::string> ids;
};

/// One error a cell's probes or cases ended in: the code with the last rule that fired
/// (`err_tpu_precision_64 (select.precision-tpu-64)`), how often, and how far the furthest such run got.
struct CellError {
  std::string error;
  int count = 0;
  int probe_count = 0;  ///< of which generated probes (the rest are corpus cases)
  int depth = 0;  ///< how far the furthest such run got: 1 + the position of its last rule in rules.def (stage order)
};

struct CellResult {
  int cases = 0;     ///< corpus cases in the cell
  int ok_cases = 0;  ///< of which resolved to a plan
  std::vector<std::string> case_ids;
  CellStatus status = CellStatus::kNotApplicable;
  int probes = 0;       ///< generated probes resolved for the cell
  std::string witness;  ///< a probe that resolved to a plan (possible cells without an ok case)
  /// Impossible cells: the errors the probes and cases ended in. Probe errors come first, the one reached
  /// furthest first (what remains when everything else about a probe is valid: the cell's citation);
  /// errors only corpus cases reached (they vary other inputs on purpose) come last.
  std::vector<CellError> errors;
};

struct Matrix {
  Dim rows;
  Dim cols;
  std::vector<std::vector<CellResult>> cells;  ///< [row value][col value]
  /// HTML element id / JSON key: `m-<profile>-<rows>-x-<cols>`.
  std::string element_id(reference::Profile p) const;
};

struct ProfileReport {
  reference::Profile profile;
  int cases = 0;              ///< corpus cases that apply to the profile
  int ok = 0;                 ///< of which resolved to a plan
  std::vector<Tally> rules;   ///< every rule of the profile, in rules.def order
  std::vector<Tally> codes;   ///< every diagnostic code, in diagnostics.def order
  std::vector<Matrix> matrices;
  std::vector<std::string> missing_rules;  ///< rules of the profile no case exercises
};

struct Report {
  std::string corpus;  ///< the directory read
  int corpus_cases = 0;
  std::vector<ProfileReport> profiles;
  std::vector<Tally> codes_total;          ///< every code, cases over the selected profiles
  std::vector<std::string> missing_codes;  ///< codes no case exercises in any selected profile
  /// "<file>: <id> [<profile>]: covers <rule> but it did not fire", for each profile run of a case whose
  /// `covers` names a rule of that profile that is not in the run's trace.
  std::vector<std::string> covers_mismatch;
  std::vector<std::string> load_errors;
  /// The CI gate: no load error, every rule of every selected profile and every code has a case, and
  /// every rule a case `covers` fires in each of its runs on a profile that has the rule.
  bool ok() const;
};

/// The six pairwise matrices, as (rows, cols).
const std::vector<std::pair<Dim, Dim>>& matrix_pairs();

/// Resolves every case on the reference for each profile and builds the report. Probes are generated
/// only for cells with no case that resolved to a plan.
Report analyze(const std::vector<CorpusCase>& corpus, const std::vector<reference::Profile>& profiles);

/// Decides one cell by probes: resolves the generated probe set until one resolves to a plan.
/// Fills status-independent fields: probes, witness (when possible), errors (when not). Returns whether a
/// plan is possible; probes == 0 means no probe can fall into the cell.
bool probe_cell(Dim rows, int row, Dim cols, int col, reference::Profile p, CellResult& cell);
/// Adds an error outcome to a cell's error tally (keyed by code and last rule).
void add_error(std::map<std::string, CellError>& errors, const reference::Outcome& out, bool probe);

}  // namespace accord::coverage
