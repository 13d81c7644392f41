#pragma once
// The prose of every --help text (Usage, the description, Examples, Exit codes), one file per
// topic group under cli/help/. The Options blocks are not here: a text's "@OPTIONS@" line is
// replaced by the block its command's flag table generates (cli/help.cpp, cli/flags/flag_table.hpp),
// so the options listed are exactly the options parsed.

namespace layoutproof::cli::help_prose {

extern const char* const k_top;
extern const char* const k_demo;
extern const char* const k_algebra_tail;
extern const char* const k_prove;
extern const char* const k_print;
extern const char* const k_eval;
extern const char* const k_bank;
extern const char* const k_check;
extern const char* const k_merge;
extern const char* const k_catalog;
extern const char* const k_raster;
extern const char* const k_raster_trace;
extern const char* const k_raster_prove;
extern const char* const k_raster_locality;
extern const char* const k_synth;
extern const char* const k_synth_kernel;
extern const char* const k_trace;
extern const char* const k_ptx;
extern const char* const k_sass;
extern const char* const k_tensor_map;

}  // namespace layoutproof::cli::help_prose
