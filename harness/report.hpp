// How every benchmark reports: a `#` header line with all parameters (and the
// machine), then one row per measurement. Text rows are aligned columns under a
// `#` column line; --format=jsonl rows are one JSON object per line carrying the
// bench name, backend and THREADS too, so a row stands on its own. Readers skip
// lines that start with '#'. tools/bench/plot_micro.py and update_tables.py read
// the jsonl form.
#pragma once
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

namespace bench {

enum class format { text, jsonl };

inline format parse_format(const std::string& s) { return s == "jsonl" ? format::jsonl : format::text; }

using value = std::variant<std::int64_t, double, std::string, bool>;
struct field {
  std::string name;
  value v;
  field(std::string n, std::int64_t x) : name(std::move(n)), v(x) {}
  field(std::string n, int x) : name(std::move(n)), v(static_cast<std::int64_t>(x)) {}
  field(std::string n, std::uint64_t x) : name(std::move(n)), v(static_cast<std::int64_t>(x)) {}
  field(std::string n, double x) : name(std::move(n)), v(x) {}
  field(std::string n, const char* x) : name(std::move(n)), v(std::string(x)) {}
  field(std::string n, std::string x) : name(std::move(n)), v(std::move(x)) {}
  field(std::string n, bool x) : name(std::move(n)), v(x) {}
};
using record = std::vector<field>;

inline std::string json_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += c;
    else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else out += c;
  }
  return out;
}

inline std::string to_text(const value& v, bool json) {
  if (auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (auto* d = std::get_if<double>(&v)) {
    if (!std::isfinite(*d)) return json ? "null" : "nan";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", *d);
    return buf;
  }
  if (auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  const std::string& s = std::get<std::string>(v);
  return json ? "\"" + json_escape(s) + "\"" : s;
}

inline std::string to_json(const record& r) {
  std::string s = "{";
  for (std::size_t i = 0; i < r.size(); ++i) {
    s += i ? ", \"" : "\"";
    s += json_escape(r[i].name);
    s += "\": ";
    s += to_text(r[i].v, true);
  }
  s += "}";
  return s;
}

// The machine, for the header: CPUs, CPU model, date, compiler.
inline std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      std::string m = colon == std::string::npos ? line : line.substr(colon + 1);
      while (!m.empty() && m.front() == ' ') m.erase(m.begin());
      return m;
    }
  return "unknown";
}
inline std::string utc_now() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}
inline record machine_fields() {
  return {{"cpus", static_cast<std::int64_t>(std::thread::hardware_concurrency())},
          {"cpu_model", cpu_model()},
          {"date", utc_now()},
#if defined(__clang__)
          {"compiler", std::string("clang ") + __clang_version__},
#elif defined(__GNUC__)
          {"compiler", std::string("gcc ") + __VERSION__},
#endif
#ifdef NDEBUG
          {"optimised", true}
#else
          {"optimised", false}
#endif
  };
}

class report {
 public:
  // `identity` (bench, backend, threads, ...) starts every jsonl row; `params`
  // are the remaining parameters, shown in the header only.
  report(format f, record identity, record params) : f_(f), identity_(std::move(identity)), params_(std::move(params)) {}

  // The `#` header line: identity, parameters, machine.
  void header() const {
    record all = identity_;
    all.insert(all.end(), params_.begin(), params_.end());
    record m = machine_fields();
    all.insert(all.end(), m.begin(), m.end());
    if (f_ == format::jsonl) {
      std::printf("# %s\n", to_json(all).c_str());
    } else {
      std::string s = "#";
      for (const field& x : all) {
        s += ' ';
        s += x.name;
        s += '=';
        s += quote_if_spaced(to_text(x.v, false));
      }
      std::printf("%s\n", s.c_str());
    }
    std::fflush(stdout);
  }

  void row(const record& r) {
    if (f_ == format::jsonl) {
      record all = identity_;
      all.insert(all.end(), r.begin(), r.end());
      std::printf("%s\n", to_json(all).c_str());
    } else {
      if (!columns_printed_) {
        std::string s = "#";
        widths_.clear();
        for (const field& x : r) {
          // Wide enough for the name and for this first row's value, strings with room.
          std::size_t w = std::max<std::size_t>({x.name.size(), to_text(x.v, false).size(), 11});
          if (std::holds_alternative<std::string>(x.v)) w = std::max<std::size_t>(w, 18);
          widths_.push_back(w);
          s += ' ';
          s += pad(x.name, w);
        }
        std::printf("%s\n", s.c_str());
        columns_printed_ = true;
      }
      std::string s = " ";
      for (std::size_t i = 0; i < r.size(); ++i) {
        s += ' ';
        s += pad(to_text(r[i].v, false), i < widths_.size() ? widths_[i] : 11);
      }
      std::printf("%s\n", s.c_str());
    }
    std::fflush(stdout);
  }

  // A note for people (text) or a comment line (jsonl); never parsed.
  void note(const std::string& text) const {
    std::printf("# %s\n", text.c_str());
    std::fflush(stdout);
  }

 private:
  static std::string pad(const std::string& s, std::size_t w) {
    return s.size() >= w ? s : std::string(w - s.size(), ' ') + s;
  }
  static std::string quote_if_spaced(const std::string& s) {
    return s.find(' ') == std::string::npos ? s : "\"" + s + "\"";
  }

  format f_;
  record identity_, params_;
  bool columns_printed_ = false;
  std::vector<std::size_t> widths_;
};

}  // namespace bench
