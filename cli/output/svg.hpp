#pragma once
// SVG drawing shared by the reports (cli/output/report.hpp for canned bank claims, cli/output/trace_report.hpp
// for kernel traces): text and rectangles with escaped content, the bank colours, the phase panel
// (one warp-wide instruction's phase as 32 bank columns, one row per distinct word = one
// wavefront) and the bank-colour legend. One drawing of a phase, whatever produced the addresses.
#include <array>
#include <sstream>
#include <string>

#include "model/bank/bank.hpp"
#include "model/support/checked.hpp"

namespace layoutproof::cli::svg {

std::string num(double v);  // %g
// Neighbouring banks get far-apart hues (7 is coprime with 32), pastel so black text reads.
std::string bank_colour(int bank);
// Labels stay legible on tall or wide tiles (128 rows of 8 px): label every k-th row or column,
// k the smallest power of two with k * cell >= need (the label's height or width in px).
//   label_step(8, 14) == 2   label_step(20, 14) == 1   label_step(3, 14) == 8
long long label_step(double cell, double need);
// The space a .lbl label (12 px) needs: its height plus 2 px, or its width for `digits` digits.
inline constexpr double kRowLabelSpace = 14;
inline double column_label_space(int digits) { return 8.0 * digits + 4; }
void text(std::ostringstream& o, double x, double y, const std::string& t, const std::string& attrs = "");
void rect(std::ostringstream& o, double x, double y, double w, double h, const std::string& attrs);

// One phase of one instruction: the lanes [first, first + count) of `access`.
struct PhaseView {
  SmemAccess access;
  int first = 0, count = kWarpLanes;
  int hot_bank = -1;     // outlined in red (the conflicting bank), -1: none
  std::string title;
};
// Draws the phase below y = top; returns the bottom y.
double phase_panel(std::ostringstream& o, const PhaseView& p, double top);
// The 32 bank colours and what the outlines mean; returns the bottom y.
double bank_legend(std::ostringstream& o, double top);
// <svg ...> with the reports' stylesheet around `body`.
std::string document(const std::string& body, double width, double height);

}  // namespace layoutproof::cli::svg
