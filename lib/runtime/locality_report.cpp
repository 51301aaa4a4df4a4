// The locality report itself (locality.hpp): every thread's table merged by
// source line (return addresses of C++ code turned into file:line here, once
// each), sorted most remote first, and printed to stderr after the program's
// output, or written to the report file as JSON lines; then one note per
// upc_forall that gave every iteration to every thread.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "backtrace.hpp"
#include "locality_table.hpp"
#include "report_text.hpp"
#include "topology.hpp"

namespace upc::detail::locality {

namespace {

// A source line: the file (or, without line information, what is known of the
// place: a function's name) and the line (0: not known).
struct source_line {
  std::string file;
  int line = 0;
  bool operator<(const source_line& o) const { return std::tie(file, line) < std::tie(o.file, o.line); }
  std::string text() const { return line > 0 ? file + ":" + std::to_string(line) : file; }
};
using merged_rows = std::map<source_line, tally>;

// A demangled name without its parameters, clones and return type's
// template arguments: "cg::solver<cg::hand_transpose>::conj_grad".
std::string short_name(const std::string& name) {
  std::string out;
  int angle = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char ch = name[i];
    if (ch == '(' && angle == 0) {
      if (name.compare(i, 21, "(anonymous namespace)") != 0) break;
      out += "(anonymous namespace)";
      i += 20;
      continue;
    }
    if (ch == '<') ++angle;
    if (ch == '>' && angle > 0) --angle;
    out += ch;
  }
  return out.empty() ? name : out;
}

// The program's own frame at a return address (the instruction before it is
// the call): the first of its inlined functions that is the program's. An
// access made inside upcemu's own libraries (the remap library's copies, say)
// is named as such, by its function.
source_line resolve(const void* pc) {
  const frame_description d = look_up_frame(static_cast<const char*>(pc) - 1);
  for (const source_frame& f : d.functions)
    if (is_program_frame(f, d) && !f.file.empty()) return {shown_path(f.file), f.line};
  for (const source_frame& f : d.functions)
    if (is_program_frame(f, d) && !f.function.empty())
      return {short_name(f.function) + " (build with -g for its lines)", 0};
  if (!d.functions.empty() && !d.functions.front().function.empty())
    return {"inside upcemu: " + short_name(d.functions.front().function), 0};
  return {"an unknown place in " + (d.module.empty() ? std::string("the program") : d.module), 0};
}

merged_rows merge_tables(const std::vector<site_table>& tables) {
  merged_rows rows;
  std::map<const void*, source_line> resolved;  // each address looked up once
  for (const site_table& table : tables) {
    merged_rows mine;
    table.each([&](const place& k, const tally& t) {
      source_line where;
      if (!k.is_pc) {
        where = {static_cast<const char*>(k.where), static_cast<int>(k.line)};
      } else {
        auto it = resolved.find(k.where);
        if (it == resolved.end()) it = resolved.emplace(k.where, resolve(k.where)).first;
        where = it->second;
      }
      mine[where].add(t);
    });
    for (auto& [where, t] : mine) {
      t.forall_threads = t.forall_runs > 0 ? 1 : 0;  // this thread ran that upc_forall
      rows[where].add(t);
    }
  }
  return rows;
}

// The rows as text for the mpi gather, and back.
std::string rows_text(const merged_rows& rows) {
  std::ostringstream out;
  for (const auto& [k, t] : rows)
    out << k.file << '\t' << k.line << '\t' << t.local << '\t' << t.local_bytes << '\t' << t.near << '\t' << t.near_bytes
        << '\t' << t.far << '\t' << t.far_bytes << '\t' << t.forall_runs << '\t' << t.forall_threads << '\n';
  return out.str();
}
void add_rows_text(const std::string& text, merged_rows& rows) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const auto tab = line.find('\t');
    if (tab == std::string::npos) continue;
    source_line k{line.substr(0, tab), 0};
    std::istringstream f(line.substr(tab + 1));
    tally t;
    f >> k.line >> t.local >> t.local_bytes >> t.near >> t.near_bytes >> t.far >> t.far_bytes >> t.forall_runs >>
        t.forall_threads;
    if (f) rows[k].add(t);
  }
}

using row = std::pair<source_line, tally>;

// Most remote accesses first; then most local; then by file and line.
std::vector<row> access_rows(const merged_rows& rows) {
  std::vector<row> out;
  for (const auto& r : rows)
    if (r.second.local + r.second.remote() > 0) out.push_back(r);
  std::stable_sort(out.begin(), out.end(), [](const row& a, const row& b) {
    if (a.second.remote() != b.second.remote()) return a.second.remote() > b.second.remote();
    return a.second.local > b.second.local;
  });
  return out;
}

std::string forall_note(const source_line& where, const tally& t) {
  return "  note: the upc_forall at " + where.text() +
         " gives every iteration to every thread (its affinity is empty or continue); " +
         std::to_string(t.forall_threads) + (t.forall_threads == 1 ? " thread" : " threads") + " ran all of it, " +
         std::to_string(t.forall_runs) + (t.forall_runs == 1 ? " time" : " times") +
         " in all. To share the work, give it the affinity of the data each iteration writes, such as &a[i]\n";
}

void write_json(const std::string& path, bool append, const std::vector<row>& rows, const merged_rows& all) {
  std::ofstream out(path, append ? std::ios::app : std::ios::trunc);
  if (!out) {
    std::fprintf(stderr, "upcemu: --report-file: cannot write '%s'\n", path.c_str());
    return;
  }
  const std::string run = ",\"threads\":" + std::to_string(g_threads) + ",\"nodes\":" +
                          std::to_string(g_node_map.threads_of_node.size()) + "}\n";
  for (const auto& [k, t] : rows)
    out << "{\"report\":\"locality\",\"site\":" << json_string(k.text()) << ",\"file\":" << json_string(k.file)
        << ",\"line\":" << k.line << ",\"local\":" << t.local << ",\"local_bytes\":" << t.local_bytes
        << ",\"remote_same_node\":" << t.near << ",\"remote_same_node_bytes\":" << t.near_bytes
        << ",\"remote_other_node\":" << t.far << ",\"remote_other_node_bytes\":" << t.far_bytes << run;
  for (const auto& [k, t] : all)
    if (t.forall_runs)
      out << "{\"report\":\"locality_forall_every_thread\",\"site\":" << json_string(k.text()) << ",\"file\":"
          << json_string(k.file) << ",\"line\":" << k.line << ",\"threads_ran_all\":" << t.forall_threads
          << ",\"runs\":" << t.forall_runs << run;
}

// A row's place as the table shows it: a long function name (C++ without -g)
// cut, so that the columns stay readable (the report file has it whole).
std::string shown_place(const source_line& where) {
  constexpr std::size_t most = 80;
  std::string text = where.text();
  return text.size() <= most ? text : text.substr(0, most - 3) + "...";
}

void print_table(const std::vector<row>& rows, const merged_rows& all) {
  const bool by_node = g_node_map.threads_of_node.size() > 1;
  std::size_t width = 11;  // "source line"
  for (const auto& r : rows) width = std::max(width, shown_place(r.first).size());
  const int w = static_cast<int>(width);
  std::string text = "upcemu locality report: " + std::to_string(g_threads) + " threads";
  if (by_node) text += " on " + g_node_map.description;
  text += "; shared accesses by source line, most remote first\n";
  char line[1024];
  if (by_node)
    std::snprintf(line, sizeof line, "  %-*s %10s %17s %18s %9s %13s\n", w, "source line", "local", "remote same node",
                  "remote other node", "remote %", "remote bytes");
  else
    std::snprintf(line, sizeof line, "  %-*s %10s %10s %9s %13s\n", w, "source line", "local", "remote", "remote %",
                  "remote bytes");
  text += line;
  tally total;
  for (const auto& [k, t] : rows) {
    const double share = 100.0 * static_cast<double>(t.remote()) / static_cast<double>(t.local + t.remote());
    const auto n = [](std::uint64_t x) { return static_cast<unsigned long long>(x); };
    if (by_node)
      std::snprintf(line, sizeof line, "  %-*s %10llu %17llu %18llu %8.1f%% %13s\n", w, shown_place(k).c_str(), n(t.local),
                    n(t.near), n(t.far), share, bytes_text(t.near_bytes + t.far_bytes).c_str());
    else
      std::snprintf(line, sizeof line, "  %-*s %10llu %10llu %8.1f%% %13s\n", w, shown_place(k).c_str(), n(t.local),
                    n(t.remote()), share, bytes_text(t.near_bytes + t.far_bytes).c_str());
    text += line;
    total.add(t);
  }
  text += "  total: " + std::to_string(total.local) + " local, " + std::to_string(total.remote()) + " remote";
  if (by_node) text += " (" + std::to_string(total.far) + " to another node)";
  text += " accesses\n";
  for (const auto& [k, t] : all)
    if (t.forall_runs) text += forall_note(k, t);
  std::fflush(stdout);
  std::fputs(text.c_str(), stderr);
}

}  // namespace

void make_report(const std::vector<site_table>& tables, const settings& s, const gather_function& gather, bool leader,
                 bool print) {
  merged_rows all = merge_tables(tables);
  if (gather) {  // mpi: every rank's rows to the leader
    const std::vector<std::string> texts = gather(rows_text(all));
    if (!leader) return;
    all.clear();
    for (const std::string& text : texts) add_rows_text(text, all);
  }
  if (!print || !leader) return;
  const std::vector<row> rows = access_rows(all);
  if (!s.report_file.empty()) write_json(s.report_file, s.append_to_file, rows, all);
  else print_table(rows, all);
}

}  // namespace upc::detail::locality
