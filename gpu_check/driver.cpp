// layoutproof-gpu: confirms the model's claims on a CUDA GPU (see checks.hpp for what a check is).
//
//   layoutproof-gpu [--filter TEXT] [--ncu RESULTS.jsonl] [--no-clock] [--json] [--json-file FILE]
//   layoutproof-gpu --list | --export-cases FILE        (no GPU needed)
//
// Exit: 0 every check agrees, 1 some check disagrees or was not measured, 2 bad arguments,
// 77 no CUDA device ("SKIPPED: no CUDA device" on stdout).
#include <unistd.h>

#include <climits>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "gpu_check/device.hpp"
#include "gpu_check/report.hpp"
#include "model/layout/flat_layout_host.hpp"

namespace layoutproof::gpu {
namespace {

struct Options {
  std::string filter, ncu, json_file, export_cases, self = "/proc/self/exe";
  bool json = false, list = false, clock = true;
  int fault_child = -1;
};

// Clock calibration per (op, width): cycles per instruction of a conflict-free and of a 32-way
// instruction (their wavefronts from the model, which ncu confirms for both); the measured
// instruction's wavefronts are read off the line through the two points.
struct Calibration {
  double wf_lo = 0, cpi_lo = 0, wf_hi = 0, cpi_hi = 0;
  bool ok = false;
};

SmemAccess calibration_access(const SmemAccess& like, bool conflicting) {
  SmemAccess a = like;
  const int n = is_matrix_op(a.op) ? 8 * matrix_count(a.op) : 32;
  const std::int64_t step = conflicting ? 128 : (is_matrix_op(a.op) ? 16 : a.width_bytes);
  for (int l = 0; l < 32; ++l) a.lane_addr[l] = l < n ? l * step : -1;
  return a;
}

class Runner {
 public:
  Runner(const Options& o, std::string device, int sm) : opt_(o), device_(std::move(device)), sm_(sm) {
    if (!o.ncu.empty()) ncu_ = read_ncu_jsonl(o.ncu);
  }

  void run(Check& c, CheckResult& r, int index) {
    try {
      switch (c.kind) {
        case CheckKind::bijective: bijective(c); break;
        case CheckKind::round_trip: round_trip(c, index); break;
        case CheckKind::bank: bank(c, r); break;
      }
    } catch (const std::exception& e) {
      c.outcome.measured = std::string("error: ") + e.what();
      c.outcome.measured_ok = false;
    }
  }

  void set_names(const std::vector<NamedInstruction>& named) {
    for (const NamedInstruction& n : named) names_[instruction_key(n.access)] = n.name;
  }

 private:
  void bijective(Check& c) {
    const BijectivityPrediction p = predict_bijectivity(c.layout);
    c.outcome.predicted = p.detail;
    const std::int64_t slots = p.codomain.empty() ? 1 : p.codomain.back() + 1;
    const BijectivityMeasure m = device_bijectivity(to_flat(c.layout), size(c.layout.layout), slots);
    if (!m.error.empty()) { c.outcome.measured = "CUDA error: " + m.error; return; }
    bool bij = false;
    c.outcome.measured = describe_counts(p.codomain, m.counts, m.outside, &bij);
    c.outcome.measured_ok = true;
    c.outcome.agree = bij == p.bijective;
    c.outcome.claim_holds = bij;
  }

  void round_trip(Check& c, int index) {
    const VectorPrediction v = predict_vector(c.spec);
    c.outcome.predicted = v.verdict == VectorVerdict::ok ? "identical"
                          : v.verdict == VectorVerdict::non_contiguous ? "data differs (non-contiguous: " + v.witness + ")"
                                                                       : "fault (misaligned: " + v.witness + ")";
    if (c.matrix && c.store && sm_ < 90) { c.outcome.measured = "skipped: stmatrix needs sm_90"; return; }
    std::string measured;
    bool fault = false, identical = false;
    if (v.verdict == VectorVerdict::misaligned && opt_.fault_child != index) {
      // A misaligned shared access poisons the CUDA context: run it in a child process.
      measured = child(index);
      fault = measured.rfind("fault", 0) == 0;
    } else {
      const RoundTripPlan plan = make_round_trip_plan(c.spec, c.store, c.matrix);
      const std::vector<unsigned char> src = source_tile(plan.rows, plan.cols, plan.elem_bytes, 1234u + index);
      const RoundTripMeasure m = device_round_trip(plan, src);
      if (!m.error.empty()) {
        fault = true;
        measured = "fault: " + m.error;
      } else {
        measured = compare_tiles(src, m.out, plan.cols, plan.elem_bytes, &identical);
      }
    }
    c.outcome.measured = measured;
    c.outcome.measured_ok = measured.rfind("fault", 0) == 0 || measured.rfind("identical", 0) == 0 ||
                            measured.find("differ") != std::string::npos;
    c.outcome.claim_holds = identical;
    c.outcome.agree = (v.verdict == VectorVerdict::ok && identical) ||
                      (v.verdict == VectorVerdict::non_contiguous && !identical && !fault) ||
                      (v.verdict == VectorVerdict::misaligned && fault);
  }

  std::string child(int index) {
    const std::string cmd = opt_.self + " --fault-child " + std::to_string(index) + " 2>&1";
    FILE* f = popen(cmd.c_str(), "r");
    if (!f) return "error: cannot start " + cmd;
    std::string out;
    char buf[512];
    while (fgets(buf, sizeof buf, f)) out += buf;
    pclose(f);
    const auto p = out.find("RESULT: ");
    if (p == std::string::npos) return "error: child said: " + out;
    std::string r = out.substr(p + 8);
    while (!r.empty() && (r.back() == '\n' || r.back() == '\r')) r.pop_back();
    return r;
  }

  // The clock estimate of a's wavefronts: cycles per instruction / cycles per wavefront of the
  // 32-way calibration instruction. Below the issue floor (the conflict-free instruction's cycles)
  // the clock cannot tell wavefronts apart, so agreement is judged in cycles: the model agrees when
  // the measured cycles are within 15% (or 0.5 cycle) of max(floor, predicted * cycles per wavefront).
  struct ClockResult {
    double wavefronts = -1;
    bool agrees = false;
  };
  ClockResult clock_measure(const SmemAccess& a, int predicted) {
    const std::string key = to_string(a.op) + "/" + std::to_string(a.width_bytes);
    auto it = cal_.find(key);
    if (it == cal_.end()) {
      Calibration cal;
      std::string err;
      const SmemAccess lo = calibration_access(a, false), hi = calibration_access(a, true);
      cal.wf_lo = analyze_smem_access(lo).wavefronts;
      cal.wf_hi = analyze_smem_access(hi).wavefronts;
      cal.cpi_lo = device_cycles_per_instruction(lo, &err);
      cal.cpi_hi = device_cycles_per_instruction(hi, &err);
      cal.ok = cal.cpi_lo > 0 && cal.cpi_hi > cal.cpi_lo;
      char b[160];
      std::snprintf(b, sizeof b, "%s %.2f cyc @%d wf, %.2f cyc @%d wf; ", key.c_str(), cal.cpi_lo, int(cal.wf_lo), cal.cpi_hi,
                    int(cal.wf_hi));
      calibration_notes_ += b;
      it = cal_.emplace(key, cal).first;
    }
    const Calibration& cal = it->second;
    ClockResult r;
    if (!cal.ok) return r;
    std::string err;
    const double cpi = device_cycles_per_instruction(a, &err);
    if (cpi < 0) return r;
    const double per_wf = cal.cpi_hi / cal.wf_hi;
    r.wavefronts = std::max(cal.wf_lo, cpi / per_wf);
    const double expect = std::max(cal.cpi_lo, predicted * per_wf);
    r.agrees = std::fabs(cpi - expect) <= std::max(0.5, 0.15 * expect);
    return r;
  }

  void bank(Check& c, CheckResult& r) {
    int pred_total = 0, ncu_total = 0, clock_total = 0, ideal_total = 0;
    double pred_deg = 0, meas_deg = 0;
    bool all_ncu = true, ncu_agree = true, clock_agree = true, all_clock = true;
    int clock_match = 0;
    for (const SmemAccess& a : bank_instructions(c)) {
      const BankReport rep = analyze_smem_access(a);
      InstructionResult x;
      const auto nm = names_.find(instruction_key(a));
      x.probe_case = nm == names_.end() ? "" : nm->second;
      x.op = to_string(a.op);
      x.width = a.width_bytes;
      x.predicted = rep.wavefronts;
      if (auto f = ncu_.find(x.probe_case); f != ncu_.end()) x.ncu = f->second;
      bool clock_ok = false;
      if (opt_.clock) {
        const ClockResult cr = clock_measure(a, rep.wavefronts);
        x.clock = cr.wavefronts;
        clock_ok = cr.agrees;
      }
      pred_total += rep.wavefronts;
      ideal_total += rep.ideal;
      pred_deg = std::max(pred_deg, rep.conflict_degree);
      if (x.ncu >= 0) {
        ncu_total += static_cast<int>(std::lround(x.ncu));
        meas_deg = std::max(meas_deg, x.ncu / rep.ideal);
        ncu_agree = ncu_agree && std::fabs(x.ncu - rep.wavefronts) < 0.01;
      } else {
        all_ncu = false;
      }
      if (x.clock >= 0) {
        const int est = static_cast<int>(std::lround(x.clock));
        clock_total += est;
        if (clock_ok) ++clock_match; else clock_agree = false;
        if (x.ncu < 0) meas_deg = std::max(meas_deg, static_cast<double>(est) / rep.ideal);
      } else {
        all_clock = false;
      }
      r.instructions.push_back(x);
    }
    const int n = static_cast<int>(r.instructions.size());
    auto summary = [&](int total, double deg) {
      std::ostringstream os;
      os << total << " wf in " << n << " instr, max degree " << std::round(deg * 100) / 100;
      return os.str();
    };
    c.outcome.predicted = summary(pred_total, pred_deg);
    if (all_ncu) {
      c.outcome.measured = "ncu: " + summary(ncu_total, meas_deg);
      c.outcome.measured_ok = true;
      c.outcome.agree = ncu_agree;
      if (all_clock) c.outcome.note = "clock: " + std::to_string(clock_match) + "/" + std::to_string(n) + " instr agree";
    } else if (all_clock) {
      c.outcome.measured = "clock: " + summary(clock_total, meas_deg);
      c.outcome.measured_ok = true;
      c.outcome.agree = clock_agree;
    } else {
      c.outcome.measured = "not measured";
    }
    if (c.reference) c.outcome.note += std::string(c.outcome.note.empty() ? "" : "; ") + "shared sample: " +
                                       std::to_string(static_cast<int>(*c.reference)) + " wf";
    (void)ideal_total;
    if (c.claims_conflict_free && c.outcome.measured_ok) c.outcome.claim_holds = meas_deg < 1.01;
  }

  const Options& opt_;
  std::string device_;
  int sm_;
  std::map<std::string, double> ncu_;
  std::map<std::string, std::string> names_;
  std::map<std::string, Calibration> cal_;

 public:
  std::string calibration_notes_;
};

int usage() {
  std::cerr << "usage: layoutproof-gpu [--filter TEXT] [--ncu RESULTS.jsonl] [--no-clock] [--json] [--json-file FILE]\n"
               "       layoutproof-gpu --list | --export-cases FILE | --help\n";
  return 2;
}

int help() {
  std::cout << R"HELP(layoutproof-gpu: the claims layoutproof proves, checked on a real GPU (docs/gpu_check.md).

Usage:
  layoutproof-gpu [--filter TEXT] [--ncu RESULTS.jsonl] [--no-clock] [--json] [--json-file FILE]
  layoutproof-gpu --list | --export-cases FILE | --help

Options:
  --filter TEXT        run only the checks whose name contains TEXT
  --ncu RESULTS.jsonl  compare each bank check's predicted wavefronts with Nsight Compute's measured
                       l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st,ldsm,stsm,ldgsts} counts
  --no-clock           skip the clock64() timing of the bank probes (ncu runs)
  --json               print one JSON object per check instead of the table
  --json-file FILE     also write the JSON results to FILE
  --list               list the built-in checks (bijectivity, round trips, bank probes, kernel copies)
  --export-cases FILE  write the bank probe cases (one instruction's 32 lane addresses each) to FILE
  --help, -h           this text

Examples:
  layoutproof-gpu --list
  layoutproof-gpu --filter bank --json-file /tmp/gpu.json
  OUT=/tmp/out bash gpu_check/run_device.sh      # the whole run with Nsight Compute, as in docs/gpu_check.md

Without a CUDA device it prints "SKIPPED: no CUDA device (reason)" and exits 77 (CTest's skip code).
Exit codes: 0 every check agrees, 1 a disagreement, 2 bad input, 77 no CUDA device.
)HELP";
  return 0;
}

int main_impl(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string { if (i + 1 >= argc) throw std::runtime_error(a + " needs a value"); return argv[++i]; };
    if (a == "--filter") o.filter = value();
    else if (a == "--ncu") o.ncu = value();
    else if (a == "--json-file") o.json_file = value();
    else if (a == "--export-cases") o.export_cases = value();
    else if (a == "--fault-child") o.fault_child = std::stoi(value());
    else if (a == "--json") o.json = true;
    else if (a == "--list") o.list = true;
    else if (a == "--no-clock") o.clock = false;
    else if (a == "--help" || a == "-h") return help();
    else return usage();
  }
  char self[PATH_MAX];  // popen runs a shell: /proc/self/exe must be resolved here, not there
  const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len > 0) o.self = std::string(self, static_cast<std::size_t>(len));
  std::vector<Check> all = builtin_checks();
  std::vector<int> index;
  for (int i = 0; i < static_cast<int>(all.size()); ++i)
    if (o.filter.empty() || all[i].name.find(o.filter) != std::string::npos || all[i].claim.find(o.filter) != std::string::npos)
      index.push_back(i);
  std::vector<Check> selected;
  for (int i : index) selected.push_back(all[i]);
  if (o.list) {
    for (int i : index) std::cout << i << "\t" << to_string(all[i].kind) << "\t" << all[i].name << "\t" << all[i].claim << "\n";
    return 0;
  }
  const std::vector<NamedInstruction> named = distinct_instructions(selected);
  if (!o.export_cases.empty()) {
    std::ofstream f(o.export_cases);
    f << "# NAME OP WIDTH A0..A31 (layoutproof-gpu --export-cases: every distinct bank-check instruction)\n";
    for (const NamedInstruction& n : named) f << probe_case_line(n.name, n.access) << "\n";
    std::cout << "wrote " << named.size() << " probe cases to " << o.export_cases << "\n";
    return f ? 0 : 2;
  }
  const DeviceInfo dev = query_device();
  if (!dev.present) {
    std::cout << "SKIPPED: no CUDA device (" << dev.error << ")\n";
    return 77;
  }
  const std::string device = dev.name + " (sm_" + std::to_string(dev.major) + std::to_string(dev.minor) + ")";
  Runner runner(o, device, dev.major * 10 + dev.minor);
  runner.set_names(named);
  if (o.fault_child >= 0) {  // internal: one round trip, its result on one line
    if (o.fault_child >= static_cast<int>(all.size())) return 2;
    Check c = all[o.fault_child];
    CheckResult r{&c, {}};
    runner.run(c, r, o.fault_child);
    std::cout << "RESULT: " << c.outcome.measured << "\n";
    return 0;
  }
  std::vector<CheckResult> results(selected.size());
  for (std::size_t k = 0; k < selected.size(); ++k) {
    results[k].check = &selected[k];
    runner.run(selected[k], results[k], index[k]);
  }
  int disagree = 0;
  if (o.json) {
    print_json(std::cout, results, device);
    for (const Check& c : selected) disagree += !(c.outcome.measured_ok && c.outcome.agree);
  } else {
    disagree = print_table(std::cout, results, device);
    if (o.clock) std::cout << "clock calibration (cycles per warp-instruction, 8 warps): " << runner.calibration_notes_ << "\n";
  }
  if (!o.json_file.empty()) {
    std::ofstream f(o.json_file);
    print_json(f, results, device);
  }
  return disagree == 0 ? 0 : 1;
}

}  // namespace
}  // namespace layoutproof::gpu

int main(int argc, char** argv) {
  try {
    return layoutproof::gpu::main_impl(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "layoutproof-gpu: " << e.what() << "\n";
    return 2;
  }
}
