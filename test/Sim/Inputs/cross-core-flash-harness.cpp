// Runs the core group pto-a2a3-pipeline makes of test/Run/mixed-kernels.mlir's
// @flash (flash attention: head_dim 128, 64 query rows, 4 key blocks of 64,
// an online softmax) on pto-isa's CPU backend or the model: the cube (flash_aic) and
// vector core 0 (flash_aiv; its pipes are split `none`), each on a thread
// of its own (pto::sim::launch_group), sharing the pipe's slot buffer in
// global memory. The result is compared with the same algorithm computed
// here in double (p rounded to half before p v, as the kernel does).
#include "pto/sim/groups.hpp"
#include "kernels.cpp"

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  constexpr int Q = 64, D = 128, L = 256, B = 64;
  const double scale = 0.08838834764831845;
  std::vector<half> q(Q * D), k(L * D), v(L * D);
  std::vector<float> out(Q * D, -1.0f);
  std::vector<int8_t> slots(65536, 0);
  unsigned state = 11;
  auto draw = [&state] {
    state = state * 1103515245u + 12345u;
    return half(float(int((state >> 16) % 2001) - 1000) / 1000.0f);
  };
  for (auto *t : {&q, &k, &v})
    for (auto &x : *t) x = draw();
  pto::sim::launch_group<1, 5>("flash", flash_aic, flash_aiv, q.data(), k.data(), v.data(), out.data(), slots.data(),
                                q.data(), k.data(), v.data(), out.data(), slots.data());
  double worst = 0;
  int mismatches = 0;
  for (int i = 0; i < Q; ++i) {
    double m = -INFINITY, l = 0;
    std::vector<double> o(D, 0.0);
    for (int j0 = 0; j0 < L; j0 += B) {
      std::vector<double> s(B);
      double block_max = -INFINITY;
      for (int j = 0; j < B; ++j) {
        double dot = 0;
        for (int d = 0; d < D; ++d) dot += double(float(q[i * D + d])) * double(float(k[(j0 + j) * D + d]));
        s[j] = float(float(dot) * float(scale));
        block_max = std::fmax(block_max, s[j]);
      }
      double m_new = std::fmax(m, block_max), alpha = std::exp(m - m_new), sum = 0;
      for (int d = 0; d < D; ++d) o[d] *= alpha;
      for (int j = 0; j < B; ++j) {
        double p = std::exp(s[j] - m_new);
        sum += p;
        double ph = float(half(float(p)));
        for (int d = 0; d < D; ++d) o[d] += ph * double(float(v[(j0 + j) * D + d]));
      }
      l = l * alpha + sum;
      m = m_new;
    }
    for (int d = 0; d < D; ++d) {
      double want = o[d] / l, error = std::fabs(out[i * D + d] - want);
      worst = std::fmax(worst, error);
      if (error > 2e-3 + 2e-3 * std::fabs(want)) ++mismatches;
    }
  }
  std::printf("flash: %d of %d elements mismatch, max abs error %.2e\n", mismatches, Q * D, worst);
  return mismatches == 0 ? 0 : 1;
}
