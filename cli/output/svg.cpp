#include "cli/output/svg.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

#include "cli/output/escape.hpp"

namespace layoutproof::cli::svg {

std::string num(double v) {
  char b[64];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

long long label_step(double cell, double need) {
  long long k = 1;
  while (k * cell < need && k < (1LL << 40)) k *= 2;
  return k;
}

std::string bank_colour(int bank) {
  const int hue = (bank * 7 % 32) * 360 / 32;
  return "hsl(" + std::to_string(hue) + ",70%,80%)";
}

void text(std::ostringstream& o, double x, double y, const std::string& t, const std::string& attrs) {
  o << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" " << attrs << ">" << xml_escape(t) << "</text>\n";
}

void rect(std::ostringstream& o, double x, double y, double w, double h, const std::string& attrs) {
  o << "<rect x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\"" << num(w) << "\" height=\"" << num(h) << "\" "
    << attrs << "/>\n";
}

double phase_panel(std::ostringstream& o, const PhaseView& p, double top) {
  const int nwords = std::max(1, p.access.width_bytes / 4);
  // bank -> distinct words (ascending) -> lanes touching that word.
  std::map<int, std::map<i64, std::vector<int>>> banks;
  for (int lane = p.first; lane < p.first + p.count && lane < kWarpLanes; ++lane) {
    const i64 a = p.access.lane_addr[static_cast<std::size_t>(lane)];
    if (a < 0) continue;
    for (int j = 0; j < nwords; ++j) banks[bank_of_word(word_of(a) + j)][word_of(a) + j].push_back(lane);
  }
  std::size_t depth = 1;
  for (const auto& [b, words] : banks) depth = std::max(depth, words.size());
  const double x0 = 90, bw = 36, bh = 30, y0 = top + 62;
  text(o, x0, top + 22, p.title, "class=\"h2\"");
  for (int b = 0; b < kBanks; ++b) {
    const double x = x0 + b * bw;
    const bool hot = b == p.hot_bank;
    rect(o, x, y0 - 20, bw - 2, 18, "fill=\"" + bank_colour(b) + "\"" + (hot ? " stroke=\"#d00\" stroke-width=\"2\"" : ""));
    text(o, x + bw / 2 - 1, y0 - 6, std::to_string(b), "class=\"cell\" text-anchor=\"middle\"");
    if (hot) rect(o, x - 2, y0 - 22, bw + 2, 22 + bh * static_cast<double>(depth) + 4, "fill=\"none\" stroke=\"#d00\" stroke-width=\"2.5\"");
  }
  text(o, x0 - 8, y0 - 6, "bank", "class=\"lbl\" text-anchor=\"end\"");
  for (std::size_t r = 0; r < depth; ++r)
    text(o, x0 - 8, y0 + static_cast<double>(r) * bh + bh * 0.6, "wavefront " + std::to_string(r + 1), "class=\"lbl\" text-anchor=\"end\"");
  for (const auto& [b, words] : banks) {
    int r = 0;
    for (const auto& [word, lanes] : words) {
      const double x = x0 + b * bw, y = y0 + r * bh;
      const bool hot = b == p.hot_bank;
      rect(o, x, y, bw - 2, bh - 2, "fill=\"" + bank_colour(b) + "\"" + (hot ? " stroke=\"#d00\" stroke-width=\"2\"" : " stroke=\"#999\""));
      const std::string who = "L" + std::to_string(lanes.front()) + (lanes.size() > 1 ? "+" : "");
      text(o, x + bw / 2 - 1, y + 12, who, std::string("class=\"") + (hot ? "hotw" : "word") + "\" text-anchor=\"middle\"");
      text(o, x + bw / 2 - 1, y + 24, "w" + std::to_string(word), "class=\"small\" text-anchor=\"middle\"");
      ++r;
    }
  }
  return y0 + bh * static_cast<double>(depth) + 10;
}

double bank_legend(std::ostringstream& o, double top) {
  text(o, 70, top + 20, "Legend: bank colours", "class=\"h2\"");
  for (int b = 0; b < kBanks; ++b) {
    const double x = 70 + b * 36;
    rect(o, x, top + 30, 34, 18, "fill=\"" + bank_colour(b) + "\"");
    text(o, x + 17, top + 43, std::to_string(b), "class=\"cell\" text-anchor=\"middle\"");
  }
  rect(o, 70, top + 60, 30, 14, "fill=\"none\" stroke=\"#d00\" stroke-width=\"3.5\"");
  text(o, 108, top + 72, "a lane hitting the conflicting bank (Lnn: lane number)", "class=\"lbl\"");
  rect(o, 520, top + 60, 30, 14, "fill=\"none\" stroke=\"#222\" stroke-width=\"1.5\" stroke-dasharray=\"3,2\"");
  text(o, 558, top + 72, "another active lane of the same phase", "class=\"lbl\"");
  text(o, 870, top + 72, "wN: 32-bit word N = byte address / 4", "class=\"lbl\"");
  return top + 84;
}

std::string document(const std::string& body, double width, double height) {
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(width) << "\" height=\"" << num(height) << "\" viewBox=\"0 0 "
    << num(width) << " " << num(height) << "\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n"
    << "<style>.h1{font-size:18px;font-weight:bold}.h2{font-size:14px;font-weight:bold}.lbl{font-size:12px;fill:#333}"
       ".cell{font-size:9px;fill:#222}.lane{font-size:11px;font-weight:bold;fill:#fff}.word{font-size:10px;fill:#222}"
       ".hotw{font-size:10px;font-weight:bold;fill:#b00}.small{font-size:9px;fill:#333}</style>\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n"
    << body << "</svg>\n";
  return o.str();
}

}  // namespace layoutproof::cli::svg
