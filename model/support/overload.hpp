#pragma once
// Overload{f, g, ...}: one callable of several lambdas, for std::visit over a variant, each
// alternative its own case.
// Example: std::visit(Overload{[](int) { return 1; }, [](const std::string&) { return 2; }}, v).
namespace layoutproof {

template <class... F>
struct Overload : F... {
  using F::operator()...;
};
template <class... F>
Overload(F...) -> Overload<F...>;

}  // namespace layoutproof
