// cmd_resolve.cc: `accord resolve` (one case or a batch of JSON lines) and `accord list`.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <optional>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "accord/conformance/adapter.h"
#include "accord/conformance/fast_case.h"
#include "accord/conformance/json_input.h"
#include "accord/conformance/outcome_text.h"
#include "accord/reference/flags.h"
#include "accord/reference/json_io.h"
#include "accord/reference/registry.h"
#include "accord/reference/resolve.h"
#include "commands.h"

namespace accord::cli {
namespace {
using nlohmann::json;
namespace ref = accord::reference;
namespace cf = accord::conformance;

struct ResolveOptions {
  std::string input = "-";
  std::string profile = ref::profile_name(ref::default_profile());
  bool batch = false;
  bool pretty = false;
  bool plan_only = false;
  int jobs = 0;  ///< batch worker threads; 0 = every core
};

/// Reads one case from JSON text: the fast reader (one per thread, its case reused line after line), or, for what it
/// declines, nlohmann's tree (which checks the nesting depth first) and the reference's reader. Null with *err when
/// the text is not a case; a batch line's JSON error gives its column alone (`one_line`).
const ref::Case* read_case(const std::string& text, bool one_line, std::optional<ref::Case>* tree, std::string* err) {
  thread_local cf::FastCaseReader reader;
  thread_local ref::Case fast;
  if (reader.read_case(text, &fast)) return &fast;
  json j;
  if (!cf::parse_json(text, &j, err)) {
    if (one_line && err->rfind("line 1, column ", 0) == 0) err->erase(0, 8);  // its column says where
    *err = "input is not valid JSON: " + *err;
    return nullptr;
  }
  return ref::case_from_json(j, &tree->emplace(), err) ? &**tree : nullptr;
}

/// One batch line: the outcome's JSON text (byte-identical to outcome_to_json().dump(), or its plan-only form) or
/// {"error", "line": N, "status": "invalid"}, then a newline. False (and *why, the error) when invalid.
bool resolve_line(const std::string& line, std::size_t number, const std::string& name, ref::Profile profile,
                  cf::OutcomeParts parts, std::string* out, std::string* why) {
  std::string err;
  // Built only for a line the fast reader declines, and freed at the next line. A thread's own, not a local: a
  // `std::optional<Case>` on the stack cost about 230 instructions a line, engaged or not.
  thread_local std::optional<ref::Case> tree;
  tree.reset();
  if (line == cf::kLineTooLong) {
    err = "line longer than " + cf::line_limit_text() + " (the limit); not read";
  } else if (line.empty() || std::string_view(line) == "\r") {
    err = "blank line";
  } else if (const ref::Case* c = read_case(line, true, &tree, &err)) {
    thread_local ref::Outcome outcome;  // one per worker, its storage reused line after line
    ref::resolve(*c, profile, outcome);
    cf::write_outcome_text(out, outcome, parts);
    out->push_back('\n');
    return true;
  }
  *out += json{{"status", "invalid"}, {"error", err}, {"line", number}}.dump();
  out->push_back('\n');
  *why += "accord resolve: " + name + ":" + std::to_string(number) + ": " + err + "\n";
  return false;
}

/// `--batch`: chunks of lines resolved by `jobs` worker threads while this thread writes the previous
/// chunk's outcomes and reads the next chunk (double buffering); output stays in input order, one line
/// per input line (blank and invalid ones too), with one write per chunk and worker (no flush per line).
/// Exit 0 when every line was a case, 2 otherwise (each bad line also named on stderr).
int run_batch(std::istream& in, const std::string& name, ref::Profile profile, cf::OutcomeParts parts, int jobs) {
  std::ios::sync_with_stdio(false);
  constexpr std::size_t kChunk = 4096;
  const std::size_t workers_n = jobs > 0 ? static_cast<std::size_t>(jobs) : std::max(1u, std::thread::hardware_concurrency());
  // lines[b][0, count[b]) is chunk b; the strings are reused chunk after chunk, so a line costs no allocation
  std::vector<std::string> lines[2], outs[2], errs[2];
  std::size_t count[2] = {0, 0}, first[2] = {1, 1}, read = 0;  // first: the line number of each chunk's first line
  outs[0].resize(workers_n), outs[1].resize(workers_n), errs[0].resize(workers_n), errs[1].resize(workers_n);
  std::vector<long long> bad(workers_n, 0);
  cf::BlockLineReader reader(in);
  auto read_chunk = [&](int into) {
    count[into] = 0;
    first[into] = read + 1;
    for (; count[into] < kChunk && reader.next_kept(&lines[into], count[into]); ++count[into]) ++read;
  };
  auto write_chunk = [](std::vector<std::string>& from, std::vector<std::string>& err) {
    for (auto& o : from) std::cout.write(o.data(), static_cast<std::streamsize>(o.size())), o.clear();
    bool any = false;
    for (auto& e : err) any = any || !e.empty();
    if (!any) return;
    std::cout.flush();
    for (auto& e : err) {
      std::cerr << e, e.clear();
    }
  };
  read_chunk(0);
  for (int cur = 0; count[cur] > 0; cur ^= 1) {
    std::vector<std::thread> workers;
    for (std::size_t k = 0; k < workers_n; ++k)
      workers.emplace_back([&, k] {
        const auto& ls = lines[cur];
        const std::size_t n = count[cur];
        for (std::size_t i = n * k / workers_n; i < n * (k + 1) / workers_n; ++i)
          bad[k] += !resolve_line(ls[i], first[cur] + i, name, profile, parts, &outs[cur][k], &errs[cur][k]);
      });
    write_chunk(outs[cur ^ 1], errs[cur ^ 1]);  // the previous chunk, while this one resolves
    read_chunk(cur ^ 1);
    for (auto& t : workers) t.join();
    if (count[cur ^ 1] == 0) write_chunk(outs[cur], errs[cur]);
  }
  std::cout.flush();
  if (in.bad()) {  // a read that failed (EIO), not the end of the input
    std::cerr << "accord resolve: cannot read '" << name << "': read error after line " << read << "\n";
    return 2;
  }
  for (auto b : bad)
    if (b) return 2;
  return 0;
}

int run_resolve(const ResolveOptions& o) {
  ref::Profile profile;
  if (!ref::parse_profile(o.profile, &profile)) {
    std::cerr << "accord resolve: unknown --profile '" << o.profile << "' (expected one of " << ref::profile_names() << ")\n";
    return 2;
  }
  const cf::OutcomeParts parts = o.plan_only ? cf::OutcomeParts::kPlanOnly : cf::OutcomeParts::kWhole;
  std::ifstream file;
  std::string error, text;
  if (o.input != "-" && !(o.batch ? cf::open_input(o.input, &file, &error) : cf::read_input_file(o.input, &text, &error))) {
    std::cerr << "accord resolve: " << error << "\n";
    return 2;
  }
  if (o.batch) return run_batch(o.input == "-" ? std::cin : file, o.input == "-" ? "<stdin>" : o.input, profile, parts, o.jobs);
  if (o.input == "-") text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  std::optional<ref::Case> tree;
  const ref::Case* c = read_case(text, false, &tree, &error);
  if (!c) {
    std::cout << json{{"status", "invalid"}, {"error", error}}.dump(o.pretty ? 2 : -1) << '\n';
    std::cerr << "accord resolve: " << (o.input == "-" ? "<stdin>" : o.input) << ": " << error << '\n';
    return 2;
  }
  const ref::Outcome outcome = ref::resolve(*c, profile);
  json tree_form;
  if (o.plan_only) {  // the same text as a batch line, read back (accord's reader keeps integers past 64 bits)
    std::string line;
    cf::write_outcome_text(&line, outcome, parts);
    cf::parse_json(line, &tree_form, &error);
  } else {
    tree_form = ref::outcome_to_json(outcome);
  }
  std::cout << (o.pretty ? tree_form.dump(2) : tree_form.dump()) << '\n';
  return 0;
}

void list(const std::string& what) {
  if (what == "strategies") {
    for (const auto& s : ref::strategies())
      std::cout << s.name << "\t" << ref::row(s.cls).cls << "\t" << (*s.params ? s.params : "-") << "\n";
  } else if (what == "accelerators") {
    for (const auto& a : ref::accelerators()) std::cout << a.name << "\t" << a.cls << "\n";
  } else if (what == "classes") {
    for (const auto& c : ref::class_names()) std::cout << c << "\n";
  } else if (what == "rules") {
    for (int k = 0; k < ref::rule_count(); ++k) std::cout << ref::rule_wire(static_cast<ref::RuleId>(k)) << "\n";
  } else if (what == "codes") {
    for (int k = 0; k < ref::diag_count(); ++k) std::cout << ref::wire_id(static_cast<ref::DiagCode>(k)) << "\n";
  } else if (what == "profiles") {  // name, parent, connector, release, description (tables/profiles.def)
    for (const auto& p : ref::profiles())
      std::cout << p.name << "\t" << (p.parent ? ref::profile_name(*p.parent) : "-") << "\t"
                << (p.connector == ref::Connector::kFabric ? "fabric" : "trainer") << "\t" << p.release << "\t"
                << p.description << "\n";
  } else if (what == "policies") {  // one line per policy: its name, then its value in each profile, in table order
    std::cout << "policy";
    for (const auto& p : ref::profiles()) std::cout << "\t" << p.name;
    std::cout << "\n";
    for (const auto& name : ref::policy_names()) {
      std::cout << name;
      for (const auto& p : ref::profiles()) std::cout << "\t" << *ref::policy_value(p.policy, name);
      std::cout << "\n";
    }
  } else if (what == "flags") {  // tables/flags.def: name, Python type, instances, accepted in each profile, lacking
    std::cout << "flag\tpy_type\tinstances";
    for (const auto& p : ref::profiles()) std::cout << "\t" << p.name;
    std::cout << "\tlacking\tdescription\n";
    for (const auto& f : ref::flags()) {
      std::cout << f.name << "\t" << f.py_type << "\t" << (f.instances ? "true" : "false");
      for (const auto& p : ref::profiles()) std::cout << "\t" << (ref::flag_accepted(f, p.profile) ? "accepted" : "-");
      std::cout << "\t" << ref::lacking_name(f.lacking) << "\t" << f.description << "\n";
    }
  } else if (what == "capabilities") {  // conformance/tables/capabilities.def: the tag a case may require, its meaning
    for (std::size_t k = 0; k < cf::known_capabilities().size(); ++k)
      std::cout << cf::known_capabilities()[k] << "\t" << cf::capability_meanings()[k] << "\n";
  } else if (what == "precisions") {  // tables/precisions.def: the spelling (repr), its group, its reading per profile
    std::cout << "spelling\tgroup";
    for (const auto& p : ref::profiles()) std::cout << "\t" << p.name;
    std::cout << "\tdescription\n";
    for (const auto& s : ref::precision_spellings()) {
      std::cout << ref::repr(s.value) << "\t" << ref::group_name(s.group);
      for (const auto& p : ref::profiles()) {
        const ref::PyValue* v = ref::precision_reading(s, p.profile);
        std::cout << "\t" << (v ? ref::repr(*v) : "err_precision_invalid");
      }
      std::cout << "\t" << s.description << "\n";
    }
  }
}

}  // namespace

void register_resolve(CLI::App& app) {
  auto o = std::make_shared<ResolveOptions>();
  auto* cmd = app.add_subcommand("resolve", "Resolve one case (JSON) or a batch (JSON lines) and print the outcome");
  cmd->add_option("input", o->input, "case file, or - for stdin")->capture_default_str();
  cmd->add_option("--profile", o->profile, "the profile: " + ref::profile_names(" | "))->capture_default_str();
  cmd->add_flag("--batch", o->batch, "one case per input line, one outcome per output line, in order");
  cmd->add_option("--jobs,-j", o->jobs, "--batch worker threads (0: every core)")->capture_default_str()->check(CLI::Range(0, 256));
  cmd->add_flag("--pretty", o->pretty, "indent the output");
  cmd->add_flag("--plan-only", o->plan_only,
                "write each outcome's status with its plan, or with its error's code and fields (no notes, messages or trace)");
  cmd->callback([o] { set_status(run_resolve(*o)); });

  auto what = std::make_shared<std::string>();
  auto* ls = app.add_subcommand("list", "List a vocabulary: strategies, accelerators, classes, rules, codes, profiles, policies, "
                                        "flags, precisions, capabilities");
  const std::vector<std::string> kinds = {"strategies", "accelerators", "classes", "rules", "codes", "profiles",
                                          "policies", "flags", "precisions", "capabilities"};
  std::string names;
  for (const auto& k : kinds) names += (names.empty() ? "" : " | ") + k;
  ls->add_option("what", *what, names)->required()->check(CLI::IsMember(kinds));
  ls->callback([what] { list(*what); });
}

}  // namespace accord::cli
