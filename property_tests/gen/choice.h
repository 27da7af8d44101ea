// choice.h: a weighted choice between generators that shrinks towards the first (simplest) alternative.
#pragma once

#include <rapidcheck.h>

#include <cstddef>
#include <utility>
#include <vector>

namespace accord::prop {

/// One alternative of weighted_choice(): its weight and its generator.
template <typename T>
using Alternative = std::pair<std::size_t, rc::Gen<T>>;

/// Picks an alternative with probability proportional to its weight, then generates from it. Unlike
/// rc::gen::weightedOneOf, the choice itself shrinks: towards alternative 0 (list the simplest first,
/// e.g. "flag not given"), then the chosen value shrinks as its generator says.
template <typename T>
rc::Gen<T> weighted_choice(std::vector<Alternative<T>> alts) {
  std::size_t total = 0;
  for (const auto& a : alts) total += a.first;
  return rc::Gen<T>([alts, total](const rc::Random& random, int size) {
    rc::Random r(random);
    std::size_t roll = total ? static_cast<std::size_t>(r.split().next() % total) : 0;
    std::size_t pick = 0;
    while (pick + 1 < alts.size() && roll >= alts[pick].first) roll -= alts[pick++].first;
    auto index = rc::shrinkable::shrinkRecur(pick, [](std::size_t x) { return rc::shrink::towards<std::size_t>(x, 0); });
    return rc::shrinkable::mapcat(index, [alts, r, size](std::size_t k) { return alts[k].second(r, size); });
  });
}

/// Picks one of `values` uniformly whatever the size; shrinks towards values.front().
template <typename T>
rc::Gen<T> shrinking_element_of(std::vector<T> values) {
  return rc::Gen<T>([values](const rc::Random& random, int) {
    std::size_t pick = static_cast<std::size_t>(rc::Random(random).next() % values.size());
    auto index = rc::shrinkable::shrinkRecur(pick, [](std::size_t x) { return rc::shrink::towards<std::size_t>(x, 0); });
    return rc::shrinkable::map(index, [values](std::size_t k) { return values[k]; });
  });
}

}  // namespace accord::prop
