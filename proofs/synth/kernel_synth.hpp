#pragma once
// Kernel shared-memory layout synthesis (`layoutproof synth --kernel`): given the staged
// tile (MN, K, stages), the element type and the TiledCopies that read or write the smem tensor
// (model/trace/tv.hpp), search the layouts a CuTe kernel can write, rank them on the copies' real
// instructions, and PROVE the winner; or PROVE that no member of the family is conflict-free.
//
// The family, enumerated in this fixed order (c: the contiguous mode, o: the other one, E_c and
// E_o their extents, e: element bytes; mode 0 is MN, mode 1 is K):
//   for major in (K: c = 1, MN: c = 0)
//     for W = E_c, E_c/2, ...  (powers of two dividing E_c with W*e >= 16 bytes; widest first)
//       for r = 1, 2, 4, ... <= E_o  (powers of two dividing E_o)
//         for order in (default, Step<_2,_1,_3>)  (Step only when both modes hold > 1 atom)
//           for Sw in (none; Sw<B,M,S> by B, M, S ascending: 1 <= B <= S, 0 <= M, B+M+S <= log2(r*W))
//             Sw o tile_to_shape(atom, shape[, order]),  atom K: (r,W):(W,1), MN: (W,r):(1,W)
//   then padded, for major in (K, MN), p = 1, 2, 4, ... elements (p*e <= 64 bytes, p < E_c):
//             the atom is the whole stage with a padded stride, K: (E0,E1):(E1+p,1),
//             MN: (E0,E1):(1,E0+p); stages E_o*(E_c+p) apart (CuTe's tile_to_shape of that atom,
//             printed as the explicit staged layout). Injective, not onto: p*E_o offsets a stage
//             are unused.
// The swizzle's bits stay inside the atom, so Sw permutes each atom's offsets: every swizzled
// member is a bijection onto [0, cosize).
//   Example: (128,64,3) half_t, K-major, W = 64, r = 8, Sw<3,3,3> is
//   Sw<3,3,3> o 0 o ((8,16),(64,1),(1,3)):((64,512),(1,0),(0,8192)), CUTLASS's SM80 f16 TN layout.
//
// Per candidate, cheapest test first:
//   duplicate     its offsets equal an earlier member's on the whole tile (the same map, hence
//                 the same traces): counted, not evaluated again
//   vector-legal  per copy, the claim of proofs/claims/trace_claims.hpp on the copy's trace (every active
//                 lane's CPY slice contiguous and width-aligned); a failing member is rejected. A
//                 copy of one element per lane is legal on every layout (offset * e is aligned to
//                 e, its width) and is not checked per member.
//   bank model    per copy, every instruction's wavefronts and ideal (model/bank/bank.hpp, memoized by
//                 proofs/claims/bank_memo.hpp); the copy's ratio is its worst instruction's wavefronts/ideal
// The traces: a copy's instructions and the logical elements of each lane's CPY slice depend only
// on the tile's extents (model/trace/tv.hpp: the TV map and the zipped_divide read no stride), so each
// copy is traced once and re-addressed per member: byte = layout(logical index) * e. A copy whose
// width depends on the layout (AutoVectorizingCopy) is traced again per member. The tests check
// re-addressing against trace_copy on every member of a small case.
//
// Ranking, best first: 1. the worst ratio over the copies; 2. smem bytes (cosize * e); 3. total
// wavefronts of all instructions of all copies; 4. fewer swizzle bits B; 5. not padded; 6. the
// major the copies' vectors run along (the first copy whose CPY slice holds > 1 element: K when
// the slice runs along mode 1, MN along mode 0); 7. the swizzle touching fewer bits (M+B+S, so
// the smallest atom it needs); 8. enumeration order.
//
// The winner is re-traced by trace_copy on the layout its printed C++ evaluates to (the round
// trip through parse_smem_layout), and proved by the project's engines: per copy conflict-free,
// vector-legal and covers (prove_trace), and the layout bijective (injective when padded). A
// verdict that contradicts the search is an ERROR. When no member is conflict-free, that statement
// is PROVED by the exhaustive search itself (every member evaluated or rejected with its reason),
// and the best `witnesses` members are re-traced and their conflict-free claims REFUTED by
// prove_trace, each with its witness lanes.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/trace/tv.hpp"
#include "proofs/claims/prove.hpp"
#include "model/trace/smem_bases.hpp"
#include "proofs/claims/trace_claims.hpp"

namespace layoutproof::proofs {

struct KernelSynthCopy {
  TiledCopy copy;
  CopySide side = CopySide::S;
};

enum class Major { k, mn };
const char* to_string(Major m);  // "K-major", "MN-major"

struct KernelSynthRequest {
  std::vector<i64> shape;            // (MN, K) or (MN, K, stages)
  std::string element;               // half_t, float, tfloat32_t, ... (model/atoms/cute_atoms.hpp type_bits)
  std::vector<KernelSynthCopy> copies;
  std::string name = "A";            // the C++ names SmemLayoutAtom<name>, SmemLayout<name>
  int witnesses = 3;                 // members given REFUTED witnesses when none is conflict-free
  ProveOptions prove;                // for the winner's (or the witnesses') claims
  std::function<void(i64 done, i64 total)> progress;  // every 256 members and at the end
  // The reference search: every instruction of every copy re-addressed on every member and whole
  // offset tables compared (the definition; tests compare the default class search with it,
  // proofs/synth/kernel_synth_search.hpp).
  bool reference_search = false;
  // The MMA reads this operand from shared memory through a GMMA descriptor (an SM90 _SS atom,
  // or the B of an _RS one) with this major: a descriptor read requires one of CUTLASS's GMMA
  // atoms, so the family is kernel_family's GMMA members (gmma_family) instead of smem_family,
  // and the winner's TMA byte swizzle is proved too (tma:Sw<B,4,3>, proofs/claims/tma_claim.hpp).
  std::optional<Major> descriptor;
  std::string descriptor_mma;        // the atom's name, for the report
  // Where the buffer lies (model/trace/smem_bases.hpp): none given = base 0. The search ranks the members
  // at base 0; the winner is the first member, in rank order, conflict-free at base 0 whose copies
  // stay conflict-free and vector-legal at every base of the placement (and whose TMA swizzle holds
  // there, for a descriptor operand); its proofs cover every base. When none survives: no winner
  // (`placement_failures` says why); "none exists" is proved only when base 0 is one of the bases
  // (an `align`, or a `base` that is a multiple of 128, where element-unit layouts' banks repeat).
  SmemPlacement placement;
  // A TMA copy writes (or reads) the tile (is_tma_copy: SM90_TMA_LOAD, make_tma_copy(...), ...): it is
  // no warp-wide lane access, so it is not scored; the family keeps the members TMA can address
  // (tma_writable) and the winner's tma: claim is proved (at the placement). The copy's text.
  std::string tma_copy;
};

// Throws LayoutError when a base of the placement p is not a multiple of one of the copies' access
// widths (0: the copy's width depends on the layout, unchecked):
//   align 8, widths {16}: "align 8 is not a multiple of the copy's 16-byte access width (give align: 16 or more)"
void check_placement_widths(const SmemPlacement& p, const std::vector<int>& widths);
// Each copy's access width, traced on the compact tile of r.shape (what the search traces).
std::vector<int> copy_widths(const KernelSynthRequest& r);
// An SM100 UMMA atom reads the operand (r.descriptor_mma names one).
bool is_umma_operand(const KernelSynthRequest& r);

// A copy expression that is a TMA copy rather than a TiledCopy of lanes: SM90_TMA_LOAD[_MULTICAST],
// SM90_TMA_STORE, SM100_TMA_2SM_LOAD..., make_tma_copy(...), make_tma_atom(...) (namespaces allowed).
bool is_tma_copy(const std::string& expr);

// One member of the family (see above).
struct SmemCandidate {
  Major major = Major::k;
  i64 width = 0;            // W: elements along the contiguous mode (padded: E_c)
  i64 rows = 0;             // r: elements along the other mode (padded: E_o)
  bool step = false;        // tile_to_shape(..., Step<_2,_1,_3>{})
  i64 pad = 0;              // > 0: padded stride W + pad (no swizzle)
  Swizzle sw{0, 0, 0};      // B == 0: none (element units; at base 0 the member's offsets)
  // A GMMA/UMMA member (gmma_family): CUTLASS's own atom as C++, e.g.
  // "GMMA::Layout_K_SW128_Atom<half_t>". Its layout is CUTLASS's smem_ptr form, a swizzle on
  // ABSOLUTE byte addresses (Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)), which is what the
  // MMA's descriptors and TMA address; at base 0 it equals the element form `sw`. Empty: a member
  // written as composition(Swizzle<..>{}, Layout<..>{}) (SM80 style, base-relative).
  std::string cutlass_atom;
  bool padded() const { return pad > 0; }
};

// The tile shape of synth --kernel and of a spec's `layout: synthesize`, read from CuTe notation:
// "(128,64,3)" -> {128, 64, 3}; (MN,K) or (MN,K,STAGES) of integers, else LayoutError naming `what`
// ("--shape", "'shape'"). The extents are checked by smem_family.
std::vector<i64> parse_smem_shape(const std::string& text, const std::string& what);

// The family in enumeration order.
// @pre shape has rank 2 or 3, extents in [1, 2^20], at most 2^22 elements; element_bytes >= 1
//      (LayoutError otherwise).
std::vector<SmemCandidate> smem_family(const std::vector<i64>& shape, int element_bytes);

// The GMMA members: GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T> of `major` for T of
// element_bytes (model/atoms/cutlass_atoms.hpp, in element units: K-major (8,W):(W,1) with its
// element-level swizzle, W*e = 16, 32, 64, 128 bytes), whose atom divides the tile, tiled by
// tile_to_shape in the default order and Step<_2,_1,_3> (when both modes hold > 1 atom), in that
// order: INTER, SW32, SW64, SW128. Each is a member of smem_family too.
//   Example: (64,64,4) half_t, K-major: Sw<0,..> (8,8):(8,1), Sw<1,3,3> o (8,16):(16,1),
//   Sw<2,3,3> o (8,32):(32,1), Sw<3,3,3> o (8,64):(64,1), each in both orders but the last.
// umma (an SM100 UMMA operand): also UMMA::Layout_MN_SW128_32B_Atom<T> for MN-major (16- and 32-bit T).
// element: the C++ element type the members are spelled with (GMMA::Layout_K_SW128_Atom<element>);
// empty: a type of element_bytes (uint8_t, half_t, float, double: CUTLASS's atoms read only its width).
std::vector<SmemCandidate> gmma_family(const std::vector<i64>& shape, int element_bytes, Major major, bool umma = false,
                                       const std::string& element = "");
// The descriptor rule, one place for synth --kernel --mma and a spec's `layout: synthesize`: an SM90
// GMMA atom (`atom`, as model/ names it) reads both operands through smem descriptors (_SS) or B only
// (_RS), with the majors of its <tnspA, tnspB> arguments (K when none: the _TN atoms); an SM100
// UMMA atom likewise (_SS both, _TS B only; its <..., UMMA::Major a, UMMA::Major b, ...>). When it reads
// the operand q.name (A or B) so, sets q.descriptor to that major and q.descriptor_mma to `atom`;
// otherwise leaves q unchanged.
//   SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::MN>, name B -> descriptor MN-major
//   SM90_64x128x16_F32F16F16_RS<...>, name A -> unchanged (A comes from registers)
void set_descriptor_operand(KernelSynthRequest& q, const std::string& atom);
// A member TMA can write with one of its swizzle modes: no padding, and its swizzle on byte
// addresses is none or Sw<B,4,3> (SWIZZLE_32B/64B/128B) with rows of 16 * 2^B bytes along the
// contiguous mode (TMA's box rows). Example: half_t K-major Sw<3,3,3> o (8,64):(64,1) (128-byte rows,
// Sw<3,4,3> in bytes) yes; Sw<2,3,3> o (8,64):(64,1) (128-byte rows, Sw<2,4,3>) no.
bool tma_writable(const SmemCandidate& c, int element_bytes);
// The family a request searches: gmma_family when r.descriptor is set, else smem_family; with a
// TMA copy, only its tma_writable members.
std::vector<SmemCandidate> kernel_family(const KernelSynthRequest& r, int element_bytes);

// The C++ a kernel pastes: `using SmemLayoutAtom<name> = ...;` and `using SmemLayout<name> = ...;`.
//   K-major W = 64, r = 8, Sw<3,3,3>, shape (128,64,3), name A:
//   using SmemLayoutAtomA = decltype(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}));
//   using SmemLayoutA = decltype(tile_to_shape(SmemLayoutAtomA{}, make_shape(Int<128>{},Int<64>{},Int<3>{})));
std::string candidate_cpp(const SmemCandidate& c, const std::vector<i64>& shape, const std::string& name = "A");
// The member's layout: candidate_cpp evaluated by parse_smem_layout (this is its definition).
AnyLayout candidate_layout(const SmemCandidate& c, const std::vector<i64>& shape);
// Short description: "K-major Sw<3,3,3> o (8,64):(64,1)", "MN-major (128,8):(1,129) padded by 1".
std::string candidate_text(const SmemCandidate& c);
// The atoms CUTLASS ships (model/atoms/cutlass_atoms.hpp) that are this member's atom, element for
// element: "GMMA::Layout_K_SW128_Atom<16b>" for K-major Sw<3,3,3> o (8,64):(64,1) of half_t.
std::vector<std::string> cutlass_names(const SmemCandidate& c, int element_bits);

// Per copy, the layout-independent facts.
struct KernelCopyInfo {
  std::string text;                  // the TiledCopy's C++
  CopySide side = CopySide::S;
  SmemOp op = SmemOp::ld;
  int width_bytes = 0;               // 0: decided per member (AutoVectorizingCopy)
  i64 instructions = 0;
  int slice_len = 1;                 // elements per lane per instruction
  Verdict covers;                    // on the logical elements: the same for every member
};

// One copy's score on one member (vector_legal false only from score_directly: the search
// rejects such a member, KernelCandidate::illegal_copy).
struct CopyScore {
  bool vector_legal = true;
  std::string vector_why;            // the refutation when not vector-legal
  int width_bytes = 0;
  i64 worst = -1;                    // the worst instruction (most wavefronts/ideal; ties: first)
  int wavefronts = 0, ideal = 0;     // of the worst instruction
  i64 total_wavefronts = 0, total_ideal = 0;
  i64 conflicted = 0;                // instructions above their ideal
  bool conflict_free() const { return vector_legal && wavefronts <= ideal; }
};

struct KernelCandidate {
  SmemCandidate c;
  i64 index = 0;                     // position in smem_family
  i64 smem_bytes = 0;                // cosize * e
  std::vector<CopyScore> copies;     // per copy; empty when rejected
  i64 illegal_copy = -1;             // rejected: the first copy that is not vector-legal
  std::string illegal_why;           // rejected: its refutation
  int wavefronts = 0, ideal = 1;     // the worst ratio over the copies
  i64 total_wavefronts = 0;
  bool conflict_free() const;
  double ratio() const { return ideal > 0 ? double(wavefronts) / ideal : 0; }
};

// A claim about the winner, or (none found) a REFUTED conflict-free claim of one of the best members.
struct KernelProof {
  std::string claim;                 // "conflict-free", "vector-legal", "covers", "bijective", "injective"
  i64 copy = -1;                     // index into the copies; -1: the layout itself
  i64 member = 0;                    // position in ranked
  Verdict verdict;
  std::optional<TraceWitness> witness;
};

struct KernelSynthResult {
  int element_bytes = 0;
  std::vector<KernelCopyInfo> copies;
  std::optional<Major> preferred;    // the major the copies' vectors run along
  i64 family_size = 0, duplicates = 0;
  std::vector<KernelCandidate> ranked;    // evaluated members, best first
  std::vector<KernelCandidate> rejected;  // not vector-legal, in enumeration order
  bool found = false;                     // ranked.front() is conflict-free on every copy
  int best_wavefronts = 0, best_ideal = 1;  // ranked.front()'s worst ratio (0/0: ranked is empty,
                                            // every member breaks some copy's vectors)
  std::string cpp, notation;              // ranked.front() as C++ and in CuTe notation ("" when none)
  AnyLayout layout;                       // candidate_layout(ranked.front())
  std::vector<std::string> cutlass_atoms; // cutlass_names(ranked.front())
  std::vector<KernelProof> proofs;        // found: the winner's claims; else the witnesses' refutations
  // Members conflict-free at base 0 that the placement refutes, in rank order (their REFUTED claim).
  std::vector<KernelProof> placement_failures;
  std::string placement_text;             // "at every base that is a multiple of 128 (8 bases ...)" or ""
  bool placement_undecided = false;       // no survivor, and the placement's bases exclude base 0
  // --deadline-s passed before the search or the placement check reached every member: nothing is
  // claimed about the members not reached, so neither a winner nor "none exists" (UNKNOWN, exit 3).
  bool deadline_cut = false;
  i64 bank_evaluations = 0;               // distinct instructions run through the bank model
  double search_ms = 0, proof_ms = 0;
  bool all_proved() const;                // found and every proof PROVED
};

// @pre at least one copy; every copy moves elements of the request's type; the tile's modes are
// divisible by each copy's tile (LayoutError otherwise, naming the copy).
KernelSynthResult synthesize_kernel(const KernelSynthRequest& r);

// Scores one layout on the copies by tracing each with trace_copy (no re-addressing, no memo):
// the direct computation the search's scores must equal (tests).
std::vector<CopyScore> score_directly(const KernelSynthRequest& r, const AnyLayout& layout);

// The search as one verdict (a spec smem tensor's `layout: synthesize`, docs/synth_kernel.md):
//   PROVED   a winner with every claim proved; the detail gives its C++ and notation
//   REFUTED  no member is conflict-free (the exhaustive search proves it); the witness is the best
//            member's replayed conflict (or, when every member breaks a copy's vectors, the first
//            rejection), its `why` opening with the best ratio: "no member of the N-member family is
//            conflict-free on every copy; best: 2/1 wavefronts (MN-major Sw<3,2,3> o (32,8):(1,32)) ..."
//   ERROR    a winner whose proof contradicts the search; UNKNOWN  a proof undecided (deadline).
// o replaces q.prove (the run's options); no progress is reported.
Verdict kernel_synth_verdict(const KernelSynthRequest& q, const ProveOptions& o);

// The statements the verdict above and the command's view of the search
// (cli/commands/synth/kernel_synth_view.hpp) share (proofs/synth/kernel_synth_verdict.cpp):
//   kernel_op_text(ldsm4, 16) == "ldsm4", kernel_op_text(ld, 4) == "ld.32", kernel_op_text(ld, 0) == "ld.auto"
//   kernel_ratio_text(2, 1) == "2/1" (wavefronts/ideal)
//   kernel_descriptor_kind(q) == "UMMA" for an SM100 operand (is_umma_operand), else "GMMA"
//   kernel_none_statement(r): why no member wins (@pre !r.found): the deadline, no vector-legal member,
//     the placement, or the best worst-copy ratio
//   kernel_proof_subject(q, r, p) == "the layout" (p.copy < 0) or "copy 1 (S, ldsm4)"
std::string kernel_op_text(SmemOp op, int width);
std::string kernel_ratio_text(int wavefronts, int ideal);
std::string kernel_descriptor_kind(const KernelSynthRequest& q);
std::string kernel_none_statement(const KernelSynthResult& r);
std::string kernel_proof_subject(const KernelSynthRequest& q, const KernelSynthResult& r, const KernelProof& p);

}  // namespace layoutproof::proofs
