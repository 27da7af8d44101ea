// serve_bench.cc: throughput of `accord serve` (the protocol loop over the in-process reference),
// fed every case of the corpus as resolve requests; reports cases per second.
#include <benchmark/benchmark.h>

#include <sstream>

#include "accord/conformance/loader.h"
#include "accord/conformance/protocol.h"

namespace {
namespace cf = accord::conformance;

/// An output that only counts bytes, like stdout to /dev/null (an ostringstream would measure its
/// own reallocations).
class CountingBuf : public std::streambuf {
 public:
  std::size_t bytes = 0;

 protected:
  int_type overflow(int_type c) override {
    ++bytes;
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char*, std::streamsize n) override {
    bytes += static_cast<std::size_t>(n);
    return n;
  }
};

std::string requests(std::size_t* n) {
  cf::Corpus c = cf::load_corpus(ACCORD_FIXTURES_DIR);
  std::string in = cf::start_request() + "\n";
  for (const auto& f : c.fixtures)
    for (const char* p : {"spec", "lightning-1.6"}) in += cf::resolve_request(f.id, p, f.given) + "\n", ++*n;
  return in;
}

void BM_Serve(benchmark::State& state) {
  std::size_t n = 0;
  const std::string in = requests(&n);
  auto impl = cf::make_reference_adapter();
  std::string err;
  impl->start(&err);
  for (auto _ : state) {
    std::istringstream is(in);
    CountingBuf sink;
    std::ostream os(&sink);
    cf::serve(is, os, *impl, "spec");
    benchmark::DoNotOptimize(sink.bytes);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
  state.counters["cases"] = static_cast<double>(n);
}
BENCHMARK(BM_Serve)->Unit(benchmark::kMillisecond);

void BM_ResolveTree(benchmark::State& state) {
  cf::Corpus c = cf::load_corpus(ACCORD_FIXTURES_DIR);
  auto impl = cf::make_reference_adapter();
  for (auto _ : state)
    for (const auto& f : c.fixtures) benchmark::DoNotOptimize(impl->resolve(f.id, "spec", f.given).outcome.dump().size());
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * c.fixtures.size()));
}
BENCHMARK(BM_ResolveTree)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
