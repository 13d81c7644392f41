#include "cli/layout_input.hpp"

#include <cctype>

#include "model/support/error.hpp"

namespace layoutproof::cli {
namespace {

bool valid_name(const std::string& n) {
  if (n.empty()) return false;
  for (std::size_t i = 0; i < n.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(n[i]);
    if (n.compare(i, 2, "::") == 0) {
      ++i;
      continue;
    }
    if (!std::isalnum(c) && c != '_') return false;
  }
  return !std::isdigit(static_cast<unsigned char>(n[0]));
}

}  // namespace

bool take_define(const std::vector<std::string>& args, std::size_t& i, CppConstants& constants) {
  const std::string& a = args[i];
  std::string def;
  std::size_t used = 0;
  if (a == "-D" || a == "--define") {
    if (i + 1 >= args.size()) throw LayoutError(a + " needs NAME=EXPR (e.g. -D 'bM=Int<128>{}')");
    def = args[i + 1];
    used = 2;
  } else if (a.rfind("-D", 0) == 0 && a.size() > 2) {
    def = a.substr(2);
    used = 1;
  } else if (a.rfind("--define=", 0) == 0) {
    def = a.substr(9);
    used = 1;
  } else {
    return false;
  }
  const std::size_t eq = def.find('=');
  const std::string name = def.substr(0, eq);
  if (eq == std::string::npos || !valid_name(name) || eq + 1 == def.size())
    throw LayoutError("-D needs NAME=EXPR with a C++ name and an expression (e.g. -D 'bM=Int<128>{}'), not '" + def + "'");
  // A repeated -D is refused, as a spec refuses a repeated constant: the last value must not win
  // silently over the first (which one the user meant is theirs to say).
  if (const auto it = constants.find(name); it != constants.end())
    throw LayoutError("-D " + name + " is given twice ('" + it->second + "' and '" + def.substr(eq + 1) + "'): give it once");
  constants[name] = def.substr(eq + 1);
  i += used - 1;
  return true;
}

std::string cpp_input_help(const std::string& command, const std::string& example, const std::string& rest) {
  const std::string ex = !example.empty() ? example
                                          : "'using Atom = decltype(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}));\n"
                                            "      tile_to_shape(Atom{}, make_shape(bM, bK))' -D 'bM=Int<128>{}' -D 'bK=Int<64>{}'";
  return "\nLayouts may be CuTe notation ((8,64):(64,1), Sw<3,3,3> o (8,64):(64,1)) or the C++ a kernel writes,\n"
         "pasted as is: using/auto declarations, decltype, tile_to_shape, make_ordered_layout, GMMA/UMMA atoms,\n"
         "ComposedLayout<Swizzle<..>, smem_ptr_flag_bits<B>, ..>, upcast/recast_layout, CUTLASS's smem selectors.\n"
         "Give the constants it uses with -D NAME=EXPR (repeatable; NAME may be qualified: -D DispatchPolicy::Stages=4).\n"
         "Example (C++):\n  " + command + " " + ex + (rest.empty() ? "" : " " + rest) + "\n";
}

}  // namespace layoutproof::cli
