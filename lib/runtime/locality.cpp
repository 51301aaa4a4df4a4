// The locality report's counting (locality.hpp): the hooks each shared access
// calls while the report is on, each thread's table, and how the tables reach
// the launcher at the end (in memory on the threads and mpi backends, through
// files of a temporary directory on the processes backend).
#include "locality.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>

#include "call_site.hpp"
#include "locality_table.hpp"
#include "topology.hpp"
#include "upc/forall.hpp"
#include "upc/sptr.hpp"

namespace upc::detail {

bool g_locality = false;

namespace locality {

namespace {

settings g_settings;
backend_kind g_backend = backend_kind::threads;
const int* g_node_of = nullptr;  // by thread (g_node_map's), read on every remote access
std::string g_dir;               // processes backend: where each thread leaves its table
std::mutex g_handed_mutex;
std::vector<site_table> g_handed;
thread_local site_table* tl_table = nullptr;

tally& entry(const place& p) {
  if (!tl_table) tl_table = new site_table();
  return tl_table->at(p);
}

void count(tally& t, std::uint32_t owner, std::size_t bytes) {
  const int me = tl_mythread;
  if (static_cast<int>(owner) == me) {
    ++t.local;
    t.local_bytes += bytes;
  } else if (g_node_of[owner] == g_node_of[me]) {
    ++t.near;
    t.near_bytes += bytes;
  } else {
    ++t.far;
    t.far_bytes += bytes;
  }
}

// Inside a UPC thread, at a partition that exists (an access outside them is
// --check's to report; it is not counted).
bool countable(std::uint32_t owner) {
  return tl_mythread >= 0 && owner < static_cast<std::uint32_t>(g_threads) && g_node_of;
}

place here(const void* pc) {
  const c_site& c = tl_c_site;
  if (c.file) return place{c.file, c.line, false};
  return place{pc, 0, true};
}

std::string file_of(int thread) { return g_dir + "/t" + std::to_string(thread); }

}  // namespace

void start_counting(const settings& s, backend_kind backend) {
  g_settings = s;
  g_backend = backend;
  g_handed.clear();
  g_dir.clear();
  g_node_of = g_node_map.node_of_thread.empty() ? nullptr : g_node_map.node_of_thread.data();
  g_locality = s.report;
  if (!s.report || backend != backend_kind::processes) return;
  char tmpl[] = "/tmp/upcemu-locality-XXXXXX";
  if (!::mkdtemp(tmpl)) {
    std::fprintf(stderr, "upcemu: --report=locality: cannot create a directory in /tmp; no report\n");
    g_settings.report = false;
    g_locality = false;
    return;
  }
  g_dir = tmpl;
}

void note_access(std::uint32_t owner, std::size_t bytes, const char* file, unsigned line) {
  if (!countable(owner)) return;
  count(entry(place{file, line, false}), owner, bytes);
}

void note_copy(std::uint32_t owner, std::size_t bytes, const void* caller) {
  if (countable(owner)) count(entry(here(caller)), owner, bytes);
}

void note_copy(std::uint32_t a, std::uint32_t b, std::size_t bytes, const void* caller) {
  if (!countable(a) || !countable(b)) return;
  const int me = tl_mythread;
  const auto rank = [me](std::uint32_t t) { return static_cast<int>(t) == me ? 0 : g_node_of[t] == g_node_of[me] ? 1 : 2; };
  count(entry(here(caller)), rank(b) > rank(a) ? b : a, bytes);
}

void note_forall_every_thread(const char* file, unsigned line) {
  if (tl_mythread >= 0) ++entry(place{file, line, false}).forall_runs;
}

// The table's rows as text: "pc|file <TAB> address <TAB> line <TAB> counts";
// the addresses stay valid in the launcher, a copy of the same program.
void write_table(std::ostream& out, const site_table& table) {
  table.each([&out](const place& k, const tally& t) {
    char head[64];
    std::snprintf(head, sizeof head, "%s\t%" PRIxPTR "\t%" PRIu32, k.is_pc ? "pc" : "file",
                  reinterpret_cast<std::uintptr_t>(k.where), k.line);
    out << head << '\t' << t.local << '\t' << t.local_bytes << '\t' << t.near << '\t' << t.near_bytes << '\t' << t.far
        << '\t' << t.far_bytes << '\t' << t.forall_runs << '\n';
  });
}

site_table read_table(std::istream& in) {
  site_table table;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string kind;
    std::uintptr_t where = 0;
    place k;
    tally t;
    f >> kind >> std::hex >> where >> std::dec >> k.line >> t.local >> t.local_bytes >> t.near >> t.near_bytes >> t.far >>
        t.far_bytes >> t.forall_runs;
    if (!f || !where) continue;
    k.where = reinterpret_cast<const void*>(where);
    k.is_pc = kind == "pc";
    table.at(k) = t;
  }
  return table;
}

void hand_over_counts() {
  if (!g_locality || !tl_table) return;
  if (g_dir.empty()) {  // threads and mpi backends: the table stays in this process
    std::lock_guard<std::mutex> lock(g_handed_mutex);
    g_handed.push_back(std::move(*tl_table));
  } else {
    std::ofstream out(file_of(tl_mythread));
    write_table(out, *tl_table);
  }
  delete tl_table;
  tl_table = nullptr;
}

void report_at_exit(bool print, const gather_function& gather, bool leader) {
  const bool report = g_settings.report;
  g_locality = false;
  if (!report) return;
  std::vector<site_table> tables = std::move(g_handed);
  g_handed.clear();
  for (int t = 0; t < g_threads && !g_dir.empty(); ++t) {
    std::ifstream in(file_of(t));
    if (in) tables.push_back(read_table(in));
    std::remove(file_of(t).c_str());
  }
  if (!g_dir.empty()) ::rmdir(g_dir.c_str());
  g_dir.clear();
  make_report(tables, g_settings, gather, leader, print);
}

}  // namespace locality

// The C++ API's element accesses and upc_forall (upc/sptr.hpp, upc/forall.hpp):
// their place is the return address, inside the program's inlined code.
void note_element_locality(const shared_address& a, std::size_t bytes) {
  if (!locality::countable(a.thread)) return;
  locality::count(locality::entry(locality::place{__builtin_return_address(0), 0, true}), a.thread, bytes);
}

void note_forall_every_thread_here() {
  if (tl_mythread >= 0) ++locality::entry(locality::place{__builtin_return_address(0), 0, true}).forall_runs;
}

}  // namespace upc::detail
