// command_line.h: command lines a report prints for a person to paste: quoting for a POSIX shell, an id as an
// anchored regex, and the `accord conform` line that runs one case alone.
#pragma once

#include <string>

namespace accord::conformance {

/// `'text'` for a POSIX shell (bare when it holds only characters no shell treats specially).
std::string shell_quote(const std::string& text);
/// `text` with every ECMAScript regex metacharacter escaped.
std::string regex_escape(const std::string& text);
/// `accord conform CORPUS --filter '^ID$' --impl IMPL --profile PROFILE`: the case `id` alone, as it ran.
std::string conform_command(const std::string& corpus, const std::string& impl, const std::string& profile, const std::string& id);

}  // namespace accord::conformance
