// The flag table: parser and Options block from one list of rows (cli/flags/flag_table.hpp).
#include "cli/flags/flag_table.hpp"

#include <algorithm>
#include <cctype>

#include "cli/flags/suggest.hpp"
#include "model/support/error.hpp"

namespace layoutproof::cli {
namespace {

// "--x", "-x": an option's shape. "-", "-1", "-0x10" and "(8,32):(32,1)" are values.
// Runs the row's setter on the value; `spelled` is the word that named the row.
void call(const Flag& f, const std::string& spelled, const std::string& value) {
  if (f.set_as) {
    const std::size_t eq = spelled.find('=');
    const bool short_glued = spelled.size() > 2 && spelled[0] == '-' && spelled[1] != '-';
    f.set_as(value, short_glued ? spelled.substr(0, 2) : spelled.substr(0, eq));
  } else {
    f.set(value);
  }
}

// The Options block's width: the hand-written texts kept their lines within about 104 columns.
constexpr std::size_t kWidth = 104;

bool looks_like_option(const std::string& w) {
  if (w.size() < 2 || w[0] != '-') return false;
  return w[1] == '-' || std::isalpha(static_cast<unsigned char>(w[1]));
}

}  // namespace

FlagTable& FlagTable::value(std::vector<std::string> names, std::string value_name, std::string help,
                            std::function<void(const std::string&)> set) {
  Flag f;
  f.names = std::move(names);
  f.value = std::move(value_name);
  f.help = std::move(help);
  f.arity = Flag::Arity::one;
  f.set = std::move(set);
  return add(std::move(f));
}

FlagTable& FlagTable::toggle(std::vector<std::string> names, std::string help, std::function<void()> set) {
  Flag f;
  f.names = std::move(names);
  f.help = std::move(help);
  f.arity = Flag::Arity::none;
  f.set = [set = std::move(set)](const std::string&) { set(); };
  return add(std::move(f));
}

FlagTable& FlagTable::add(Flag f) {
  order_.push_back(static_cast<int>(rows_.size()));
  rows_.push_back(std::move(f));
  return *this;
}

FlagTable& FlagTable::positional(std::string name, std::function<void(const std::string&)> set) {
  positional_name_ = std::move(name);
  positional_ = std::move(set);
  return *this;
}

FlagTable& FlagTable::note(std::string label, std::string help) {
  notes_.emplace_back(std::move(label), std::move(help));
  order_.push_back(-static_cast<int>(notes_.size()));
  return *this;
}

FlagTable& FlagTable::describe(const std::string& name, std::string help) {
  for (Flag& f : rows_)
    if (std::find(f.names.begin(), f.names.end(), name) != f.names.end()) {
      f.help = std::move(help);
      return *this;
    }
  throw LayoutError("internal: no flag " + name + " to describe in the table of " + command_);
}

const Flag* FlagTable::find(const std::string& word, std::string& glued_value, bool& has_glued) const {
  has_glued = false;
  for (const Flag& f : rows_)
    for (const std::string& n : f.names)
      if (word == n) return &f;
  for (const Flag& f : rows_) {
    if (f.arity == Flag::Arity::none) continue;
    for (const std::string& n : f.names) {
      if (n.rfind("--", 0) == 0 && word.size() > n.size() && word.compare(0, n.size(), n) == 0 && word[n.size()] == '=') {
        glued_value = word.substr(n.size() + 1), has_glued = true;  // --claim=bijective
        return &f;
      }
      if (f.glued && n.size() == 2 && word.size() > 2 && word.compare(0, 2, n) == 0) {
        glued_value = word.substr(2), has_glued = true;  // -j4, -DNAME=EXPR
        return &f;
      }
    }
  }
  return nullptr;
}

void FlagTable::unknown(const std::string& word) const {
  std::vector<std::string> known = names();
  const std::string near = did_you_mean(word, known);
  throw LayoutError("unknown option '" + word + "' for layoutproof " + command_ +
                    (near.empty() ? " (see layoutproof " + command_ + " --help)" : near));
}

void FlagTable::parse(const std::vector<std::string>& args, std::size_t from) const {
  for (std::size_t i = from; i < args.size(); ++i) {
    const std::string& w = args[i];
    std::string glued;
    bool has_glued = false;
    const Flag* f = find(w, glued, has_glued);
    if (!f) {
      if (looks_like_option(w)) unknown(w);
      if (!positional_)
        throw LayoutError("layoutproof " + command_ + " takes no positional arguments, not '" + w + "' (see layoutproof " + command_ + " --help)");
      positional_(w);
      continue;
    }
    switch (f->arity) {
      case Flag::Arity::none:
        call(*f, w, "");
        break;
      case Flag::Arity::optional:
        if (has_glued) call(*f, w, glued);
        else if (i + 1 < args.size() && f->takes && f->takes(args[i + 1])) call(*f, w, args[++i]);
        else call(*f, w, "");
        break;
      case Flag::Arity::one:
        if (has_glued) {
          call(*f, w, glued);
          break;
        }
        if (i + 1 >= args.size())
          throw LayoutError(w + " needs a value" + (f->value.empty() ? "" : " (" + f->value + ")") + " (see layoutproof " + command_ + " --help)");
        if (args[i + 1].rfind("--", 0) == 0 && args[i + 1].size() > 2)
          throw LayoutError(w + " needs a value, not the option " + args[i + 1] + " (see layoutproof " + command_ + " --help)");
        call(*f, w, args[++i]);
        break;
    }
  }
}

std::string flag_label(const Flag& f) {
  std::string s;
  for (const std::string& n : f.names) s += (s.empty() ? "" : ", ") + n;
  if (f.arity == Flag::Arity::one && !f.value.empty()) s += " " + f.value;
  if (f.arity == Flag::Arity::optional && !f.value.empty()) s += " [" + f.value + "]";
  return s;
}

std::string FlagTable::options_block() const {
  std::vector<std::pair<std::string, std::string>> lines;  // (label, help)
  for (int k : order_) lines.push_back(k >= 0 ? std::pair{flag_label(rows_[static_cast<std::size_t>(k)]), rows_[static_cast<std::size_t>(k)].help}
                                              : notes_[static_cast<std::size_t>(-1 - k)]);
  std::size_t col = column_;
  if (col == 0) {
    for (const auto& l : lines) col = std::max(col, l.first.size() + 4);
    col = std::min<std::size_t>(col, 26);
  }
  std::string s = "Options:\n";
  for (const auto& [label, help] : lines) {
    std::string row = "  " + label;
    row += std::string(row.size() + 2 <= col ? col - row.size() : 2, ' ');
    std::size_t at = 0;
    bool first = true;
    while (true) {
      const std::size_t nl = help.find('\n', at);
      std::string line = help.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
      // A line past the block's width is wrapped at a space (a label that overflowed the column
      // moves the first line's start, so its room is what follows the label).
      while (true) {
        const std::size_t start = first ? row.size() : col;
        const std::size_t room = kWidth > start + 20 ? kWidth - start : 20;
        const std::size_t cut = line.size() > room ? line.rfind(' ', room) : std::string::npos;
        if (cut == std::string::npos || cut == 0) break;
        s += (first ? row : std::string(col, ' ')) + line.substr(0, cut) + "\n";
        first = false;
        line = line.substr(cut + 1);
      }
      s += (first ? row : std::string(col, ' ')) + line + "\n";
      first = false;
      if (nl == std::string::npos) break;
      at = nl + 1;
    }
  }
  return s;
}

std::vector<std::string> FlagTable::names() const {
  std::vector<std::string> v;
  for (const Flag& f : rows_) v.insert(v.end(), f.names.begin(), f.names.end());
  return v;
}

std::vector<std::string> options_in_help(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = text.find("\nOptions:\n");
  if (at == std::string::npos) return out;
  at += 10;
  while (at < text.size()) {
    const std::size_t nl = text.find('\n', at);
    const std::string line = text.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    at = nl == std::string::npos ? text.size() : nl + 1;
    if (line.empty() || line[0] != ' ') break;  // the block ends at a blank or unindented line
    if (line.size() < 3 || line[2] != '-') continue;  // a continuation line, or a note (a subcommand)
    // The label: up to the first run of two spaces; its spellings are separated by ", ".
    const std::string label = line.substr(2, line.find("  ", 2) == std::string::npos ? std::string::npos : line.find("  ", 2) - 2);
    std::size_t p = 0;
    while (p < label.size()) {
      const std::size_t comma = label.find(", ", p);
      const std::string part = label.substr(p, comma == std::string::npos ? std::string::npos : comma - p);
      const std::string name = part.substr(0, part.find(' '));
      if (name.size() > 1 && name[0] == '-') out.push_back(name);
      if (comma == std::string::npos) break;
      p = comma + 2;
    }
  }
  return out;
}

}  // namespace layoutproof::cli
