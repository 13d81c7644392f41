#pragma once
// Spec files: the layouts of a kernel with the claims each must satisfy, for `layoutproof check`.
//
//   # YAML
//   layouts:
//     - name: sA                                   # names the subject in every output
//       layout: Sw<3,3,3> o (8,64):(64,1)          # CuTe notation, or C++ source:
//                                                  #   composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})
//       element: f16                               # f16 bf16 f32 tf32 f64 i8 u8 e4m3 e5m2 i32 u32 ...; or bits: 16
//       claims: [bijective, contiguous:8]          # layout claims (proofs/claims/claim.hpp) and tma:Sw<B,M,S>
//       accesses:                                  # bank claims over every instruction of an access
//         - pattern: row-per-lane                  # row-per-lane | linear | ldmatrix | thread-layout
//           op: ld                                 # ld st ldsm1 ldsm2 ldsm4 stsm1 stsm2 stsm4 (default ld)
//           vec: 8                                 # elements per lane (default: 16 bytes; 16 B rows for ldsm/stsm)
//           claims: [conflict-free]                # conflict-free | max-ways:K
//           base: 0                                # optional: the buffer's byte address
//           byte_swizzle: Sw<3,4,3>                # optional: a swizzle on absolute byte addresses
//           thread_layout: 32:8                    # pattern thread-layout: lane -> first element index
//
// C++ layouts may name constants: a `constants:` map at the top (NAME: C++ expression), to which
// the command line's -D NAME=EXPR adds (and wins over it); layouts: and kernels: both see them.
//
// Every check remembers the file, line and column of its claim (SARIF and JUnit point there).
//
// The schema is strict (cli/spec/spec_schema.hpp, published as docs/spec.schema.json):
//   version: 1                 optional; the only version so far (another number is an error)
//   layouts:/kernels: entries  an unknown or misspelled key is an error naming the closest key;
//   source: FILE:LINE          optional on a layout or kernel entry: the kernel source the layout
//                              lives in (SARIF then points there, the spec's line as related)
//   conflicts and ranges       'element' and 'bits' together, 'thread_layout' without
//                              `pattern: thread-layout` (or the pattern without it), bits not a
//                              power of two in 1..128, accesses of elements that are not 1, 2, 4,
//                              8 or 16 bytes, vec < 1 or an access width that is not 1, 2, 4, 8
//                              or 16 bytes, a base that is negative, >= 2^32 or not a multiple of
//                              the access width, duplicate names or claims: all errors (exit 2)
//                              before any claim is proved.
// Two accesses of one layout that print alike get their index (" #2") in the access text, so
// every check's id() is unique and stable across runs.
#include <string>
#include <vector>

#include "model/source/cpp_source.hpp"
#include "model/layout/notation.hpp"
#include "proofs/check/check.hpp"

namespace layoutproof::cli {

// A spec error located in the spec file: what() is "FILE:LINE:COLUMN: MESSAGE", caret() (from
// ParseError, which main prints) shows the file's line with a caret under the column.
// line and column are 1-based (errors about the file as a whole are LayoutErrors "FILE: ...").
class SpecError : public ParseError {
 public:
  SpecError(std::string file, int line, int column, std::string message, std::string source_line);
  const char* what() const noexcept override { return text_.c_str(); }
  std::string file;
  int line = 0, column = 0;
  std::string message;

 private:
  std::string text_;
};

// Throws SpecError (with file:line:column) on a malformed spec.
// `overrides` (-D NAME=EXPR) are added to the spec's constants: and win over them.
// A spec (or one of its layout entries) that proves nothing is an error unless allow_empty.
// Settings a spec gives for its whole run (the command line's flags win over them).
struct SpecSettings {
  std::optional<double> deadline_s;  // deadline_s: S (0 < S <= 10^6), as --deadline-s S
};
std::vector<proofs::Check> load_spec(const std::string& path, const CppConstants& overrides = {}, bool allow_empty = false,
                                     SpecSettings* settings = nullptr);
std::vector<proofs::Check> parse_spec(const std::string& text, const std::string& path, const CppConstants& overrides = {},
                                      bool allow_empty = false, SpecSettings* settings = nullptr);

// How many compiled files the checks read and lowered: the distinct programs their compiled
// checks hold (load_spec reads a file once however many entries name it; again only if it
// changed while the spec was read).
int compiled_files_read(const std::vector<proofs::Check>& checks);

// Element type name -> bits: f16 -> 16, e4m3 -> 8, i4 -> 4, ... Throws LayoutError.
int element_bits(const std::string& name);

// The spec format versions this build reads.
inline constexpr int kSpecVersion = 1;

}  // namespace layoutproof::cli
