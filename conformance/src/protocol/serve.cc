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

/// A batch of request lines and their replies. lines[0, n) are the batch; the strings are kept batch after batch, so
/// a line costs no allocation. The batch is answered in `parts` contiguous slices, slice k into out[k]; stopped[k]
/// says that slice met `stop` (its later lines unanswered, every later slice's replies never written).
struct Batch {
  std::vector<std::string> lines;
  std::size_t n = 0;
  std::vector<std::string> out;
  std::vector<char> stopped;
  std::size_t parts = 0;

  /// Reads the next batch: everything already readable, up to kMaxBatch lines. With `wait`, the first line is
  /// waited for; without, nothing is read unless some input is there. False when no line was read.
  bool read(std::istream& in, bool wait) {
    n = 0;
    while (n < kMaxBatch && ((n == 0 && wait) || in.rdbuf()->in_avail() > 0) && read_kept_line(in, &lines, n)) ++n;
    return n > 0;
  }
  void split(std::size_t k) {
    parts = k;
    if (out.size() < k) out.resize(k), stopped.resize(k);
  }
  void answer_slice(std::size_t k, Adapter& impl, const std::string& profile) {
    std::string& o = out[k];
    o.clear();
    stopped[k] = 0;
    for (std::size_t i = n * k / parts, end = n * (k + 1) / parts; i < end; ++i)
      if (!answer(lines[i], o, impl, profile)) return void(stopped[k] = 1);
  }
  /// Writes the replies in order, up to a `stop`.
  void write(std::ostream& os) const {
    for (std::size_t k = 0; k < parts; ++k) {
      os.write(out[k].data(), static_cast<std::streamsize>(out[k].size()));
      if (stopped[k]) return;
    }
  }
  bool stops() const { return std::any_of(stopped.begin(), stopped.begin() + static_cast<std::ptrdiff_t>(parts), [](char s) { return s != 0; }); }
};

/// Worker threads, one per adapter, started on the first batch answered in parallel: start() hands each its slice
/// of the batch and returns, so the calling thread writes the last batch's replies and reads the next batch while
/// the workers answer; wait() returns when every slice is answered. Adapter k is used by one thread at a time.
class Pool {
 public:
  Pool(const std::vector<Adapter*>& impls, const std::string& profile) : impls_(impls), profile_(profile) {}
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      quit_ = true;
    }
    start_.notify_all();
    for (auto& t : threads_) t.join();
  }
  /// Answers a small batch on the calling thread (a peer waiting for each reply gets no thread hand-off).
  void answer_here(Batch& b) {
    b.split(1);
    b.answer_slice(0, *impls_[0], profile_);
  }
  void start(Batch& b) {
    if (threads_.empty())
      for (std::size_t k = 0; k < impls_.size(); ++k) threads_.emplace_back([this, k] { loop(k); });
    b.split(impls_.size());
    {
      std::lock_guard<std::mutex> lock(mu_);
      batch_ = &b;
      pending_ = impls_.size();
      ++generation_;
    }
    start_.notify_all();
  }
  void wait() {
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
      b->answer_slice(k, *impls_[k], profile_);
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
  // Two batches in turn: while the workers answer one, this thread writes the other's replies and reads the next
  // lines into it (only what is already readable: a peer waiting for its replies is never waited on).
  Batch b[2];
  int cur = 0;
  bool unwritten = false;  // b[cur ^ 1] holds replies not yet written
  bool input = b[cur].read(in, true);
  while (input) {
    Batch &now = b[cur], &other = b[cur ^ 1];
    if (interrupt_signal()) {
      if (unwritten) other.write(out);
      break;
    }
    const bool parallel = now.n >= kParallelFrom;
    if (parallel) pool.start(now);
    if (unwritten) other.write(out), out.flush();  // one flush per batch
    unwritten = false;
    other.n = 0;
    if (parallel) {
      other.read(in, false);
      pool.wait();
    } else {
      pool.answer_here(now);
    }
    // The timing mode, asked in a start line one worker answered, holds for every worker from the next batch on.
    if (std::any_of(impls.begin(), impls.end(), [](const Adapter* a) { return a->timing(); }))
      for (Adapter* a : impls) a->ask_timing(true);
    if (now.stops()) {  // the replies before the stop, and none after it
      now.write(out);
      break;
    }
    if (other.n > 0) {  // the next batch is read: its answers start before these replies are written
      unwritten = true;
      cur ^= 1;
      continue;
    }
    now.write(out), out.flush();
    input = now.read(in, true);
  }
  out.flush();
  return 0;
}

int serve(std::istream& in, std::ostream& out, Adapter& impl, const std::string& default_profile) {
  return serve(in, out, std::vector<Adapter*>{&impl}, default_profile);
}

}  // namespace accord::conformance
