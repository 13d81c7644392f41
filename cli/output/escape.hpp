#pragma once
// Escaping for the machine-readable outputs.
#include <string>
#include <vector>

namespace layoutproof::cli {

// A JSON string literal's contents: ", \, control characters.
std::string json_escape(const std::string& s);
// Quoted JSON string: "..." with json_escape applied.
std::string json_str(const std::string& s);
// XML text and attribute escaping (&, <, >, "); a control character, which XML 1.0 cannot hold
// even as a character reference, is written as the text \xNN (tab, LF and CR stay).
std::string xml_escape(const std::string& s);
// A name as a terminal shows it: control characters (ESC of a colour code, a NUL, a newline in a
// table cell) as the text \xNN, so a spec cannot paint or break the CI log. "a\x1b[31m" -> "a\x1b[31m" as 9 plain characters.
std::string terminal_text(const std::string& s);
// One POSIX shell word: as is when it holds only safe characters, else 'text' with each ' written
// as '\'', so a printed command pastes and runs as is. "a b" -> 'a b', "it's" -> 'it'\''s'.
std::string shell_quote(const std::string& s);
// The command line a result names as its source: `head` then each argument, shell-quoted, so it
// pastes and runs as is. command_line("layoutproof prove", {"(4,8):(8,1)"}) == "layoutproof prove '(4,8):(8,1)'".
std::string command_line(const std::string& head, const std::vector<std::string>& args);

}  // namespace layoutproof::cli
