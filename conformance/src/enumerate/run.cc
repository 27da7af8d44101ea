// run.cc: the worker pool behind `accord enumerate`: chunks of cells, one case per worker, a shared
// class dictionary behind a per-worker cache.
#include "enumerate/run.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "accord/reference/resolve.h"
#include "enumerate/outcome_class.h"

namespace accord::enumerate {
namespace {

class ReferenceClassifier : public Classifier {
 public:
  explicit ReferenceClassifier(reference::Profile p) : profile_(p) {}
  void classify(const reference::Case& c, std::string* out) override {
    thread_local reference::Outcome o;  // one per worker, its storage reused cell after cell
    reference::resolve(c, profile_, o);
    outcome_class(o, out);
  }

 private:
  reference::Profile profile_;
};

/// Class strings to dense indices, shared by the workers.
class Dictionary {
 public:
  std::uint32_t id(const std::string& cls) {
    std::lock_guard<std::mutex> lock(mu_);
    auto [it, fresh] = ids_.emplace(cls, static_cast<std::uint32_t>(names_.size()));
    if (fresh) names_.push_back(cls);
    return it->second;
  }
  std::vector<std::string> names() const { return names_; }

 private:
  std::mutex mu_;
  std::unordered_map<std::string, std::uint32_t> ids_;
  std::vector<std::string> names_;
};

struct Shared {
  const Domain& d;
  const std::vector<std::vector<std::uint16_t>>* rows;
  std::uint64_t total;
  std::uint64_t chunk;
  std::atomic<std::uint64_t> next{0}, done{0};
  Dictionary dict;
  std::vector<std::uint32_t>& ids;
};

std::uint32_t digit_of(const Shared& s, std::uint64_t cell, std::size_t axis, std::vector<std::uint32_t>& odo) {
  return s.rows ? (*s.rows)[cell][axis] : odo[axis];
}

void worker(Shared& s, Classifier& cls) {
  reference::Case c;
  std::vector<std::uint32_t> current(s.d.axes.size(), UINT32_MAX), odo;
  std::unordered_map<std::string, std::uint32_t> cache;
  std::string buf;
  for (;;) {
    std::uint64_t begin = s.next.fetch_add(s.chunk);
    if (begin >= s.total) return;
    std::uint64_t end = std::min(s.total, begin + s.chunk);
    if (!s.rows) odo = s.d.decode(begin);
    for (std::uint64_t cell = begin; cell < end; ++cell) {
      for (std::size_t a = 0; a < s.d.axes.size(); ++a) {
        std::uint32_t v = digit_of(s, cell, a, odo);
        if (v != current[a]) apply(s.d.axes[a], v, c), current[a] = v;
      }
      cls.classify(c, &buf);
      auto it = cache.find(buf);
      if (it == cache.end()) it = cache.emplace(buf, s.dict.id(buf)).first;
      s.ids[cell] = it->second;
      for (std::size_t a = odo.size(); a-- > 0;) {  // odometer: last axis fastest
        if (++odo[a] < s.d.axes[a].values.size()) break;
        odo[a] = 0;
      }
    }
    s.done.fetch_add(end - begin);
  }
}

}  // namespace

std::unique_ptr<Classifier> reference_classifier(reference::Profile profile) {
  return std::make_unique<ReferenceClassifier>(profile);
}

RunResult run_cells(const Domain& d, const std::vector<std::vector<std::uint16_t>>* rows, const ClassifierFactory& make,
                    const RunOptions& opt) {
  RunResult r;
  std::uint64_t total = rows ? rows->size() : d.cells();
  r.ids.assign(total, 0);
  Shared s{d, rows, total, std::max<std::uint64_t>(1, opt.chunk), {}, {}, {}, r.ids};
  auto start = std::chrono::steady_clock::now();
  std::vector<std::unique_ptr<Classifier>> classifiers;
  std::vector<std::thread> threads;
  for (int k = 0; k < std::max(1, opt.jobs); ++k) {
    classifiers.push_back(make());
    threads.emplace_back(worker, std::ref(s), std::ref(*classifiers.back()));
  }
  auto last = start;
  while (s.done.load() < total) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    auto now = std::chrono::steady_clock::now();
    if (opt.progress && std::chrono::duration<double>(now - last).count() >= opt.interval_s) {
      opt.progress(s.done.load(), total);
      last = now;
    }
  }
  for (auto& t : threads) t.join();
  if (opt.progress) opt.progress(total, total);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.classes = s.dict.names();
  return r;
}

}  // namespace accord::enumerate
