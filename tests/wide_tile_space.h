// A wide space of tiles for checking the validity rules against what the kernels need:
// every size parameter over tiny, odd and large values, valid or not, within sane products.
#pragma once

#include <array>
#include <cstdint>

#include "tuner/space/tile.h"

namespace sgemm_tune {

inline constexpr std::array<int, 10> kWideTileValues = {1, 2, 3, 4, 8, 16, 32, 64, 128, 256};

// Calls f(tile) for every BM, BN, BK, WM, WN, WNITER, TM, TN, STAGES over kWideTileValues,
// leaving out the products no search would try (a warp tile larger than its block tile by
// more than a warp's worth, more than 64 warps, a thread tile over four times its warp's
// share), about 26 million tiles. The switches follow from a hash of the sizes, so that each
// combination of them meets every kind of tile without multiplying the count by four.
template <typename F>
void for_each_wide_tile(F &&f) {
  std::uint32_t h = 2166136261u;
  for (int bm : kWideTileValues)
    for (int bn : kWideTileValues)
      for (int wm : kWideTileValues)
        for (int wn : kWideTileValues) {
          const int warps = (bm / wm > 0 ? bm / wm : 1) * (bn / wn > 0 ? bn / wn : 1);
          if (wm * wn > bm * bn || warps > 64) continue;
          for (int wniter : kWideTileValues)
            for (int tm : kWideTileValues)
              for (int tn : kWideTileValues) {
                if (tm * tn * wniter * 32 > wm * wn * 4) continue;
                for (int bk : kWideTileValues)
                  for (int stages : kWideTileValues) {
                    h = (h ^ static_cast<std::uint32_t>(bk * 257 + stages)) * 16777619u;
                    f(SgemmTile{bm, bn, bk, wm, wn, wniter, tm, tn, stages, static_cast<int>(h >> 7 & 1),
                                static_cast<int>(h >> 13 & 1)});
                  }
              }
        }
}

}  // namespace sgemm_tune
