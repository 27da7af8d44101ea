// serve.cc: the implementation side of the protocol (`accord serve`): request lines are read in
// batches (everything already buffered), answered on one or several adapters in parallel, and the
// replies written in order with one flush per batch.
#include <algorithm>
#include <condition_variable>
#include <istream>
#include <mutex>
#include <ostream>
#include <thread>

#include "accord/conformance/fast_case.h"
#include "accord/conformance/interrupt.h"
#include "accord/conformance/json_input.h"
#include "accord/conformance/protocol.h"
#include "accord/reference/inputs.h"
#include "accord/reference/big_int_json.h"

namespace accord::conformance {
namespace {
using nlohmann::json;

constexpr std::size_t kMaxBatch = 4096;     ///< lines answered between two writes
constexpr std::size_t kParallelFrom = 64;   ///< smaller batches are answered on the calling thread

/// Appends the rest of a reply line after `{"id":<id>` without building a reply object.
void write_reply_tail(std::string& out, const AdapterResult& r, const std::string& outcome_text) {
  switch (r.status) {
    case ResultStatus::kOk:
      out += ",\"outcome\":", out += outcome_text;
      if (r.elapsed_ns) out += ",\"elapsed_ns\":", out += std::to_string(*r.elapsed_ns);
      break;
    case ResultStatus::kSkipped: out += ",\"skipped\":", append_json_string(out, r.message); break;
    case ResultStatus::kErrored:
    case ResultStatus::kCrashed:
    case ResultStatus::kTimeout: out += ",\"errored\":", append_json_string(out, r.message); break;
  }
  out += "}\n";
}

void write_reply(std::string& out, const json& id, const AdapterResult& r, const std::string& outcome_text) {
  out += "{\"id\":";
  if (id.is_string()) append_json_string(out, id.get_ref<const std::string&>());
  else out += reference::json_text(id);
  write_reply_tail(out, r, outcome_text);
}

/// The fast path: a resolve request that FastCaseReader reads, for an adapter that takes a read case.
/// False when either declines; the request then goes the nlohmann way, which answers it the same.
bool answer_fast(const std::string& line, std::string& out, Adapter& impl, const std::string& default_profile) {
  thread_local FastCaseReader reader;
  thread_local std::string id;
  thread_local std::optional<std::string> profile;
  thread_local reference::Case c;  // reused request after request (the reader clears what it set)
  if (!reader.read_request(line, &id, &profile, &c)) return false;
  const std::size_t start = out.size();
  out += "{\"id\":";
  append_json_string(out, id);
  const std::size_t id_end = out.size();
  out += ",\"outcome\":";  // the outcome is written in place, not copied from another string
  std::optional<AdapterResult> r = impl.resolve_case_text(profile ? *profile : default_profile, c, &out);
  if (!r) return out.resize(start), false;
  if (r->status == ResultStatus::kOk) {
    if (r->elapsed_ns) out += ",\"elapsed_ns\":", out += std::to_string(*r->elapsed_ns);
    out += "}\n";
  } else {  // skipped: no outcome
    out.resize(id_end);
    write_reply_tail(out, *r, "");
  }
  return true;
}

/// Answers one request line into `out` (nothing for blank lines and `stop`); false after `stop`.
bool answer(const std::string& line, std::string& out, Adapter& impl, const std::string& default_profile) {
  if (line.empty() || line == "\r") return true;
  if (line == kLineTooLong) {
    out += R"({"id":null,"errored":"request line longer than )" + line_limit_text() + R"( (the protocol's limit); not read"})" "\n";
    return true;
  }
  // The fast reader refuses nesting past kMaxJsonDepth itself; parse_json then reports it.
  if (answer_fast(line, out, impl, default_profile)) return true;
  std::string error;
  json req, read_id;  // the id, when it was read before the request went wrong
  if (!parse_json(line, &req, &error, &read_id)) {
    if (error.rfind("line 1, column ", 0) == 0) error.erase(0, 8);  // one line: its column says where
    write_reply(out, read_id, {ResultStatus::kErrored, nullptr, "request is not valid JSON: " + error}, "");
    return true;
  }
  if (!req.is_object()) {
    out += R"({"id":null,"errored":"request is not a JSON object"})" "\n";
    return true;
  }
  static const json kNull, kEmptyCase = json::object();
  auto field = [&](const char* k) -> const json& {
    auto it = req.find(k);
    return it == req.end() ? kNull : *it;
  };
  const json& cmd = field("cmd");
  if (cmd == "stop") return false;
  if (cmd == "start") {
    if (field("protocol") != kProtocolVersion)
      out += json({{"ok", false}, {"error", "unsupported protocol " + field("protocol").dump() + "; speaks 1"}}).dump() + "\n";
    else
      out += handshake_reply(impl.info()) + "\n";
    if (field("timing") == true) impl.ask_timing(true);  // serve() passes it on to the other workers' adapters
    return true;
  }
  const json& id = field("id");
  if (cmd != "resolve") {
    write_reply(out, id, {ResultStatus::kErrored, nullptr, "unknown command " + cmd.dump()}, "");
    return true;
  }
  const json& p = field("profile");
  const json& c = field("case");
  thread_local std::string text;
  text.clear();
  AdapterResult r = impl.resolve_text(reference::value_text(id), p.is_string() ? p.get_ref<const std::string&>() : default_profile,
                                      c.is_null() ? kEmptyCase : c, &text);
  write_reply(out, id, r, text);
  return true;
}

/// A batch and its answers: replies[i] and more[i] belong to lines[i].
struct Batch {
  std::vector<std::string> lines;
  std::vector<std::string> replies;
  std::vector<char> more;
  void answer_slice(std::size_t from, std::size_t to, Adapter& impl, const std::string& profile) {
    for (std::size_t i = from; i < to; ++i) {
      replies[i].clear();
      more[i] = answer(lines[i], replies[i], impl, profile);
    }
  }
};

/// Helper threads, one per extra adapter; run() splits a batch into contiguous slices and the
/// calling thread answers the first one.
class Pool {
 public:
  Pool(const std::vector<Adapter*>& impls, const std::string& profile) : impls_(impls), profile_(profile) {
    for (std::size_t k = 1; k < impls_.size(); ++k) threads_.emplace_back([this, k] { loop(k); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      quit_ = true;
    }
    start_.notify_all();
    for (auto& t : threads_) t.join();
  }
  void run(Batch& b) {
    const std::size_t n = b.lines.size(), parts = n >= kParallelFrom ? impls_.size() : 1;
    b.replies.resize(n);
    b.more.resize(n);
    if (parts == 1) return b.answer_slice(0, n, *impls_[0], profile_);
    {
      std::lock_guard<std::mutex> lock(mu_);
      batch_ = &b;
      pending_ = parts - 1;
      ++generation_;
    }
    start_.notify_all();
    b.answer_slice(0, n / parts, *impls_[0], profile_);
    std::unique_lock<std::mutex> lock(mu_);
    done_.wait(lock, [this] { return pending_ == 0; });
  }

 private:
  void loop(std::size_t k) {
    std::size_t seen = 0;
    for (;;) {
      Batch* b;
      {
        std::unique_lock<std::mutex> lock(mu_);
        start_.wait(lock, [&] { return quit_ || generation_ != seen; });
        if (quit_) return;
        seen = generation_;
        b = batch_;
      }
      const std::size_t n = b->lines.size(), parts = impls_.size();
      b->answer_slice(n * k / parts, n * (k + 1) / parts, *impls_[k], profile_);
      std::lock_guard<std::mutex> lock(mu_);
      if (--pending_ == 0) done_.notify_one();
    }
  }

  std::vector<Adapter*> impls_;
  std::string profile_;
  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable start_, done_;
  Batch* batch_ = nullptr;
  std::size_t pending_ = 0, generation_ = 0;
  bool quit_ = false;
};

}  // namespace

int serve(std::istream& in, std::ostream& out, const std::vector<Adapter*>& impls, const std::string& default_profile) {
  if (impls.empty()) return 2;
  Pool pool(impls, default_profile);
  Batch b;
  std::string line;
  auto next = [&] {
    if (!read_line_bounded(in, &line)) return false;
    b.lines.push_back(std::move(line));
    return true;
  };
  while (!interrupt_signal() && (b.lines.clear(), next())) {
    // Everything already buffered joins the batch; a peer waiting for each reply gets a batch of one.
    while (b.lines.size() < kMaxBatch && in.rdbuf()->in_avail() > 0 && next()) {
    }
    pool.run(b);
    // The timing mode, asked in a start line one worker answered, holds for every worker from the next batch on.
    if (std::any_of(impls.begin(), impls.end(), [](const Adapter* a) { return a->timing(); }))
      for (Adapter* a : impls) a->ask_timing(true);
    for (std::size_t i = 0; i < b.lines.size(); ++i) {
      if (!b.more[i]) {
        out.flush();
        return 0;
      }
      out.write(b.replies[i].data(), static_cast<std::streamsize>(b.replies[i].size()));
    }
    out.flush();  // one flush per batch
  }
  out.flush();
  return 0;
}

int serve(std::istream& in, std::ostream& out, Adapter& impl, const std::string& default_profile) {
  return serve(in, out, std::vector<Adapter*>{&impl}, default_profile);
}

}  // namespace accord::conformance
