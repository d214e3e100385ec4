// Small Google Benchmark suite for perfverdict's samples.
// Build twice: plain for the baseline, with -DSLOWDOWN for the candidate,
// which makes BM_Sort do 20% more work (it sorts 1.2x the elements and
// reports the time per call, so its time per iteration rises ~20-23%).
// Every other benchmark is identical in both builds.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#ifdef SLOWDOWN
static const double kSortWork = 1.2;
#else
static const double kSortWork = 1.0;
#endif

static void BM_Memcpy(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  std::vector<char> src(n, 'x'), dst(n);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), n);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(n));
}
BENCHMARK(BM_Memcpy)->Arg(64 << 10);

static void BM_Sort(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0) * kSortWork);
  std::mt19937 rng(42);
  std::vector<uint32_t> base(n);
  for (auto& x : base) x = rng();
  std::vector<uint32_t> v;
  for (auto _ : state) {
    v = base;
    std::sort(v.begin(), v.end());
    benchmark::DoNotOptimize(v.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          state.range(0));
}
BENCHMARK(BM_Sort)->Arg(4096);

static void BM_StringAppend(benchmark::State& state) {
  for (auto _ : state) {
    std::string s;
    for (int i = 0; i < 256; i++) s += static_cast<char>('a' + i % 26);
    benchmark::DoNotOptimize(s.data());
  }
  state.counters["bytes_built"] = 256;
}
BENCHMARK(BM_StringAppend);

static void BM_Accumulate(benchmark::State& state) {
  std::vector<double> v(static_cast<size_t>(state.range(0)), 1.5);
  for (auto _ : state) {
    double sum = std::accumulate(v.begin(), v.end(), 0.0);
    benchmark::DoNotOptimize(sum);
  }
}
BENCHMARK(BM_Accumulate)->Arg(8192)->Threads(1)->Threads(2);

BENCHMARK_MAIN();
