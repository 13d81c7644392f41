#pragma once
// Escaping for the machine-readable outputs.
#include <string>

namespace layoutproof::cli {

// A JSON string literal's contents: ", \, control characters.
std::string json_escape(const std::string& s);
// Quoted JSON string: "..." with json_escape applied.
std::string json_str(const std::string& s);
// XML text and attribute escaping (&, <, >, ").
std::string xml_escape(const std::string& s);

}  // namespace layoutproof::cli
