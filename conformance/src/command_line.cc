// command_line.cc: command lines for a person to paste (command_line.h).
#include "accord/conformance/command_line.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace accord::conformance {

std::string shell_quote(const std::string& text) {
  bool safe = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("/._-:=,+@%").find(c) != std::string_view::npos;
  });
  if (safe) return text;
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string regex_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string conform_command(const std::string& corpus, const std::string& impl, const std::string& profile, const std::string& id) {
  return "accord conform " + shell_quote(corpus) + " --filter " + shell_quote("^" + regex_escape(id) + "$") + " --impl " +
         shell_quote(impl) + " --profile " + shell_quote(profile);
}

}  // namespace accord::conformance
