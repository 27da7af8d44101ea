// cmd_resolve.cc: `accord resolve` (one case or a batch of JSON lines) and `accord list`.
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "accord/reference/json_io.h"
#include "accord/reference/registry.h"
#include "accord/reference/resolve.h"
#include "commands.h"

namespace accord::cli {
namespace {
using nlohmann::json;
namespace ref = accord::reference;

struct ResolveOptions {
  std::string input = "-";
  std::string profile = "spec";
  bool batch = false;
  bool pretty = false;
};

/// Resolves one JSON text; a bad case becomes {"status": "invalid", "error": "..."}.
json resolve_text(const std::string& text, ref::Profile profile) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) return {{"status", "invalid"}, {"error", "input is not valid JSON"}};
  ref::Case c;
  std::string err;
  if (!ref::case_from_json(j, &c, &err)) return {{"status", "invalid"}, {"error", err}};
  return ref::outcome_to_json(ref::resolve(c, profile));
}

int run_resolve(const ResolveOptions& o) {
  ref::Profile profile;
  if (!ref::parse_profile(o.profile, &profile)) {
    std::cerr << "accord resolve: unknown --profile '" << o.profile << "' (expected spec or lightning-1.6)\n";
    return 2;
  }
  std::ifstream file;
  if (o.input != "-") {
    file.open(o.input);
    if (!file) {
      std::cerr << "accord resolve: cannot open '" << o.input << "'\n";
      return 2;
    }
  }
  std::istream& in = o.input == "-" ? std::cin : file;
  if (o.batch) {
    std::ios::sync_with_stdio(false);
    std::string line;
    long long n = 0, bad = 0;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      json r = resolve_text(line, profile);
      bad += r["status"] == "invalid";
      std::cout << r.dump() << '\n';
      ++n;
    }
    std::cout.flush();
    return bad ? 1 : 0;
  }
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
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
  }
}

}  // namespace

void register_resolve(CLI::App& app) {
  auto o = std::make_shared<ResolveOptions>();
  auto* cmd = app.add_subcommand("resolve", "Resolve one case (JSON) or a batch (JSON lines) and print the outcome");
  cmd->add_option("input", o->input, "case file, or - for stdin")->capture_default_str();
  cmd->add_option("--profile", o->profile, "spec or lightning-1.6")->capture_default_str();
  cmd->add_flag("--batch", o->batch, "one case per input line, one outcome per output line, in order");
  cmd->add_flag("--pretty", o->pretty, "indent the output");
  cmd->callback([o] { std::exit(run_resolve(*o)); });

  auto what = std::make_shared<std::string>();
  auto* ls = app.add_subcommand("list", "List a vocabulary: strategies, accelerators, classes, rules, codes");
  ls->add_option("what", *what, "strategies | accelerators | classes | rules | codes")
      ->required()
      ->check(CLI::IsMember({"strategies", "accelerators", "classes", "rules", "codes"}));
  ls->callback([what] { list(*what); });
}

}  // namespace accord::cli
