#pragma once
// The one skeleton of every HTML page a report folder holds (the run's summary, a bank map, a
// trace figure, a compiled kernel's page, a scheduler's schedule): the doctype, UTF-8, the
// generator mark publish_report_folder recognizes (kReportGenerator, cli/output/atomic_file.hpp),
// the title and one style sheet, then <body>. `style` adds a page's own rules to the shared ones.
// Example: html_head("layoutproof trace report", "tr.hot td{background:#fdd}") + "<h1>...".
// Every page is written into a folder being built and published whole (publish_report_folder).
#include <string>

#include "cli/output/atomic_file.hpp"
#include "cli/output/escape.hpp"

namespace layoutproof::cli {

// The shared rules: the table, code and verdict colours (a verdict's class is its label, or
// its lower-case form).
inline constexpr const char* kReportStyle =
    "body{font-family:DejaVu Sans,Arial,sans-serif;margin:16px;color:#111}h1{font-size:20px;margin:4px 0}h2{font-size:16px}"
    "table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #bbb;padding:3px 8px;font-size:13px}th{background:#eee}"
    "code{background:#f4f4f4;padding:1px 4px}.refuted,.REFUTED{color:#b00}.proved,.PROVED{color:#070}.REPORT{color:#036}"
    ".UNKNOWN,.ERROR{color:#850}";

inline std::string html_head(const std::string& title, const std::string& style = "") {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n" + std::string(kReportGenerator) + "\n<title>" +
         xml_escape(title) + "</title>\n<style>" + kReportStyle + style + "</style>\n</head>\n<body>\n";
}

}  // namespace layoutproof::cli
