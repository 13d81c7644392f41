// model/compiled/ptx_types.hpp: the operand types the PTX ISA states, checked as a body is read.
// The forms nvcc writes are accepted (each rule's relaxation included); each ill-typed operand is
// refused at its column with a caret.
#include "model/compiled/ptx_types.hpp"

#include <gtest/gtest.h>

#include "model/compiled/ptx_parse.hpp"
#include "model/layout/notation.hpp"

namespace layoutproof::compiled {
namespace {

// A kernel around `body`, registers of every class declared; the body starts on line 8.
std::string kernel(const std::string& body) {
  return ".version 8.5\n.target sm_90\n.address_size 64\n.shared .align 16 .b8 s[1024];\n.visible .entry k(.param .u64 p)\n{\n"
         ".reg .b16 %rs<8>; .reg .b32 %r<16>; .reg .b64 %rd<8>; .reg .f32 %f<8>; .reg .f64 %fd<4>; .reg .pred %p<4>; .reg .f16 %h<4>;\n" +
         body + "\nret;\n}\n";
}

void decode_all(const std::string& text) {
  Program p = parse_ptx(text, "t.ptx");
  for (std::size_t i = 0; i < p.functions.size(); ++i) decode_function(p, i);
}

TEST(PtxTypes, TheFormsNvccWritesAreAccepted) {
  const char* ok[] = {
      "mov.u32 %r1, %tid.x;", "mov.b32 %f1, %r1;", "mov.b32 %r1, %f1;", "mov.u32 %r2, s;", "mov.u64 %rd1, s;",
      "mov.b64 %rd1, {%r1, %r2};", "mov.b64 {%r1, %r2}, %rd1;", "mov.b32 %r1, {%rs1, %rs2};", "mov.pred %p1, %p2;",
      "add.s32 %r1, %r2, -3;", "add.u64 %rd1, %rd2, %rd3;", "sub.s64 %rd1, %rd2, 1;", "and.pred %p1, %p2, %p3;",
      "mul.wide.u32 %rd1, %r1, 4;", "mul.wide.s16 %r1, %rs1, %rs2;", "mad.wide.u16 %r2, %rs1, 3, 5;", "mad.lo.s32 %r1, %r2, %r3, %r4;",
      "mul.hi.u32 %r1, %r2, %r3;", "mul24.lo.u32 %r1, %r2, 3;", "shl.b64 %rd1, %rd2, %r1;", "shr.u32 %r1, %r2, 3;",
      "shf.l.wrap.b32 %r1, %r2, %r3, %r4;", "bfe.u64 %rd1, %rd2, %r1, 8;", "bfi.b32 %r1, %r2, %r3, 0, 4;", "prmt.b32 %r1, %r2, %r3, 0x3210;",
      "lop3.b32 %r1, %r2, %r3, %r4, 0x96;", "clz.b64 %r1, %rd1;", "popc.b32 %r1, %r2;", "bfind.u64 %r1, %rd1;", "brev.b32 %r1, %r2;",
      "setp.lt.s32 %p1, %r1, 16;", "setp.ne.and.b32 %p1|%p2, %r1, %r2, %p3;", "setp.eq.u64 %p1, %rd1, 0;", "selp.b32 %r1, 1, 0, %p1;",
      "selp.f32 %f1, %f2, %f3, !%p1;", "cvt.u64.u32 %rd1, %r1;", "cvt.u32.u64 %r1, %rd1;", "cvt.s64.s32 %rd1, %tid.x;",
      "cvt.rn.f32.s32 %f1, %r1;", "cvt.rzi.s32.f32 %r1, %f1;", "cvt.rn.f16.f32 %rs1, %f1;", "cvt.f32.f16 %f1, %h1;",
      "cvt.rn.bf16.f32 %rs1, %f1;", "cvt.f32.bf16 %f1, %rs1;", "cvt.rn.bf16x2.f32 %r1, %f1, %f2;",
      "cvt.u16.u32 %rs1, %r1;", "cvta.to.global.u64 %rd1, %rd2;", "cvta.shared.u64 %rd1, s;", "cvta.to.shared.u32 %r1, %r2;",
      "ld.param.u64 %rd1, [p];", "ld.shared.u8 %r1, [%r2];", "ld.shared.u8 %rs1, [%r2+4];", "ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r2];",
      "ld.shared.f32 %r1, [%r2];", "ld.shared.b16 %h1, [%rd1];", "ld.shared.v2.u32 {%r1, _}, [%r2];", "ld.global.nc.u32 %r1, [%rd1];",
      "st.shared.u8 [%r2], %r1;", "st.shared.u32 [%r2], %rd1;", "st.shared.f64 [%r2], %fd1;", "st.shared.v2.b32 [%r2], {%f1, %r3};",
      "st.shared.u32 [s+8], 0;", "atom.shared.add.u32 %r1, [%r2], 1;", "atom.shared.cas.b32 %r1, [%r2], %r3, %r4;",
      "atom.shared.add.f32 %f1, [%r2], %f2;", "atom.shared.add.noftz.f16 %rs1, [%r2], %h1;", "red.shared.add.u64 [%r2], %rd1;",
      "ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r1, %r2}, [%r3];", "stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%r3], {%r1};",
      "cp.async.cg.shared.global [%r1], [%rd1], 16, %r2;", "shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;",
      "shfl.sync.idx.b32 %f1, %f2, %r1, 31, %r3;", "vote.sync.ballot.b32 %r1, %p1, -1;", "vote.sync.all.pred %p1, !%p2, -1;",
      "activemask.b32 %r1;", "@%p1 bra $L;\n$L:", "@!%p1 ret;", "add.f32 %f1, %f2, %r1;",  // floating point: not executed, not checked
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4];",
  };
  for (const char* body : ok) EXPECT_NO_THROW(decode_all(kernel(body))) << body;
}

// The error names line 8 at the operand's column, with a caret.
void expect_refused(const std::string& body, int col, const std::string& what) {
  try {
    decode_all(kernel(body));
    FAIL() << "accepted: " << body;
  } catch (const ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("t.ptx:8:" + std::to_string(col) + ": "), std::string::npos) << body << ": " << e.what();
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << body << ": " << e.what();
    EXPECT_NE(e.caret().find('^'), std::string::npos);
  }
}

TEST(PtxTypes, IllTypedOperandsAreRefusedAtTheOperand) {
  expect_refused("ld.shared.u32 %r1, [%f1];", 21, "'%f1' is a .f32 register: an address needs a 32- or 64-bit integer register");
  expect_refused("st.shared.u32 [%p1], %r1;", 16, "'%p1' is a .pred register: an address");
  expect_refused("ld.shared.u32 %r1, [%rs1];", 21, "'%rs1' is a .b16 register: an address");
  expect_refused("add.u32 %r1, %p1, 1;", 14, "'%p1' is a .pred register, where add.u32 takes a .u32 operand");
  expect_refused("add.u32 %r1, %rd1, 1;", 14, "'%rd1' is a .b64 register, where add.u32 takes a .u32 operand");
  expect_refused("add.u32 %rd1, %r1, 1;", 9, "'%rd1' is a .b64 register");
  expect_refused("add.u32 %r1, %f1, 1;", 14, "'%f1' is a .f32 register, where add.u32 takes a .u32 operand");
  expect_refused("mul.wide.u32 %r1, %r2, 4;", 14, "'%r1' is a .b32 register, where mul.wide.u32 takes a .u64 operand");
  expect_refused("shl.b32 %r1, %r2, %p1;", 19, "'%p1' is a .pred register, where shl.b32 takes a .u32 operand");
  expect_refused("setp.eq.u32 %r1, %r2, 0;", 13, "'%r1' is a .b32 register, where setp.eq.u32 takes a predicate (.pred)");
  expect_refused("selp.b32 %r1, 1, 2, %r2;", 21, "'%r2' is a .b32 register, where selp.b32 takes a predicate");
  expect_refused("cvt.u32.u64 %r1, %r2;", 18, "'%r2' is a .b32 register, where cvt.u32.u64 takes a .u64 operand (or a wider register)");
  expect_refused("ld.shared.u32 %rs1, [%r2];", 15, "'%rs1' is a .b16 register, where ld.shared.u32 takes a .u32 operand");
  expect_refused("ld.shared.f32 %fd1, [%r2];", 15, "'%fd1' is a .f64 register, where ld.shared.f32 takes a .f32 operand");
  expect_refused("st.shared.u32 [%r2], %f1;", 22, "'%f1' is a .f32 register, where st.shared.u32 takes a .u32 operand");
  expect_refused("st.shared.v2.u32 [%r2], {%r1, %p1};", 31, "'%p1' is a .pred register");
  expect_refused("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r1, %rd2}, [%r3];", 48, "'%rd2' is a .b64 register, where ldmatrix");
  expect_refused("add.u32 %r2, !%r1, 1;", 14, "'!' negates a predicate");
  expect_refused("add.u32 5, %r1, 1;", 9, "a destination of add.u32 must be a register");
  expect_refused("@%r1 bra $L;\n$L:", 2, "the guard '%r1' is a .b32 register, not a predicate");
  expect_refused("mov.u64 %rd1, %tid.x;", 15, "'%tid.x' is a .u32 register, where mov.u64 takes a .u64 operand");
}

}  // namespace
}  // namespace layoutproof::compiled
