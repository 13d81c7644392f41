// Fuzz target: the CuTe-notation parser (model/layout/notation.hpp), every entry point on the same text.
// Invariant: whatever parses prints (to_cute_string, CuTe's exact text) to a text that parses back
// (Reading::exact) to a value that prints the same, and the canonical to_string round-trips too.
#include "fuzz/fuzz_common.hpp"
#include "model/layout/notation.hpp"

using namespace layoutproof;
using layoutproof::fuzz::accepted;

namespace {

template <class Parse>
void round_trip(const char* what, const std::string& printed, Parse&& parse) {
  std::string again;
  const bool ok = accepted([&] { again = parse(printed); });
  FUZZ_REQUIRE(ok, what, printed, "(refused)");
  FUZZ_REQUIRE(again == printed, what, printed, again);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  const std::string text = fuzz::text_of(data, size);
  for (const Reading r : {Reading::automatic, Reading::exact}) {
    AnyLayout l;
    if (accepted([&] { l = parse_any_layout(text, r, true); })) {
      round_trip("layout: to_cute_string -> parse exact", to_cute_string(l),
                 [](const std::string& s) { return to_cute_string(parse_any_layout(s, Reading::exact, true)); });
      round_trip("layout: to_string -> parse", to_string(l), [](const std::string& s) { return to_string(parse_any_layout(s, Reading::automatic, true)); });
    }
    Tiler t;
    if (accepted([&] { t = parse_tiler(text, r); }))
      round_trip("tiler: to_cute_string -> parse exact", to_cute_string(t),
                 [](const std::string& s) { return to_cute_string(parse_tiler(s, Reading::exact)); });
    IntTuple it;
    if (accepted([&] { it = parse_int_tuple(text, r); }))
      round_trip("int tuple: to_cute_string -> parse exact", to_cute_string(it),
                 [](const std::string& s) { return to_cute_string(parse_int_tuple(s, Reading::exact)); });
  }
  Swizzle sw;
  if (accepted([&] { sw = parse_swizzle(text); }))
    round_trip("swizzle: to_string -> parse", to_string(sw), [](const std::string& s) { return to_string(parse_swizzle(s)); });
  return 0;
}
