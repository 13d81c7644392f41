// The `schedulers:` section of a spec (cli/spec/spec.hpp): a kernel library's persistent tile
// scheduler configurations, gated like layouts. Each entry is what `layoutproof raster prove KIND`
// takes on its command line (docs/raster.md "Persistent tile schedulers"), its keys the flags in
// snake_case:
//
//   schedulers:
//     - name: gemm_128x128_cluster2x1   # names the subject in every output
//       kind: sm90-persistent           # sm90-persistent | sm90-group | sm90-stream-k | sm100-persistent | sm100-group | sm100-stream-k
//       tiles: [32, 16, 1]              # the problem in CTA tiles: [M, N] or [M, N, L], or "32x16x1"
//       groups: ["2x3", [5, 4]]         # the group kinds instead of tiles: each group's M x N ("2x3,5x4" too)
//       cluster: [2, 1]                 # or "2x1"; each a power of two up to 16
//       max_swizzle: 4                  # a power of two
//       raster: heuristic               # along-m | along-n | heuristic
//       sms: 132
//       max_active_clusters: 0          # optional (0: get_max_cta_occupancy's rule)
//       k_tiles: 40                     # the stream-K kinds: k blocks per tile; also splits,
//       splits: 1                       #   decomposition (heuristic | data-parallel | split-k |
//       decomposition: heuristic        #   stream-k), reduction (deterministic | nondeterministic)
//       corrected: false                # the group kinds: the fixed early-exit bound
//       atom_m: 1                       # sm100-group: the AtomThrShape's M (2: a 2-SM MMA)
//       cluster_type: static            # sm100-group: static | dynamic (the cluster shape given at run time)
//       max_tiles: 16                   # the bounds of a free problem (tiles or groups left out): M, N
//       max_groups: 3                   #   in [1, max_tiles] (default 16; stream-K 8, groups 3), 1..max_groups groups
//       claims: [exactly-once, in-range, balance]   # and k-exactly-once (the stream-K kinds)
//       deadline_s: 30                  # optional: each claim's time limit, from its start
//
// A parameter left out is free: the claim is decided for every value of the domain
// proofs/raster/scheduler_query.hpp states (`raster prove` the same), and a refutation names the
// smallest failing configuration.
//
// Everything is checked here, before any claim is decided, each error located on the spec's own
// node (exit 2): unknown keys and values (with the closest name), extents out of range, a cluster
// or swizzle that is not a power of two, keys of another kind, splits > 1 with a decomposition
// CUTLASS's can_implement refuses, k-exactly-once on a kind without k ranges, a domain of more
// configurations than a search lists (at `max_tiles` or `max_groups`, naming the largest values
// that fit); then the query itself (scheduler_domain, and raster::validate on every configuration
// of its domain, the checks the model runs when a schedule is built), located at the entry. One check per claim follows, decided
// by run_check through prove_scheduler_query.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <memory>
#include <set>

#include "cli/output/escape.hpp"  // shell_quote
#include "cli/spec/spec_schema.hpp"
#include "model/atoms/name_suggest.hpp"
#include "model/raster/stream_k.hpp"
#include "proofs/claims/deadline.hpp"
#include "proofs/raster/scheduler_query.hpp"

namespace layoutproof::cli {
namespace {

using i64 = std::int64_t;
using proofs::Check;
using proofs::SchedulerClaim;
using proofs::SchedulerQuery;

constexpr i64 kMaxExtent = i64{1} << 31;  // CUTLASS's uint32 tile counts (model/raster/persistent.hpp validate)

SourceLocation where(const SpecSource& src, const YAML::Node& n) {
  const YAML::Mark m = n.Mark();
  return {src.path(), m.line + 1, m.column + 1};
}

// The key's own node (the caret goes under `k_tiles`, not under its value).
YAML::Node key_node(const YAML::Node& entry, const std::string& key) {
  for (const auto& kv : entry)
    if (kv.first.IsScalar() && kv.first.Scalar() == key) return kv.first;
  return entry;
}

bool pow2(i64 v) { return v > 0 && (v & (v - 1)) == 0; }

// One number of an extent list: `text` is the piece at `offset` of the node's scalar (0 for a list
// item), an integer in [lo, hi] whose range `range` states in words.
i64 number_at(const SpecSource& src, const YAML::Node& n, std::size_t offset, const std::string& text, const std::string& key, i64 lo, i64 hi,
              const std::string& range) {
  std::size_t i = text[0] == '-' || text[0] == '+' ? 1 : 0;
  if (i == text.size() || text.find_first_not_of("0123456789", i) != std::string::npos)
    src.fail_in_scalar(n, offset, "'" + key + "' takes whole numbers, not '" + text + "'");
  i64 v = 0;
  for (; i < text.size(); ++i) v = v > hi ? v : v * 10 + (text[i] - '0');  // past hi it stays out of range (hi < 2^40)
  if (text[0] == '-') v = -v;
  if (v < lo || v > hi) src.fail_in_scalar(n, offset, "'" + key + "' has " + text + ": " + range);
  return v;
}

// The numbers of `t`, the part of the node's scalar that starts at `base`, separated by any of `seps`.
std::vector<i64> numbers_in(const SpecSource& src, const YAML::Node& n, const std::string& t, std::size_t base, const char* seps,
                            const std::string& key, const std::string& form, i64 lo, i64 hi, const std::string& range) {
  std::vector<i64> out;
  std::size_t at = 0;
  while (true) {
    const std::size_t sep = t.find_first_of(seps, at);
    std::string piece = t.substr(at, sep == std::string::npos ? std::string::npos : sep - at);
    const std::size_t first = piece.find_first_not_of(' ');  // "32, 16, 1" reads as "32,16,1"
    const std::size_t lead = first == std::string::npos ? 0 : first;
    piece = first == std::string::npos ? std::string() : piece.substr(first, piece.find_last_not_of(' ') + 1 - first);
    if (piece.empty()) src.fail_in_scalar(n, base + at, "'" + key + "' is " + form + ", not '" + t + "'");
    out.push_back(number_at(src, n, base + at + lead, piece, key, lo, hi, range));
    if (sep == std::string::npos) break;
    at = sep + 1;
  }
  return out;
}

// [A, B(, C)] or "AxB(xC)" / "A,B(,C)": between `lo_count` and `hi_count` integers in [lo, hi].
std::vector<i64> numbers(const SpecSource& src, const YAML::Node& n, const std::string& key, std::size_t lo_count, std::size_t hi_count, i64 lo,
                         i64 hi, const std::string& range) {
  const std::string form = hi_count == 2 ? "[A, B] or \"AxB\"" : "[M, N] or [M, N, L], or \"MxN\" / \"MxNxL\"";
  std::vector<i64> out;
  if (n.IsSequence()) {
    if (n.size() < lo_count || n.size() > hi_count) src.fail(n, "'" + key + "' is " + form + "; this list has " + std::to_string(n.size()) + (n.size() == 1 ? " number" : " numbers"));
    for (const auto& x : n) {
      if (!x.IsScalar() || x.Scalar().empty()) src.fail(x, "'" + key + "' takes whole numbers");
      out.push_back(number_at(src, x, 0, x.Scalar(), key, lo, hi, range));
    }
    return out;
  }
  if (!n.IsScalar() || n.Scalar().empty()) src.fail(n, "'" + key + "' is " + form);
  out = numbers_in(src, n, n.Scalar(), 0, ",x", key, form, lo, hi, range);
  if (out.size() < lo_count || out.size() > hi_count) src.fail(n, "'" + key + "' is " + form + ", not '" + n.Scalar() + "'");
  return out;
}

// groups: a list whose items are [M, N] or "MxN", a text item holding one or more groups
// ("2x3,5x4", as --groups takes them).
std::vector<std::array<i64, 2>> groups_of(const SpecSource& src, const YAML::Node& entry, const std::string& range) {
  const YAML::Node n = entry["groups"];
  const std::vector<YAML::Node> items = spec_list(src, entry, "groups");
  if (items.empty()) src.fail(n, "'groups' lists each group's M x N: [\"2x3\", [5, 4]]");
  std::vector<std::array<i64, 2>> gs;
  const std::string form = "[M, N] or \"MxN\"";
  for (const YAML::Node& g : items) {
    if (g.IsSequence()) {
      const auto v = numbers(src, g, "groups", 2, 2, 1, kMaxExtent, range);
      gs.push_back({v[0], v[1]});
      continue;
    }
    if (!g.IsScalar() || g.Scalar().empty()) src.fail(g, "a group is " + form);
    const std::string t = g.Scalar();
    std::size_t at = 0;
    while (true) {
      const std::size_t comma = t.find(',', at);
      const std::string one = t.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
      const auto v = numbers_in(src, g, one, at, "x", "groups", form, 1, kMaxExtent, range);
      if (v.size() != 2) src.fail_in_scalar(g, at, "a group is " + form + ", not '" + one + "'");
      gs.push_back({v[0], v[1]});
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
    if (gs.size() > 4096) src.fail(g, "'groups' lists more than the model's 4096 groups");
  }
  return gs;
}

// One of `names`; an unknown one names the closest.
std::size_t choice(const SpecSource& src, const YAML::Node& n, const std::string& key, const std::vector<std::string>& names) {
  std::string all;
  for (std::size_t k = 0; k < names.size(); ++k) all += (k ? k + 1 == names.size() ? " or " : ", " : "") + names[k];
  if (!n.IsScalar() || n.Scalar().empty()) src.fail(n, "'" + key + "' is " + all);
  for (std::size_t k = 0; k < names.size(); ++k)
    if (n.Scalar() == names[k]) return k;
  std::string msg = "'" + key + "' is " + all + ", not '" + n.Scalar() + "'";
  if (const auto near = nearest(n.Scalar(), names)) msg += "; did you mean '" + *near + "'?";
  src.fail(n, msg);
}

// Keys that apply to some kinds only: an error at the key, before its value is read.
void refuse_foreign_keys(const SpecSource& src, const YAML::Node& entry, const std::string& kind) {
  const bool group = kind == "sm90-group" || kind == "sm100-group", stream_k = proofs::is_stream_k_kind(kind);
  if (group && entry["tiles"]) src.fail(key_node(entry, "tiles"), kind + " takes 'groups' (each group's M x N), not 'tiles'");
  if (!group && entry["groups"]) src.fail(key_node(entry, "groups"), kind + " takes 'tiles', not 'groups' (sm90-group and sm100-group only)");
  if (!group && entry["corrected"])
    src.fail(key_node(entry, "corrected"),
             "'corrected' is the grouped scheduler's fixed early-exit bound: sm90-group and sm100-group only, not " + kind);
  if (!group && entry["max_groups"])
    src.fail(key_node(entry, "max_groups"), "'max_groups' bounds free groups: sm90-group and sm100-group only, not " + kind);
  if (kind != "sm100-group")
    for (const char* key : {"atom_m", "cluster_type"})
      if (entry[key]) src.fail(key_node(entry, key), std::string("'") + key + "' applies to sm100-group only (its host grid), not " + kind);
  if (group && entry["max_tiles"] && entry["groups"])
    src.fail(key_node(entry, "max_tiles"), "'max_tiles' bounds a free problem; this entry gives its groups");
  if (group && entry["max_groups"] && entry["groups"])
    src.fail(key_node(entry, "max_groups"), "'max_groups' bounds free groups; this entry gives its groups");
  if (!group && entry["max_tiles"] && entry["tiles"])
    src.fail(key_node(entry, "max_tiles"), "'max_tiles' bounds free tiles; this entry gives its tiles");
  if (!stream_k)
    for (const char* key : {"k_tiles", "splits", "decomposition", "reduction"})
      if (entry[key]) src.fail(key_node(entry, key), std::string("'") + key + "' applies to sm90-stream-k and sm100-stream-k only, not " + kind);
}

// The entry's query, every value checked at its node.
SchedulerQuery read_query(const SpecSource& src, const YAML::Node& entry, const std::string& what) {
  SchedulerQuery q;
  const YAML::Node kind_node = spec_need(src, entry, "kind", what);
  q.kind = proofs::scheduler_kinds()[choice(src, kind_node, "kind", proofs::scheduler_kinds())];
  refuse_foreign_keys(src, entry, q.kind);
  const std::string extent_range = "each extent is from 1 to 2^31 (CUTLASS's uint32 tile counts)";
  if (const YAML::Node n = entry["tiles"]) {
    const auto v = numbers(src, n, "tiles", 2, 3, 1, kMaxExtent, extent_range);
    q.tiles = std::array<i64, 3>{v[0], v[1], v.size() > 2 ? v[2] : 1};
  }
  if (entry["groups"]) q.groups = groups_of(src, entry, extent_range);
  if (const YAML::Node n = entry["cluster"]) {
    const auto v = numbers(src, n, "cluster", 2, 2, 1, 16, "each extent is 1, 2, 4, 8 or 16");
    for (std::size_t k = 0; k < 2; ++k)
      if (!pow2(v[k]))
        src.fail(n.IsSequence() ? n[k] : n, "'cluster' extent " + std::to_string(v[k]) +
                                                " is not a power of two (1, 2, 4, 8 or 16: CUTLASS's FastDivmodU64Pow2 divides by the cluster shape)");
    q.cluster = std::array<i64, 2>{v[0], v[1]};
  }
  if (const YAML::Node n = entry["max_swizzle"]) {
    q.max_swizzle = spec_integer(src, n, "max_swizzle", 1, i64{1} << 20);
    if (!pow2(*q.max_swizzle)) src.fail(n, "'max_swizzle' " + n.Scalar() + " is not a power of two (1, 2, 4, 8, ...)");
  }
  if (const YAML::Node n = entry["raster"]) {
    static const std::vector<std::string> names{"along-m", "along-n", "heuristic"};
    static const raster::RasterOption values[] = {raster::RasterOption::along_m, raster::RasterOption::along_n, raster::RasterOption::heuristic};
    q.raster = values[choice(src, n, "raster", names)];
  }
  if (const YAML::Node n = entry["sms"]) q.sms = spec_integer(src, n, "sms", 1, i64{1} << 20);
  if (const YAML::Node n = entry["max_active_clusters"]) q.max_active_clusters = spec_integer(src, n, "max_active_clusters", 0, i64{1} << 20);
  if (const YAML::Node n = entry["k_tiles"]) q.k_tiles = spec_integer(src, n, "k_tiles", 1, kMaxExtent - 1);
  if (const YAML::Node n = entry["splits"]) q.splits = spec_integer(src, n, "splits", 1, i64{1} << 20);
  if (const YAML::Node n = entry["decomposition"]) {
    static const std::vector<std::string> names{"heuristic", "data-parallel", "split-k", "stream-k"};
    static const raster::Decomposition values[] = {raster::Decomposition::heuristic, raster::Decomposition::data_parallel,
                                                   raster::Decomposition::split_k, raster::Decomposition::stream_k};
    q.decomposition = values[choice(src, n, "decomposition", names)];
  }
  if (const YAML::Node n = entry["reduction"]) {
    static const std::vector<std::string> names{"deterministic", "nondeterministic"};
    q.reduction = choice(src, n, "reduction", names) == 0 ? raster::Reduction::deterministic : raster::Reduction::nondeterministic;
  }
  // CUTLASS's can_implement: splits > 1 only with the heuristic or split-K decomposition.
  if (q.splits && *q.splits > 1 && q.decomposition && *q.decomposition != raster::Decomposition::heuristic &&
      *q.decomposition != raster::Decomposition::split_k)
    src.fail(entry["splits"], "'splits' " + std::to_string(*q.splits) + " with decomposition " + raster::to_string(*q.decomposition) +
                                  ": CUTLASS's can_implement refuses splits > 1 unless the decomposition is heuristic or split-k");
  if (const YAML::Node n = entry["corrected"]) q.corrected = choice(src, n, "corrected", {"false", "true"}) == 1;
  if (const YAML::Node n = entry["max_tiles"]) q.max_tiles = spec_integer(src, n, "max_tiles", 1, 256);
  if (const YAML::Node n = entry["max_groups"]) q.max_groups = spec_integer(src, n, "max_groups", 1, 4);
  if (const YAML::Node n = entry["atom_m"]) q.atom_m = spec_integer(src, n, "atom_m", 1, 2);
  if (const YAML::Node n = entry["cluster_type"]) q.dynamic_cluster = choice(src, n, "cluster_type", {"static", "dynamic"}) == 1;
  return q;
}

// The query as the model takes it: its domain built and every configuration validated (the checks
// plan_persistent, plan_group and plan_stream_k make), so that no claim meets a refused one later.
// Located at the entry: the error may come from several keys together (2^31 tiles rounded up by a
// cluster of 2 pass the 2^40 bound alone, not in every configuration).
void validate_query(const SpecSource& src, const YAML::Node& entry, const SchedulerQuery& q) {
  // A domain too large to list is refused at the bound that asks for it (the entry when the
  // kind's defaults do), naming the largest bounds that fit: never proved over a smaller one.
  std::string why;
  try {
    why = proofs::unlistable_domain(q, proofs::Spelling::spec_keys);
  } catch (const LayoutError& e) {
    src.fail(entry, e.what());
  }
  if (!why.empty()) src.fail(entry["max_tiles"] ? entry["max_tiles"] : entry["max_groups"] ? entry["max_groups"] : entry, why);
  proofs::SchedulerDomain d;
  try {
    d = proofs::scheduler_domain(q);
  } catch (const LayoutError& e) {
    src.fail(entry, e.what());
  }
  if (d.size() == 0) src.fail(entry, "the scheduler's domain holds no configuration (" + d.text + ")");
  for (const auto& config : d.configs)
    std::visit(
        [&](const auto& c) {
          try {
            raster::validate(c);
          } catch (const LayoutError& e) {
            src.fail(entry, (d.size() == 1 ? std::string() : "the domain's configuration " + proofs::config_text(c) + ": ") + e.what());
          }
        },
        config);
}

}  // namespace

std::vector<Check> scheduler_checks(const SpecSource& src, const YAML::Node& entries, bool allow_empty) {
  std::vector<Check> checks;
  std::set<std::string> names;
  const std::string what = "a scheduler entry";
  for (const auto& entry : entries) {
    check_keys(src, entry, SpecLevel::scheduler);
    const std::string name = spec_unique_name(src, entry, what, names);
    const auto q = std::make_shared<const SchedulerQuery>(read_query(src, entry, what));
    std::vector<std::pair<SchedulerClaim, YAML::Node>> claims;
    for (const YAML::Node& n : spec_claims(src, entry)) {
      static const std::vector<std::string> known{"exactly-once", "in-range", "balance", "k-exactly-once", "launches"};
      if (!n.IsScalar() || n.Scalar().empty()) src.fail(n, "a claim is one word: exactly-once, in-range, balance, k-exactly-once or launches");
      const auto claim = proofs::parse_scheduler_claim(n.Scalar());
      if (!claim) {
        std::string msg = "unknown claim '" + n.Scalar() + "' for a scheduler (exactly-once, in-range, balance, k-exactly-once, launches)";
        if (const auto near = nearest(n.Scalar(), known)) msg += "; did you mean '" + *near + "'?";
        src.fail(n, msg);
      }
      if (*claim == SchedulerClaim::k_exactly_once && !proofs::is_stream_k_kind(q->kind))
        src.fail(n, "k-exactly-once is about stream-K's k ranges: the kinds are sm90-stream-k and sm100-stream-k, not " + q->kind);
      claims.push_back({*claim, n});
    }
    std::optional<double> deadline_s;
    if (entry["deadline_s"])
      deadline_s = [&] {
        try {
          return proofs::Deadline::parse(spec_scalar(src, entry, "deadline_s", what), "deadline_s").seconds;
        } catch (const LayoutError& e) {
          src.fail(entry["deadline_s"], e.what());
        }
      }();
    validate_query(src, entry, *q);
    if (claims.empty()) {
      if (!allow_empty) src.fail(entry, "scheduler entry '" + name + "' has no claims: it proves nothing (--allow-empty lets it)");
      continue;
    }
    std::string command = "layoutproof raster prove";
    {
      const std::string flags = proofs::scheduler_flags(*q);
      std::size_t at = 0;
      while (at < flags.size()) {  // words and numbers: quoted anyway, as every command cell is
        const std::size_t sp = flags.find(' ', at);
        command += " " + shell_quote(flags.substr(at, sp == std::string::npos ? std::string::npos : sp - at));
        if (sp == std::string::npos) break;
        at = sp + 1;
      }
    }
    for (const auto& [claim, node] : claims) {
      Check c;
      c.name = name;
      c.subject = proofs::SchedulerSubject{q, q->kind};
      c.claim = {proofs::to_string(claim), claim};
      c.deadline_s = deadline_s;
      c.origin.where = where(src, node);
      c.origin.command = command + " --claim " + c.claim.text;
      checks.push_back(std::move(c));
    }
  }
  return checks;
}

}  // namespace layoutproof::cli
