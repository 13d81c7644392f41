// model/hopper/gmma.hpp against the H200: every variant of gpu_check/hopper/wgmma_probe.cu (147,
// bf16 and e4m3: placements past a 1024-byte boundary, layout types, SBO, LBO, base offsets, K
// steps, for the 128B, 64B and 32B swizzles) predicted as measured: agree where the GEMM came out right,
// disagree where it came out wrong, fault where the kernel faulted, and which fault.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "model/hopper/gmma.hpp"

namespace layoutproof::hopper {
namespace {

std::map<std::string, std::string> fields_of(const std::string& line) {
  std::map<std::string, std::string> f;
  std::istringstream in(line);
  std::string w;
  while (in >> w)
    if (const auto eq = w.find('='); eq != std::string::npos) f[w.substr(0, eq)] = w.substr(eq + 1);
  return f;
}

TEST(Gmma, DescriptorFieldsRoundTrip) {
  GmmaDescriptor d;
  d.start = 0x2400, d.lbo = 16, d.sbo = 1024, d.base_offset = 5, d.layout_type = 1;
  const std::uint64_t bits = encode_gmma_descriptor(d);
  EXPECT_EQ(bits & 0x3fff, 0x240u);
  EXPECT_EQ((bits >> 32) & 0x3fff, 64u);
  EXPECT_EQ(bits >> 62, 1u);
  const GmmaDescriptor e = decode_gmma_descriptor(bits);
  EXPECT_EQ(e.start, d.start);
  EXPECT_EQ(e.lbo, d.lbo);
  EXPECT_EQ(e.sbo, d.sbo);
  EXPECT_EQ(e.base_offset, 5);
  EXPECT_EQ(e.layout_type, 1);
  // The three enums run in different directions (shared/facts/hopper_descriptors.md).
  EXPECT_EQ(swizzle_of_layout_type(1), TmaSwizzle::b128);
  EXPECT_EQ(swizzle_of_layout_type(3), TmaSwizzle::b32);
  EXPECT_EQ(layout_type_of(TmaSwizzle::b64), 2);
  EXPECT_EQ(gmma_atom_name(TmaSwizzle::b128), "GMMA::Layout_K_SW128_Atom<T>");
}

TEST(Gmma, EveryMeasuredProbeVariantIsPredicted) {
  std::ifstream in(std::string(LAYOUTPROOF_TESTS_DIR) + "/hopper/wgmma_probe/wgmma_probe.txt");
  ASSERT_TRUE(in.good());
  std::string line;
  int variants = 0, agree = 0, disagree = 0, fault = 0;
  while (std::getline(in, line)) {
    const auto f = fields_of(line);
    if (!f.count("swizzle")) continue;
    ++variants;
    const int span = std::stoi(f.at("swizzle"));
    const std::string dtype = f.count("dtype") ? f.at("dtype") : "bf16";
    const int e = dtype == "e4m3" ? 1 : 2;
    const int K = span / e;  // one box row is one swizzle row
    OperandSetup s;
    s.map = parse_tensor_map_spec("dtype=" + dtype + ",dims=" + std::to_string(K) + "x64,strides=" + std::to_string(e * K) + ",box=" +
                                  std::to_string(K) + "x64,swizzle=" + std::to_string(span) + "B");
    // The probe's shared memory: the 1 KiB the driver reserves, its 8-byte barrier, then the
    // dynamic 25,600 bytes, A at the first 1024-byte boundary in them plus the offset.
    const std::uint64_t raw = 0x410, base = (raw + 1023) / 1024 * 1024;
    s.dst = base + std::stoull(f.at("offset"));
    s.smem_lo = 0x400, s.smem_hi = raw + 25600;
    s.desc.start = static_cast<std::uint32_t>(s.dst);
    s.desc.lbo = static_cast<std::uint32_t>(std::stoul(f.at("lbo")) * 16);
    s.desc.sbo = static_cast<std::uint32_t>(std::stoul(f.at("sbo")) * 16);
    const int bo = std::stoi(f.at("base_off"));
    s.desc.base_offset = bo < 0 ? static_cast<int>((s.dst >> 7) & 7) : bo;
    s.desc.layout_type = std::stoi(f.at("layout"));
    s.k_step = static_cast<std::uint32_t>(std::stoul(f.at("kstep")));
    const ContractOutcome o = operand_contract(s);
    if (f.count("error")) {
      ++fault;
      EXPECT_EQ(o.kind, ContractOutcome::Kind::fault) << line << " -> " << o.why;
      const std::string kind = f.at("error") == "cudaErrorMisalignedAddress" ? "MisalignedAddress" : "IllegalAddress";
      EXPECT_NE(o.why.find(kind), std::string::npos) << line << " -> " << o.why;
      continue;
    }
    const std::string w = f.at("wrong");
    const bool right = w.rfind("0/", 0) == 0;
    (right ? agree : disagree) += 1;
    EXPECT_EQ(o.kind, right ? ContractOutcome::Kind::agree : ContractOutcome::Kind::disagree) << line << " -> " << o.why;
  }
  EXPECT_EQ(variants, 147);  // 93 bf16, 54 e4m3
  EXPECT_EQ(fault, 30);      // 24 misaligned TMA destinations, 6 SBOs written in bytes
  std::printf("[gmma] %d variants: %d right, %d wrong, %d faults, each predicted\n", variants, agree, disagree, fault);
}

}  // namespace
}  // namespace layoutproof::hopper
