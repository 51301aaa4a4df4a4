#include "traffic.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>
#include <tuple>
#include <vector>

#include "mpi_session.hpp"
#include "collective_call.hpp"
#include "control.hpp"
#include "report_text.hpp"
#include "upc/runtime.hpp"

namespace upc::detail::traffic {

bool g_active = false;

namespace {

settings g_settings;
// Where each thread leaves its counts: in this process's memory on the threads
// backend (nothing to clean up if the process dies), in a temporary directory
// the launcher reads on the processes backend (a process each).
std::string g_dir;


struct counts {
  std::uint64_t calls = 0, bytes_intra = 0, bytes_inter = 0, copies_intra = 0, copies_inter = 0, fan_in = 0;
};
struct site_key {
  std::string function, site, algorithm;
  bool operator<(const site_key& o) const { return std::tie(function, site, algorithm) < std::tie(o.function, o.site, o.algorithm); }
};

thread_local std::map<site_key, counts>* tl_table = nullptr;
std::mutex g_handed_mutex;                          // threads backend: the tables handed over
std::vector<std::map<site_key, counts>> g_handed;
// The last key looked up, by its pointers: a loop of one call finds it at once.
thread_local const char *tl_fn = nullptr, *tl_file = nullptr, *tl_algo = nullptr;
thread_local std::uint32_t tl_line = 0;
thread_local counts* tl_last = nullptr;
thread_local const char* tl_task_function = nullptr;  // task_scope
thread_local const char* tl_task_algorithm = nullptr;

counts& entry(const char* algorithm) {
  const char* fn;
  const char* file;
  std::uint32_t line;
  const current_call& c = this_call();
  if (tl_task_function) {  // a non-blocking collective's task: no call site of its own
    fn = tl_task_function;
    file = nullptr;
    line = 0;
    algorithm = tl_task_algorithm ? tl_task_algorithm : "";
  } else if (c.function) {
    fn = c.function;
    file = c.file;
    line = c.line;
  } else {
    const thread_slot& s = control().slots[tl_mythread];
    fn = s.last_function.load(std::memory_order_relaxed);
    file = s.last_file.load(std::memory_order_relaxed);
    line = s.last_line.load(std::memory_order_relaxed);
  }
  if (!algorithm) algorithm = "";
  if (tl_last && fn == tl_fn && file == tl_file && line == tl_line && algorithm == tl_algo) return *tl_last;
  if (!tl_table) tl_table = new std::map<site_key, counts>();
  std::string site = file ? std::string(file) : std::string("-");
  if (auto slash = site.rfind('/'); slash != std::string::npos) site = site.substr(slash + 1);
  if (file) {
    site += ':';  // appended piecewise: ":" + string trips GCC 12's false -Wrestrict
    site += std::to_string(line);
  }
  counts& e = (*tl_table)[site_key{fn ? fn : "?", site, algorithm}];
  tl_fn = fn;
  tl_file = file;
  tl_line = line;
  tl_algo = algorithm;
  tl_last = &e;
  return e;
}

int owner_of(const void* p) noexcept {
  const char* a = static_cast<const char*>(p);
  const std::uint64_t span = static_cast<std::uint64_t>(g_threads) * g_partition_bytes;
  if (a >= g_partitions && static_cast<std::uint64_t>(a - g_partitions) < span)
    return static_cast<int>(static_cast<std::uint64_t>(a - g_partitions) / g_partition_bytes);
  return -1;
}

// The network model. Each node has one link out and one link in, each
// carrying one transfer at a time at `gbps` (the node's NIC, shared by its
// threads): a copy from node a to node b starts when a's out-link and b's
// in-link are both free, holds them for bytes / rate, and is done `latency`
// after it ends; the copying thread waits until then. The links' next free
// times live in a shared mapping made before the threads or processes start,
// on CLOCK_MONOTONIC (one clock for every process).
// words[0]: a lock; words[1 .. N]: out-links' free times, words[N+1 .. 2N]: in-links' (ns)
std::atomic<std::uint64_t>* g_links = nullptr;
std::size_t g_links_bytes = 0;

std::uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

void wait_until_ns(std::uint64_t until) {
  for (;;) {
    const std::uint64_t now = now_ns();
    if (now >= until) return;
    if (until - now > 60000) std::this_thread::sleep_for(std::chrono::nanoseconds(until - now - 30000));  // sleep, do not spin
    else std::this_thread::yield();
  }
}

void charge(std::size_t bytes, int from_node, int to_node) {
  const std::uint64_t wire = g_settings.gbps > 0 ? static_cast<std::uint64_t>(static_cast<double>(bytes) / g_settings.gbps) : 0;
  const std::uint64_t latency = static_cast<std::uint64_t>(g_settings.latency_us * 1e3);
  std::uint64_t end = now_ns() + wire;
  if (g_links && wire) {
    const int N = upc::nodes();
    std::atomic<std::uint64_t>& out = g_links[1 + from_node];
    std::atomic<std::uint64_t>& in = g_links[1 + N + to_node];
    while (g_links[0].exchange(1, std::memory_order_acquire)) std::this_thread::yield();
    const std::uint64_t start = std::max({now_ns(), out.load(std::memory_order_relaxed), in.load(std::memory_order_relaxed)});
    end = start + wire;
    out.store(end, std::memory_order_relaxed);
    in.store(end, std::memory_order_relaxed);
    g_links[0].store(0, std::memory_order_release);
  }
  wait_until_ns(end + latency);
}

std::string file_of(int thread) { return g_dir + "/t" + std::to_string(thread); }

}  // namespace

std::string report_file_problem(const std::string& path) {
  if (path.empty()) return "no file name";
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return std::strerror(EISDIR);
    if (!S_ISREG(st.st_mode))  // a pipe or a device: opening it now could block or consume
      return ::access(path.c_str(), W_OK) == 0 ? "" : std::strerror(errno);
    const int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return std::strerror(errno);
    ::close(fd);
    return "";
  }
  if (errno != ENOENT) return std::strerror(errno);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC, 0644);
  if (fd < 0) return errno == EEXIST ? "" : std::strerror(errno);  // EEXIST: made meanwhile (another rank's check)
  ::close(fd);
  ::unlink(path.c_str());
  return "";
}

bool parse_net(const std::string& text, double& latency_us, double& gbps) {
  const auto comma = text.find(',');
  if (comma == std::string::npos) return false;
  char* end = nullptr;
  const std::string a = text.substr(0, comma), b = text.substr(comma + 1);
  // Finite, and small enough that charge()'s nanoseconds fit in 64 bits for
  // any copy of a segment: "inf" or "1e300" would overflow into no wait at all.
  latency_us = std::strtod(a.c_str(), &end);
  if (a.empty() || *end || !std::isfinite(latency_us) || latency_us < 0 || latency_us > max_net_latency_us) return false;
  gbps = std::strtod(b.c_str(), &end);
  if (b.empty() || *end || !std::isfinite(gbps) || gbps < 0 || (gbps > 0 && gbps < min_net_gbps)) return false;
  return latency_us > 0 || gbps > 0;
}

void start_run(const settings& s, int nodes) {
  g_settings = s;
  g_active = s.active();
  g_dir.clear();
  if (g_links) ::munmap(g_links, g_links_bytes);
  g_links = nullptr;
  if (s.net() && nodes > 1) {
    g_links_bytes = (1 + 2 * static_cast<std::size_t>(nodes)) * sizeof(std::atomic<std::uint64_t>);
    // Shared by the workers: the processes backend's inherit the mapping; the
    // mpi backend's ranks map rank 0's (they hold times, not pointers).
    void* m = upc::current_backend() == upc::backend_kind::mpi
                  ? mpi_shared_memory(g_links_bytes)
                  : ::mmap(nullptr, g_links_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m && m != MAP_FAILED) g_links = static_cast<std::atomic<std::uint64_t>*>(m);  // zero-filled: every link free
  }
  g_handed.clear();
  const auto backend = upc::current_backend();
  // Threads: the tables are handed over in memory; mpi: each rank's in its
  // own memory, gathered to rank 0 through MPI at the end (ranks may be on
  // hosts that share no file system).
  if (!s.report || backend != upc::backend_kind::processes) return;
  // A process per thread: each writes its table into a file of one directory,
  // which the launcher reads at the end.
  char tmpl[] = "/tmp/upcemu-traffic-XXXXXX";
  const bool made = ::mkdtemp(tmpl) != nullptr;
  if (!made) {
    std::fprintf(stderr, "upcemu: --report=traffic: cannot create a directory in /tmp; no report\n");
    g_settings.report = false;
    g_active = s.net();
    return;
  }
  g_dir = tmpl;
}

void copied(const void* dst, const void* src, std::size_t bytes, int src_thread, const char* algorithm, const char* function) {
  if (!bytes) return;
  int from = owner_of(src), to = owner_of(dst);
  if (from < 0) from = src_thread >= 0 ? src_thread : tl_mythread;
  if (to < 0) to = tl_mythread;
  const bool inter = upc::node_of(from) != upc::node_of(to);
  if (g_settings.report) {
    // a one-sided copy is keyed by its own name, with no site
    const char* outer = tl_task_function;
    if (function) tl_task_function = function;
    counts& e = entry(function ? "" : algorithm);
    tl_task_function = outer;
    (inter ? e.bytes_inter : e.bytes_intra) += bytes;
    ++(inter ? e.copies_inter : e.copies_intra);
    if (function) ++e.calls;
  }
  if (inter && g_settings.net()) charge(bytes, upc::node_of(from), upc::node_of(to));
}

void fan_in(int threads_touching_mine, const char* algorithm) {
  if (!g_settings.report) return;
  counts& e = entry(algorithm);
  ++e.calls;
  e.fan_in = std::max<std::uint64_t>(e.fan_in, static_cast<std::uint64_t>(threads_touching_mine));
}

void task_scope::enter(const char* function, const char* algorithm) noexcept {
  tl_task_function = function;
  tl_task_algorithm = algorithm;
}
void task_scope::leave() noexcept {
  tl_task_function = nullptr;
  tl_task_algorithm = nullptr;
}

// A table as lines of tab-separated fields, and back (merged into `into`).
void write_table(std::ostream& out, const std::map<site_key, counts>& table) {
  for (const auto& [k, c] : table)
    out << k.function << '\t' << k.site << '\t' << k.algorithm << '\t' << c.calls << '\t' << c.bytes_intra << '\t'
        << c.bytes_inter << '\t' << c.copies_intra << '\t' << c.copies_inter << '\t' << c.fan_in << '\n';
}
template <class Merge>
void read_table(std::istream& in, Merge&& merge) {
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    site_key k;
    counts c;
    std::getline(f, k.function, '\t');
    std::getline(f, k.site, '\t');
    std::getline(f, k.algorithm, '\t');
    f >> c.calls >> c.bytes_intra >> c.bytes_inter >> c.copies_intra >> c.copies_inter >> c.fan_in;
    merge(k, c);
  }
}

void thread_done() {
  if (!g_settings.report || !tl_table) return;
  if (g_dir.empty()) {  // threads and mpi backends: the table stays in memory (mpi: this rank's)
    {
      std::lock_guard<std::mutex> lock(g_handed_mutex);
      g_handed.push_back(std::move(*tl_table));
    }
    delete tl_table;
    tl_table = nullptr;
    tl_last = nullptr;
    return;
  }
  std::ofstream out(file_of(tl_mythread));
  write_table(out, *tl_table);
  delete tl_table;
  tl_table = nullptr;
  tl_last = nullptr;
}

void finish_run(bool print) {
  const bool report = g_settings.report;
  g_active = false;
  if (!report) return;
  // mpi: every rank sends its table to rank 0 (all have finished the run).
  std::vector<std::string> rank_tables;
  if (upc::current_backend() == upc::backend_kind::mpi) {
    std::ostringstream mine;
    for (const auto& table : g_handed) write_table(mine, table);
    g_handed.clear();
    rank_tables = mpi_gather_texts(mine.str());
    if (!mpi_leader()) return;
  }
  std::map<site_key, counts> all;
  auto merge = [&all](const site_key& k, const counts& c) {
    counts& m = all[k];
    m.calls = std::max(m.calls, c.calls);  // every thread makes the call once
    m.bytes_intra += c.bytes_intra;
    m.bytes_inter += c.bytes_inter;
    m.copies_intra += c.copies_intra;
    m.copies_inter += c.copies_inter;
    m.fan_in = std::max(m.fan_in, c.fan_in);
  };
  for (const auto& table : g_handed)
    for (const auto& [k, c] : table) merge(k, c);
  g_handed.clear();
  for (const std::string& text : rank_tables) {
    std::istringstream in(text);
    read_table(in, merge);
  }
  for (int t = 0; t < g_threads && !g_dir.empty(); ++t) {
    std::ifstream in(file_of(t));
    read_table(in, merge);
    std::remove(file_of(t).c_str());
  }
  if (!g_dir.empty()) ::rmdir(g_dir.c_str());
  if (!print) return;
  std::vector<std::pair<site_key, counts>> rows(all.begin(), all.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.second.bytes_inter + a.second.bytes_intra > b.second.bytes_inter + b.second.bytes_intra;
  });
  if (!g_settings.report_file.empty()) {
    std::ofstream out(g_settings.report_file);
    if (!out) std::fprintf(stderr, "upcemu: --report-file: cannot write '%s'\n", g_settings.report_file.c_str());
    for (const auto& [k, c] : rows)
      out << "{\"site\":" << json_string(k.site) << ",\"function\":" << json_string(k.function)
          << ",\"algorithm\":" << json_string(k.algorithm) << ",\"calls\":" << c.calls << ",\"bytes_intra\":" << c.bytes_intra
          << ",\"bytes_inter\":" << c.bytes_inter << ",\"copies_intra\":" << c.copies_intra
          << ",\"copies_inter\":" << c.copies_inter << ",\"max_fan_in\":" << c.fan_in << ",\"nodes\":" << upc::nodes()
          << ",\"threads\":" << g_threads << "}\n";
    return;
  }
  std::string text = "upcemu traffic report: " + std::to_string(g_threads) + " threads on " + upc::topology_description();
  if (g_settings.net()) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "; network model %.3g us + %.3g GB/s", g_settings.latency_us, g_settings.gbps);
    text += buf;
  }
  text += "\n";
  char line[512];
  std::snprintf(line, sizeof line, "  %-24s %-32s %-18s %8s %12s %12s %10s %10s %7s\n", "site", "function", "algorithm", "calls",
                "intra-node", "inter-node", "copies in", "copies x", "fan-in");
  text += line;
  counts total;
  for (const auto& [k, c] : rows) {
    std::snprintf(line, sizeof line, "  %-24s %-32s %-18s %8llu %12s %12s %10llu %10llu %7llu\n", k.site.c_str(), k.function.c_str(),
                  k.algorithm.empty() ? "-" : k.algorithm.c_str(), static_cast<unsigned long long>(c.calls),
                  bytes_text(c.bytes_intra).c_str(), bytes_text(c.bytes_inter).c_str(),
                  static_cast<unsigned long long>(c.copies_intra), static_cast<unsigned long long>(c.copies_inter),
                  static_cast<unsigned long long>(c.fan_in));
    text += line;
    total.bytes_intra += c.bytes_intra;
    total.bytes_inter += c.bytes_inter;
  }
  text += "  total: " + bytes_text(total.bytes_intra) + " within nodes, " + bytes_text(total.bytes_inter) + " between nodes\n";
  std::fflush(stdout);
  std::fputs(text.c_str(), stderr);
}

}  // namespace upc::detail::traffic
