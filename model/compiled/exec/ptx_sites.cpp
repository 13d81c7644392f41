// Which instructions touch shared memory (ptx_machine.hpp): the sites the executor counts, and the
// ones it lists as not counted, with why. Every instruction that can touch shared memory is one
// or the other: a claim over a kernel with a listed one is UNKNOWN for it, never PROVED by
// omission (ptx_exec.hpp NotCounted).
#include <algorithm>
#include <string_view>
#include <vector>

#include "model/compiled/exec/ptx_machine.hpp"

namespace layoutproof::compiled {
namespace {

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// The dot-separated parts of a mnemonic ("st.async.shared::cluster.u32" -> st, async, ...).
std::vector<std::string_view> parts_of(std::string_view m) {
  std::vector<std::string_view> out;
  std::size_t b = 0;
  for (std::size_t i = 0; i <= m.size(); ++i)
    if (i == m.size() || m[i] == '.') out.push_back(m.substr(b, i - b)), b = i + 1;
  return out;
}

bool has_part(const std::vector<std::string_view>& parts, std::string_view p) {
  for (const std::string_view x : parts)
    if (x == p) return true;
  return false;
}

bool names_shared_space(const std::vector<std::string_view>& parts) {
  return has_part(parts, "shared") || has_part(parts, "shared::cta") || has_part(parts, "shared::cluster");
}

// SASS's warpgroup MMAs (wgmma): fp16/bf16/tf32, fp8, integer and binary.
bool warpgroup_mma(std::string_view base) { return base == "HGMMA" || base == "QGMMA" || base == "IGMMA" || base == "BGMMA"; }

// A SASS opcode the lowering marked as shared (sass_lower.cpp shared_opcode) and did not count.
std::string sass_why(std::string_view mn) {
  const std::string_view base = mn.substr(0, mn.find('.'));
  if (base == "LDSM" || base == "STSM") return "a matrix form outside the model (counted: .16.M88/.16.MT88 with no count, .2 or .4)";
  if (base == "LDS" || base == "STS" || base == "LDGSTS" || base == "ATOMS") return "a form outside the model";
  if (starts(base, "UTMA") || starts(base, "UBLK")) return "a TMA / bulk copy (one thread moves a whole tile: not lane-addressed)";
  if (warpgroup_mma(base)) return "wgmma reads its matrices from shared memory through descriptors (not lane-addressed)";
  if (base == "SYNCS" || base == "ARRIVES") return "an mbarrier operation (its barrier object is in shared memory)";
  if (base == "STAS" || base == "REDAS") return "an asynchronous store to distributed shared memory (not modelled)";
  if (base == "LD" || base == "ST" || base == "ATOM" || base == "RED")
    return "a generic access (whether its address is in the shared window is not modelled for SASS)";
  return "a shared-memory opcode outside the model";
}

}  // namespace

bool is_site(const Instr& in) {
  const Opcode& c = in.code;
  switch (c.op) {
    case Op::ld: case Op::st: case Op::atom: case Op::red: return c.space == Space::shared || is_generic_access(in);
    case Op::ldmatrix: case Op::stmatrix:
      return c.m8n8 && c.type.bits == 16 && c.matrices > 0 && c.space == Space::shared;
    case Op::cp_async: return true;
    default: return false;
  }
}

bool is_generic_access(const Instr& in) {
  const Op o = in.code.op;
  return (o == Op::ld || o == Op::st || o == Op::atom || o == Op::red) &&
         (in.code.space == Space::none || in.code.space == Space::generic);
}

std::string not_counted_why(const Instr& in, const std::string& mnemonic) {
  if (is_site(in)) return "";
  const Opcode& c = in.code;
  const std::vector<std::string_view> parts = parts_of(mnemonic);
  const std::string_view base = parts[0];
  switch (c.op) {
    case Op::ld: case Op::st: case Op::atom: case Op::red:
      if (c.space != Space::shared_cluster) return "";
      return has_part(parts, "async") ? "an asynchronous access to distributed shared memory (st.async / red.async: not modelled)"
                                      : "a shared::cluster access (distributed shared memory: not modelled)";
    case Op::ldmatrix: case Op::stmatrix:
      return c.space == Space::shared_cluster ? "a shared::cluster matrix access (not modelled)"
                                              : "a matrix shape or type outside the model (counted: .m8n8 .b16, .x1/.x2/.x4)";
    case Op::nop:  // fences and barriers touch no data; cp.async.mbarrier.arrive arrives on a shared object
      return starts(mnemonic, "cp.async.mbarrier.") ? "an mbarrier operation (its barrier object is in shared memory)" : "";
    case Op::mbarrier_wait: return "an mbarrier operation (its barrier object is in shared memory)";
    case Op::unknown: break;
    default: return "";
  }
  if (in.sass_offset >= 0) return c.space == Space::shared ? sass_why(mnemonic) : "";
  if (base == "mbarrier") return "an mbarrier operation (its barrier object is in shared memory)";
  if (base == "wgmma")
    return has_part(parts, "mma_async") ? "wgmma reads its matrices from shared memory through descriptors (not lane-addressed)" : "";
  if (base == "tcgen05")
    return has_part(parts, "mma") || has_part(parts, "cp") ? "tcgen05 reads shared memory through descriptors (not lane-addressed)" : "";
  if (base == "isspacep" || base == "mapa" || base == "getctarank") return "";  // address arithmetic: no access
  if (!names_shared_space(parts)) return "";
  if (base == "cp" && c.bulk) return "a bulk copy (cp.async.bulk, cp.reduce.async.bulk, TMA: one thread moves a whole tile, not lane-addressed)";
  return "a shared-memory instruction outside the model";
}

bool may_touch_shared(const Instr& in, const std::string& mnemonic) {
  return is_site(in) || is_generic_access(in) || in.code.op == Op::call || !not_counted_why(in, mnemonic).empty();
}

const Operand* address_operand(const Function& f, const Instr& in) {
  for (u32 k = 0; k < in.count; ++k)
    if (arg(f, in, k).kind == Operand::Kind::addr) return &arg(f, in, k);
  return nullptr;
}

void NotCountedList::note(const std::vector<Lane>& lanes, const std::vector<int>& group, const std::array<bool, kWarpLanes>& active,
                          const std::array<u32, kWarpLanes>& guard_unknown, const Function& f, u32 fi, u32 pc, const Instr& in) {
  const Opcode& c = in.code;
  if (is_generic_access(in)) {  // decided by its address, each time it runs until it is listed
    if (!listed_.count(&in)) note_generic(lanes, group, active, guard_unknown, f, fi, pc, in);
    return;
  }
  const bool memory = c.op == Op::ld || c.op == Op::st || c.op == Op::atom || c.op == Op::red;
  if (memory && c.space != Space::shared_cluster) return;  // param, global, local, const: no shared byte
  const bool ptx = in.sass_offset < 0;
  if (!ptx || c.op == Op::unknown || c.op == Op::nop || c.op == Op::mbarrier_wait) {
    auto [it, fresh] = async_mnemonic_.try_emplace(&in);
    if (fresh) {
      std::string mn = m_.mnemonic(in);
      if (ptx ? starts(mn, "cp.async.bulk.tensor") || starts(mn, "wgmma.mma_async") || starts(mn, "mbarrier.arrive.expect_tx") ||
                    starts(mn, "mbarrier.expect_tx") || c.op == Op::mbarrier_wait
              : warpgroup_mma(mn.substr(0, mn.find('.'))))
        it->second = std::move(mn);
    }
    if (!it->second.empty()) {
      if (ptx) record_async(lanes, group, active, f, fi, pc, in, it->second);
      else record_sass_gmma(lanes, group, active, fi, pc, in, it->second);
    }
  }
  if (!memory && c.op != Op::unknown && c.op != Op::nop && c.op != Op::ldmatrix && c.op != Op::stmatrix && c.op != Op::mbarrier_wait)
    return;
  if (!classified_.insert(&in).second) return;
  const std::string mn = m_.mnemonic(in);
  if (const std::string why = not_counted_why(in, mn); !why.empty()) add(fi, pc, in, why);
  if (c.op == Op::unknown && std::find(m_.not_modelled.begin(), m_.not_modelled.end(), mn) == m_.not_modelled.end())
    m_.not_modelled.push_back(mn);
}

void NotCountedList::note_generic(const std::vector<Lane>& lanes, const std::vector<int>& group,
                                  const std::array<bool, kWarpLanes>& active, const std::array<u32, kWarpLanes>& guard_unknown,
                                  const Function& f, u32 fi, u32 pc, const Instr& in) {
  const Operand* a = address_operand(f, in);
  if (!a) return;
  const Operand& base = f.operands[a->index];
  if (base.kind == Operand::Kind::none || base.kind == Operand::Kind::var) return;  // an absolute address; a .global/.const variable's
  std::string why;
  for (const int k : group) {
    const std::size_t s = static_cast<std::size_t>(k);
    if (!active[s] && !guard_unknown[s]) continue;
    const Val v = read_operand(m_, lanes[s], f, base, in);
    if (!v.window && v.placement >= 0) {  // the window's lanes are counted (the site's); this one is not in it
      why = "a generic access through a shared-space address that was not converted with cvta.shared (on the hardware it "
            "is not in the shared window)";
      break;
    }
    if (!v.known() && !v.sym && why.empty()) why = "a generic access whose address is not known (" + m_.reasons[v.why] + ")";
  }
  if (!why.empty()) add(fi, pc, in, why, why.rfind("a generic access whose address is not known", 0) == 0);
}

// An async operation of lane ln at instruction pc: where, which warp, and its warp's execution count.
AsyncOp NotCountedList::started(const Lane& ln, u32 fi, u32 pc, const Instr& in, const std::string& mnemonic) {
  AsyncOp op;
  op.function = fi, op.pc = pc, op.line = in.line, op.warp = ln.linear / kWarpLanes, op.lane = ln.lane, op.mnemonic = mnemonic;
  op.execution = async_executions_[(static_cast<u64>(fi) << 40) ^ (static_cast<u64>(pc) << 20) ^ static_cast<u64>(op.warp)]++;
  return op;
}

// A copy's shared address and tensor map, a WGMMA's descriptors, as the run computed them; the
// claims that read them are UNKNOWN where a value is not known, saying why.
void NotCountedList::record_async(const std::vector<Lane>& lanes, const std::vector<int>& group, const std::array<bool, kWarpLanes>& active,
                                  const Function& f, u32 fi, u32 pc, const Instr& in, const std::string& mnemonic) {
  const bool copy = starts(mnemonic, "cp.async.bulk.tensor");
  const bool expect = starts(mnemonic, "mbarrier.arrive.expect_tx") || starts(mnemonic, "mbarrier.expect_tx");
  const auto value = [&](const Lane& ln, const Operand& o) -> std::pair<std::optional<u64>, std::string> {
    const Operand& x = o.kind == Operand::Kind::addr ? f.operands[o.index] : o;
    Val v = read_operand(m_, ln, f, x, in);
    if (o.kind == Operand::Kind::addr && v.known()) v.v += static_cast<u64>(o.imm);
    if (v.known()) return {v.v, ""};
    return {std::nullopt, v.sym ? "it depends on a free parameter (" + m_.reasons[v.why] + ")" : m_.reasons[v.why]};
  };
  for (const int k : group) {
    if (!active[static_cast<std::size_t>(k)]) continue;
    const Lane& ln = lanes[static_cast<std::size_t>(k)];
    AsyncOp op = started(ln, fi, pc, in, mnemonic);
    if (in.code.op == Op::mbarrier_wait) {  // waitComplete, [mbar], state | phaseParity (.parity)
      op.kind = AsyncOp::Kind::wait;
      if (in.count >= 3) {
        op.barrier = value(ln, arg(f, in, 1)).first;
        if (mnemonic.find(".parity") != std::string::npos) op.parity = value(ln, arg(f, in, 2)).first;
      }
      async_.push_back(std::move(op));
      return;  // one per warp: the lanes of a warp wait together
    }
    if (expect) {  // [_ | state,] [mbar], tx
      op.kind = AsyncOp::Kind::expect_tx;
      const u32 at = in.count >= 3 ? 1 : 0;
      if (in.count >= at + 2) {
        op.barrier = value(ln, arg(f, in, at)).first;
        op.tx = value(ln, arg(f, in, at + 1)).first;
      }
      async_.push_back(std::move(op));
      continue;
    }
    if (copy) {
      // cp.async.bulk.tensor.Nd.dst.src... [dst], [tensorMap, {coords}], [mbar]: a load's
      // destination is shared; a store (.global.shared::cta) names the tensor first.
      const bool store = mnemonic.find(".global.shared") != std::string::npos;
      op.kind = store ? AsyncOp::Kind::tma_store : AsyncOp::Kind::tma_load;
      if (in.count >= 2) {
        auto [smem, why] = value(ln, arg(f, in, store ? 1 : 0));
        op.smem = smem, op.smem_why = why;
        auto [map, mwhy] = value(ln, arg(f, in, store ? 0 : 1));
        if (!store && in.count >= 3 && arg(f, in, 2).kind == Operand::Kind::addr) op.barrier = value(ln, arg(f, in, 2)).first;
        const Operand& tensor = arg(f, in, store ? 0 : 1);
        if (tensor.kind == Operand::Kind::addr)
          for (u32 c = 0; c < tensor.count; ++c) {
            const Val v = read_operand(m_, ln, f, f.operands[tensor.index + 1 + c], in);
            op.coords.push_back(v.known() ? std::optional<i64>(static_cast<i64>(static_cast<std::int32_t>(v.v))) : std::nullopt);
          }
        op.multicast = mnemonic.find(".multicast") != std::string::npos;
        if (map && *map >= kParamWindow && *map < kParamWindow + (u64{1} << 40))
          op.map_param = std::make_pair(static_cast<std::size_t>((*map - kParamWindow) >> 20), static_cast<i64>((*map - kParamWindow) & 0xfffff));
        else
          op.map_why = map ? "the tensor map operand is not a kernel parameter's address" : mwhy;
      }
      async_.push_back(std::move(op));
      continue;
    }
    op.kind = AsyncOp::Kind::wgmma;
    op.guarded = ln.path != 0;
    // wgmma.mma_async d, a-desc | {a regs}, b-desc, ...
    if (in.count >= 3) {
      const Operand& a = arg(f, in, 1);
      op.a_registers = a.kind == Operand::Kind::vec;
      if (a.kind != Operand::Kind::vec) {
        auto [da, why] = value(ln, a);
        op.desc_a = da, op.desc_why = why;
      }
      auto [db, why] = value(ln, arg(f, in, 2));
      op.desc_b = db;
      if (!db && op.desc_why.empty()) op.desc_why = why;
      // d, a, b, scale-d, imm-scale-a, imm-scale-b[, imm-trans-a, imm-trans-b] (16-bit types)
      for (u32 t = 6; t < in.count && t < 8; ++t) op.transposed = op.transposed || arg(f, in, t).kind != Operand::Kind::imm || arg(f, in, t).imm != 0;
      if (in.count >= 4) {
        const Operand& sd = arg(f, in, 3);
        const Val v = read_operand(m_, ln, f, sd, in);
        if (sd.kind == Operand::Kind::imm) op.scale_d = sd.imm != 0;
        else if (v.known()) op.scale_d = v.v != 0;
      }
      const std::string text = p_.text_of(in);
      op.accumulator = text.substr(0, text.find('}'));
      if (const auto open = op.accumulator.find('{'); open != std::string::npos) op.accumulator.erase(0, open);
    }
    async_.push_back(std::move(op));
    return;  // one per warp: the descriptors are the warpgroup's
  }
}

// A SASS warpgroup MMA (HGMMA, QGMMA, IGMMA, BGMMA) the warp ran: one AsyncOp per warp with its
// mnemonic and whether A comes from registers (`HGMMA.64x64x16.F32.BF16 R24, R56, gdesc[UR8], ...`:
// a register second operand), for its counts (ptx_exec.cpp wgmma_counts); its descriptors, in
// uniform registers, are not read (the contract claims are PTX's).
void NotCountedList::record_sass_gmma(const std::vector<Lane>& lanes, const std::vector<int>& group, const std::array<bool, kWarpLanes>& active,
                                      u32 fi, u32 pc, const Instr& in, const std::string& mnemonic) {
  for (const int k : group) {
    if (!active[static_cast<std::size_t>(k)]) continue;
    const Lane& ln = lanes[static_cast<std::size_t>(k)];
    AsyncOp op = started(ln, fi, pc, in, mnemonic);
    op.kind = AsyncOp::Kind::wgmma;
    const std::string text = p_.text_of(in);
    const std::size_t first = text.find(", ");
    op.a_registers = first != std::string::npos && first + 2 < text.size() && text[first + 2] == 'R';
    op.guarded = in.guard >= 0 || ln.path != 0;
    op.desc_why = "a SASS warpgroup MMA: its descriptors (uniform registers) are not read";
    async_.push_back(std::move(op));
    return;
  }
}

void NotCountedList::add(u32 fi, u32 pc, const Instr& in, const std::string& why, bool maybe) {
  if (!listed_.insert(&in).second) return;
  NotCounted n;
  n.function = fi, n.pc = pc, n.line = in.line, n.sass_offset = in.sass_offset;
  n.source = p_.source_of(p_.functions[fi], in);
  n.inlined = p_.inlined_of(p_.functions[fi], in);
  n.text = p_.text_of(in);
  const std::string mn = m_.mnemonic(in);
  n.why = mn + (maybe ? " may touch" : " touches") + " shared memory and is not counted: " + why;
  const std::string base = mn.substr(0, mn.find('.'));
  n.loads_only = base == "ld" || base == "ldmatrix" || base == "LD" || base == "LDS" || base == "LDSM";
  // What Nsight Compute counts no shared wavefront for and no shared-memory opcode (the third-party
  // corpus on the H200: 43 SYNCS, 3 ARRIVES, 10 UBLKCP, each 0; the pipeline probe on the H100,
  // tests/hopper/wgmma_pipeline/ncu_variant6.csv: every UTMALDG and SYNCS 0): mbarrier.* and
  // cp.async.mbarrier.arrive (SYNCS, ARRIVES), the non-tensor cp.async.bulk (UBLKCP), and the
  // tensor copy into shared memory (UTMALDG; a store from it, UTMASTG, was not measured).
  const bool tensor_load = starts(mn, "cp.async.bulk.tensor") && mn.find(".global.shared") == std::string::npos;
  n.outside_totals = base == "mbarrier" || starts(mn, "cp.async.mbarrier.") ||
                     (starts(mn, "cp.async.bulk.") && mn.find(".tensor") == std::string::npos) || tensor_load || base == "SYNCS" ||
                     base == "ARRIVES" || base == "UBLKCP" || base == "UTMALDG";
  list_.push_back(std::move(n));
}

}  // namespace layoutproof::compiled
