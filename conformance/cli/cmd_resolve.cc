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
  int jobs = 0;  ///< batch worker threads; 0 = every core
};

/// Resolves one JSON text; a bad case becomes {"status": "invalid", "error": "..."}.
json resolve_text(const std::string& text, ref::Profile profile) {
  json j;
  std::string err;
  if (!cf::parse_json(text, &j, &err)) return {{"status", "invalid"}, {"error", "input is not valid JSON: " + err}};
  ref::Case c;
  if (!ref::case_from_json(j, &c, &err)) return {{"status", "invalid"}, {"error", err}};
  return ref::outcome_to_json(ref::resolve(c, profile));
}

/// One batch line: the outcome's JSON text (the reference adapter's direct writer, byte-identical to
/// outcome_to_json().dump()) or {"error", "line": N, "status": "invalid"}, then a newline. False (and
/// *why, the error) when invalid.
bool resolve_line(const std::string& line, std::size_t number, const std::string& name, const std::string& profile,
                  cf::Adapter& reference, std::string* out, std::string* why) {
  thread_local cf::FastCaseReader reader;  // the fast path; a line it declines goes through nlohmann's tree
  std::string err;
  bool shallow = cf::check_json_depth(line, &err);  // before either reader: both recurse
  if (ref::Case c; shallow && reader.read_case(line, &c)) {
    std::optional<cf::AdapterResult> r = reference.resolve_case_text(profile, c, out);
    if (r && r->status == cf::ResultStatus::kOk) {
      out->push_back('\n');
      return true;
    }
  }
  json j;
  if (line == cf::kLineTooLong) {
    err = "line longer than " + cf::line_limit_text() + " (the limit); not read";
  } else if (line.empty() || line == "\r") {
    err = "blank line";
  } else if (!cf::parse_json(line, &j, &err)) {
    if (err.rfind("line 1, column ", 0) == 0) err.erase(0, 8);  // one line: its column says where
    err = "input is not valid JSON: " + err;
  } else {
    if (reference.resolve_text("", profile, j, out).status == cf::ResultStatus::kOk) {
      out->push_back('\n');
      return true;
    }
    ref::Case c;
    ref::case_from_json(j, &c, &err);  // the reader's own message (bad lines only)
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
int run_batch(std::istream& in, const std::string& name, const std::string& profile, int jobs) {
  std::ios::sync_with_stdio(false);
  constexpr std::size_t kChunk = 4096;
  const std::size_t parts = jobs > 0 ? static_cast<std::size_t>(jobs) : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::unique_ptr<cf::Adapter>> adapters;
  for (std::size_t k = 0; k < parts; ++k) adapters.push_back(cf::make_reference_adapter());
  std::vector<std::string> lines[2], outs[2], errs[2];
  std::size_t first[2] = {1, 1}, read = 0;  // the line number of each chunk's first line
  outs[0].resize(parts), outs[1].resize(parts), errs[0].resize(parts), errs[1].resize(parts);
  std::vector<long long> bad(parts, 0);
  auto read_chunk = [&](int into) {
    lines[into].clear();
    first[into] = read + 1;
    std::string line;
    while (lines[into].size() < kChunk && cf::read_line_bounded(in, &line)) lines[into].push_back(std::move(line)), ++read;
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
  for (int cur = 0; !lines[cur].empty(); cur ^= 1) {
    std::vector<std::thread> workers;
    for (std::size_t k = 0; k < parts; ++k)
      workers.emplace_back([&, k] {
        const auto& ls = lines[cur];
        for (std::size_t i = ls.size() * k / parts; i < ls.size() * (k + 1) / parts; ++i)
          bad[k] += !resolve_line(ls[i], first[cur] + i, name, profile, *adapters[k], &outs[cur][k], &errs[cur][k]);
      });
    write_chunk(outs[cur ^ 1], errs[cur ^ 1]);  // the previous chunk, while this one resolves
    read_chunk(cur ^ 1);
    for (auto& t : workers) t.join();
    if (lines[cur ^ 1].empty()) write_chunk(outs[cur], errs[cur]);
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
  std::ifstream file;
  std::string error, text;
  if (o.input != "-" && !(o.batch ? cf::open_input(o.input, &file, &error) : cf::read_input_file(o.input, &text, &error))) {
    std::cerr << "accord resolve: " << error << "\n";
    return 2;
  }
  if (o.batch) return run_batch(o.input == "-" ? std::cin : file, o.input == "-" ? "<stdin>" : o.input, o.profile, o.jobs);
  if (o.input == "-") text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  json r = resolve_text(text, profile);
  std::cout << (o.pretty ? r.dump(2) : r.dump()) << '\n';
  if (r["status"] == "invalid") {
    std::cerr << "accord resolve: " << (o.input == "-" ? "<stdin>" : o.input) << ": " << r["error"].get<std::string>() << '\n';
    return 2;
  }
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
