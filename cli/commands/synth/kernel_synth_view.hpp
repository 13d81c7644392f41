#pragma once
// synth --kernel's view of its search (proofs/synth/kernel_synth.hpp synthesize_kernel): the
// copies, the family, the ranking and each proof beside the member it is about. The command
// prints the text before emit() and hands emit() the JSON as the results document's extra keys
// (cli/output/results.hpp ResultView); each proof's verdict is written by claim_json, the one
// writer of verdict JSON.
//   kernel_synth_text(q, r, false):
//     synth --kernel (128,64,3) half_t (2-byte elements), 2 copies:
//     ...
//     FOUND  K-major Sw<3,3,3> o (8,64):(64,1): every copy at its ideal wavefronts (...)
//   kernel_synth_json(q, r, false): {"found":true,"all_proved":true,"shape":"(128,64,3)",...,
//     "proofs":[{"claim":"conflict-free","copy":0,"member":0,"verdict":"PROVED",...}],...}
// all: every ranked and rejected member (default: the best 5 ranked).
#include <string>

#include <nlohmann/json.hpp>

#include "proofs/synth/kernel_synth.hpp"

namespace layoutproof::cli {

std::string kernel_synth_text(const proofs::KernelSynthRequest& q, const proofs::KernelSynthResult& r, bool all);
// {"found":bool, "smem":C++, "notation":..., "per_copy":[{"copy","side","op","width_bytes",
//  "wavefronts","ideal","ratio","conflict_free","vector_legal","covers"}], "candidates":n,
//  "best_ratio":x, "proofs":[...], "ranked":[...], "time_ms":x, ...}
nlohmann::ordered_json kernel_synth_json(const proofs::KernelSynthRequest& q, const proofs::KernelSynthResult& r, bool all);

}  // namespace layoutproof::cli
