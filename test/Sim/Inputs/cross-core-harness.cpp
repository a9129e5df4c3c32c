// Runs the core groups pto-a2a3-pipeline makes of cross-core.mlir's @mm_exp
// and @exp_mm on pto-isa's CPU backend or the model, each core on a thread
// of its own (pto::sim::launch_group): the cube (<k>_aic) and vector core 0
// (<k>_aiv; every pipe is split `none`, which runs on vector core 0 alone).
// The two share the pipe's slot buffer in global memory. Each result is
// compared with the kernel's arithmetic done here in double.
#include "pto/sim/groups.hpp"
#include "kernels.cpp"

#include <cmath>
#include <cstdio>
#include <vector>

constexpr int M = 16, K = 32, N = 32;

/// Launches group `name` on a, b, c and compares its result with
/// `want(i, j)`; returns the mismatch count.
template <typename Aic, typename Aiv, typename Want>
int check(const char *name, Aic aic, Aiv aiv, std::vector<half> &a, std::vector<half> &b, std::vector<float> &c,
          Want want) {
  std::vector<float> out(M * N, -1.0f);
  std::vector<int8_t> slots(4096, 0);
  pto::sim::launch_group<1, 5>(name, aic, aiv, a.data(), b.data(), c.data(), out.data(), slots.data(), a.data(),
                               b.data(), c.data(), out.data(), slots.data());
  double worst = 0;
  int mismatches = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double expected = want(i, j), error = std::fabs(out[i * N + j] - expected);
      worst = std::fmax(worst, error);
      if (error > 1e-4 + 1e-3 * std::fabs(expected)) ++mismatches;
    }
  std::printf("%s: %d of %d elements mismatch, max abs error %.2e\n", name, mismatches, M * N, worst);
  return mismatches;
}

int main() {
  std::vector<half> a(M * K), b(K * N);
  std::vector<float> c(M * N);
  for (int i = 0; i < M * K; ++i) a[i] = half(float((i * 7) % 13 - 6) / 16.0f);
  for (int i = 0; i < K * N; ++i) b[i] = half(float((i * 5) % 11 - 5) / 16.0f);
  for (int i = 0; i < M * N; ++i) c[i] = float(i % 9) / 8.0f;
  auto product = [&](int i, int j, bool exp_a) {
    double sum = 0;
    for (int k = 0; k < K; ++k) {
      double x = float(a[i * K + k]);
      if (exp_a) x = float(half(float(std::exp(x))));
      sum += x * double(float(b[k * N + j]));
    }
    return sum;
  };
  int mismatches = check("mm_exp", mm_exp_aic, mm_exp_aiv, a, b, c,
                         [&](int i, int j) { return std::exp(product(i, j, false)) + c[i * N + j]; });
  mismatches += check("exp_mm", exp_mm_aic, exp_mm_aiv, a, b, c,
                      [&](int i, int j) { return product(i, j, true) + c[i * N + j]; });
  return mismatches == 0 ? 0 : 1;
}
