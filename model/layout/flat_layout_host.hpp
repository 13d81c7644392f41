#pragma once
// Host-side conversion of model layouts into device-evaluable FlatLayouts.
#include "model/layout/composed.hpp"
#include "model/layout/flat_layout.hpp"

namespace layoutproof {

// @pre the layout has at most FlatLayout::kMaxModes leaves (else LayoutError).
// @post to_flat(l)(i) == evaluate(l, i) for every index i.
FlatLayout to_flat(const AnyLayout& l);

}  // namespace layoutproof
