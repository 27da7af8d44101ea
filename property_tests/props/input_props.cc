// input_props.cc: bad case JSON is rejected, with an error that starts with the JSON Pointer of the bad key or value;
// the fast readers (cases, batch lines) read what the general ones read.
#include <sstream>

#include "accord/conformance/fast_case.h"
#include "accord/conformance/json_input.h"
#include "prop_util.h"

namespace accord::prop {
namespace {
using nlohmann::json;
using reference::Case;

/// case_from_json must refuse `wire`, and its error must start with `pointer` + ":"; the fast reader of serve and
/// resolve --batch must decline its text.
void rejected_at(const json& wire, const std::string& pointer) {
  Case out;
  std::string error;
  RC_ASSERT(!reference::case_from_json(wire, &out, &error));
  RC_ASSERT(error.rfind(pointer + ":", 0) == 0);
  thread_local conformance::FastCaseReader fast;
  RC_ASSERT(!fast.read_case(wire.dump(), &out));
}

/// A key name no case uses: "zz_" and lower-case letters.
rc::Gen<std::string> unknown_key() {
  return rc::gen::map(rc::gen::nonEmpty(rc::gen::container<std::string>(rc::gen::inRange('a', static_cast<char>('z' + 1)))),
                      [](const std::string& s) { return "zz_" + s; });
}

}  // namespace

// The fast reader (simdjson) reads every case's wire text, to the case the tree reader (nlohmann) reads.
RC_GTEST_PROP(FastCase, AgreesWithTheTreeReader, (const Case& c)) {
  const json wire = reference::case_to_json(c);
  Case tree, fast;
  std::string error;
  RC_ASSERT(reference::case_from_json(wire, &tree, &error));
  thread_local conformance::FastCaseReader reader;
  RC_ASSERT(reader.read_case(wire.dump(), &fast));
  RC_ASSERT(reference::case_to_json(fast) == reference::case_to_json(tree));
}

// An unknown key in the case, its flags, its hardware or an instance is an error naming that key.
RC_GTEST_PROP(CaseInput, UnknownKeyIsRejectedAtItsPointer, (const Case& c)) {
  json wire = reference::case_to_json(c);
  std::string key = *unknown_key();
  const std::string where = *rc::gen::element<std::string>("", "flags", "hardware", "instance");
  RC_TAG(where.empty() ? "case" : where);
  if (where.empty()) {
    wire[key] = 1;
    return rejected_at(wire, "/" + key);
  }
  if (where == "instance") {
    wire["flags"]["strategy"] = {{"class", "DDPStrategy"}, {key, 1}};
    return rejected_at(wire, "/flags/strategy/" + key);
  }
  wire[where][key] = true;
  rejected_at(wire, "/" + where + "/" + key);
}

// A value of the wrong type or out of range, in the hardware facts, the environment or `interactive`, is an
// error naming that value.
RC_GTEST_PROP(CaseInput, WrongValueIsRejectedAtItsPointer, (const Case& c)) {
  json wire = reference::case_to_json(c);
  const std::string key = *rc::gen::element<std::string>("cuda_devices", "tpu_cores", "mps", "tpu", "ipu", "hpu", "fork",
                                                         "torch_distributed", "cudnn_benchmark", "packages", "gpu_busy",
                                                         "env", "interactive", "flags");
  RC_TAG(key);
  if (key == "env") {
    wire["env"]["SLURM_NTASKS"] = *rc::gen::element<json>(2, true, nullptr, json::array());
    return rejected_at(wire, "/env/SLURM_NTASKS");
  }
  if (key == "interactive" || key == "flags") {
    wire[key] = *rc::gen::element<json>("yes", 1, json::array());
    return rejected_at(wire, "/" + key);
  }
  json bad;
  if (key == "cuda_devices") bad = *rc::gen::element<json>(-1, 4097, 1.5, "2", true);
  else if (key == "tpu_cores") bad = *rc::gen::element<json>(-8, "8", 2.0, nullptr);
  else if (key == "packages") bad = *rc::gen::element<json>("deepspeed", json::array({1}), json::object());
  else if (key == "gpu_busy") bad = *rc::gen::element<json>(0, json::array({"0"}), json::array({0.5}));
  else bad = *rc::gen::element<json>("true", 1, 0, nullptr);
  wire["hardware"][key] = bad;
  const bool in_list = bad.is_array() && !bad.empty();
  rejected_at(wire, "/hardware/" + key + (in_list ? "/0" : ""));
}

// resolve --batch's block reader gives the lines read_line_bounded gives, with the same ends of input, lines past the
// limit and last lines without a newline, wherever the blocks cut the text.
RC_GTEST_PROP(LineInput, BlockReaderGivesTheLinesOfTheLineReader, ()) {
  const auto text = *rc::gen::container<std::string>(rc::gen::element('a', 'b', '\n', '\r', '\0'));
  const auto max = *rc::gen::inRange<std::size_t>(0, 12);
  const auto block = *rc::gen::inRange<std::size_t>(1, 20);
  std::istringstream by_line(text), by_block(text);
  conformance::BlockLineReader reader(by_block, max, block);
  for (;;) {
    std::string want, got;
    const bool more = conformance::read_line_bounded(by_line, &want, max);
    RC_ASSERT(reader.next(&got) == more);
    if (!more) break;
    RC_ASSERT(got == want);
  }
}

}  // namespace accord::prop
