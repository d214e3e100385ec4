// Small Catch2 v2 benchmark suite for perfverdict's samples (Debian's
// catch2 2.13, the single header <catch2/catch.hpp>).
// Build twice: plain for the baseline, with -DSLOWDOWN for the candidate,
// which makes the "sort 4096" benchmark sort 1.2x the elements (about 20%
// more time per call).  Every other benchmark is identical in both builds.
#define CATCH_CONFIG_MAIN
#define CATCH_CONFIG_ENABLE_BENCHMARKING
#include <catch2/catch.hpp>

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

TEST_CASE("containers", "[bench]") {
    std::mt19937 rng(42);
    std::vector<uint32_t> base(static_cast<size_t>(4096 * kSortWork));
    for (auto& x : base) x = rng();

    BENCHMARK("sort 4096") {
        std::vector<uint32_t> v = base;
        std::sort(v.begin(), v.end());
        return v[0];
    };

    std::vector<uint64_t> nums(8192);
    std::iota(nums.begin(), nums.end(), 1);
    BENCHMARK("accumulate 8192") {
        return std::accumulate(nums.begin(), nums.end(), uint64_t{0});
    };
}

TEST_CASE("strings", "[bench]") {
    BENCHMARK("append 256") {
        std::string s;
        for (int i = 0; i < 256; i++) s += static_cast<char>('a' + i % 26);
        return s.size();
    };

    std::vector<char> src(64 << 10, 'x'), dst(64 << 10);
    BENCHMARK("memcpy 64K") {
        std::memcpy(dst.data(), src.data(), src.size());
        return dst[100];
    };
}
