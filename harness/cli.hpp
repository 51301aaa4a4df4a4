// Command-line options for the benchmarks and applications: --name=value or
// --name value, --help, sizes with K/M/G suffixes. Every UPC thread parses the
// same argv and reaches the same verdict; only thread 0 prints.
#pragma once
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace bench {

// Parses "64", "4K", "64M", "1G" (binary multiples); false on anything else.
inline bool parse_size(const std::string& text, std::uint64_t& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (errno != 0 || end == text.c_str()) return false;
  std::string suffix(end);
  std::uint64_t mult = 1;
  if (suffix == "" || suffix == "B") mult = 1;
  else if (suffix == "K" || suffix == "k" || suffix == "KiB") mult = 1ULL << 10;
  else if (suffix == "M" || suffix == "MiB") mult = 1ULL << 20;
  else if (suffix == "G" || suffix == "GiB") mult = 1ULL << 30;
  else return false;
  out = static_cast<std::uint64_t>(v) * mult;
  return true;
}

// "8", "8K", "1M" as text for headers and tables.
inline std::string format_size(std::uint64_t bytes) {
  if (bytes >= (1ULL << 30) && bytes % (1ULL << 30) == 0) return std::to_string(bytes >> 30) + "G";
  if (bytes >= (1ULL << 20) && bytes % (1ULL << 20) == 0) return std::to_string(bytes >> 20) + "M";
  if (bytes >= (1ULL << 10) && bytes % (1ULL << 10) == 0) return std::to_string(bytes >> 10) + "K";
  return std::to_string(bytes);
}

class cli {
 public:
  enum class outcome { run, help, error };

  cli(std::string program, std::string summary) : program_(std::move(program)), summary_(std::move(summary)) {}

  void add_int(const char* name, const char* help, std::int64_t* target, std::int64_t min_value = 0) {
    opts_.push_back({name, help, kind::integer, target, nullptr, nullptr, nullptr, nullptr, min_value, {}});
  }
  void add_size(const char* name, const char* help, std::uint64_t* target) {
    opts_.push_back({name, help, kind::size, nullptr, target, nullptr, nullptr, nullptr, 0, {}});
  }
  void add_real(const char* name, const char* help, double* target) {
    opts_.push_back({name, help, kind::real, nullptr, nullptr, target, nullptr, nullptr, 0, {}});
  }
  // A string whose value must be one of `choices` (any value when empty). A
  // comma-separated list of choices is accepted when `list` is true.
  void add_choice(const char* name, const char* help, std::string* target, std::vector<std::string> choices,
                  bool list = false) {
    opts_.push_back({name, help, list ? kind::choice_list : kind::choice, nullptr, nullptr, nullptr, target, nullptr, 0,
                     std::move(choices)});
  }
  void add_flag(const char* name, const char* help, bool* target) {
    opts_.push_back({name, help, kind::flag, nullptr, nullptr, nullptr, nullptr, target, 0, {}});
  }

  // Parses argv[1..]. On help or error, thread `printer` (true on one thread) prints.
  outcome parse(int argc, char** argv, bool printer) {
    for (int i = 1; i < argc; ++i) {
      std::string arg = argv[i];
      if (arg == "--help" || arg == "-h") {
        if (printer) print_help();
        return outcome::help;
      }
      if (arg.rfind("--", 0) != 0) return fail(printer, "unexpected argument '" + arg + "'");
      std::string name = arg.substr(2), value;
      bool has_value = false;
      if (auto eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
        has_value = true;
      }
      option* o = find(name);
      if (!o) return fail(printer, "unknown option --" + name + " (see --help)");
      if (o->k == kind::flag) {
        if (has_value) return fail(printer, "--" + name + " takes no value");
        *o->flag_target = true;
        continue;
      }
      if (!has_value) {
        if (i + 1 >= argc) return fail(printer, "--" + name + " needs a value");
        value = argv[++i];
      }
      std::string why = assign(*o, value);
      if (!why.empty()) return fail(printer, "--" + name + "=" + value + ": " + why);
    }
    return outcome::run;
  }

  // parse() as main() wants it: the status to exit with after --help (0) or an
  // error (2), or nothing when the benchmark should run.
  std::optional<int> exit_status(int argc, char** argv, bool printer) {
    switch (parse(argc, argv, printer)) {
      case outcome::help: return 0;
      case outcome::error: return 2;
      case outcome::run: break;
    }
    return std::nullopt;
  }

  void print_help() const {
    std::printf("usage: UPCEMU_THREADS=N [UPCEMU_BACKEND=threads|processes] %s [options]\n\n%s\n\noptions:\n",
                program_.c_str(), summary_.c_str());
    for (const option& o : opts_) {
      std::string left("  --");  // appended, not "  --" + name: GCC 12 warns falsely (-Wrestrict) on that
      left += o.name;
      switch (o.k) {
        case kind::integer: left += "=N"; break;
        case kind::size: left += "=BYTES"; break;
        case kind::real: left += "=X"; break;
        case kind::choice:
        case kind::choice_list:
          left += '=';
          left += join(o.choices, o.k == kind::choice_list ? "," : "|");
          break;
        case kind::flag: break;
      }
      std::printf("%-34s %s%s\n", left.c_str(), o.help.c_str(), default_text(o).c_str());
    }
    std::printf("  %-32s %s\n", "--help", "this text");
  }

 private:
  enum class kind { integer, size, real, choice, choice_list, flag };
  struct option {
    std::string name, help;
    kind k;
    std::int64_t* int_target;
    std::uint64_t* size_target;
    double* real_target;
    std::string* string_target;
    bool* flag_target;
    std::int64_t min_value;
    std::vector<std::string> choices;
  };

  static std::string join(const std::vector<std::string>& v, const char* sep) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
    return s;
  }

  std::string default_text(const option& o) const {
    switch (o.k) {
      case kind::integer: return " (default " + std::to_string(*o.int_target) + ")";
      case kind::size: return " (default " + format_size(*o.size_target) + ")";
      case kind::real: {
        char buf[64];
        std::snprintf(buf, sizeof buf, " (default %g)", *o.real_target);
        return buf;
      }
      case kind::choice:
      case kind::choice_list: return " (default " + *o.string_target + ")";
      case kind::flag: return "";
    }
    return "";
  }

  option* find(const std::string& name) {
    for (option& o : opts_)
      if (o.name == name) return &o;
    return nullptr;
  }

  std::string assign(option& o, const std::string& value) {
    switch (o.k) {
      case kind::integer: {
        char* end = nullptr;
        errno = 0;
        long long v = std::strtoll(value.c_str(), &end, 10);
        if (errno != 0 || end == value.c_str() || *end != '\0') return "not an integer";
        if (v < o.min_value) return "must be at least " + std::to_string(o.min_value);
        *o.int_target = v;
        return "";
      }
      case kind::size:
        if (!parse_size(value, *o.size_target)) return "not a size such as 8, 4K, 64M";
        return "";
      case kind::real: {
        char* end = nullptr;
        double v = std::strtod(value.c_str(), &end);
        if (end == value.c_str() || *end != '\0' || !(v > 0)) return "not a positive number";
        *o.real_target = v;
        return "";
      }
      case kind::choice:
      case kind::choice_list: {
        std::size_t start = 0;
        while (true) {
          std::size_t comma = o.k == kind::choice_list ? value.find(',', start) : std::string::npos;
          std::string item = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
          bool ok = o.choices.empty();
          for (const auto& c : o.choices) ok = ok || c == item;
          if (!ok) return "'" + item + "' is not one of " + join(o.choices, ", ");
          if (comma == std::string::npos) break;
          start = comma + 1;
        }
        *o.string_target = value;
        return "";
      }
      case kind::flag: return "";
    }
    return "";
  }

  outcome fail(bool printer, const std::string& what) const {
    if (printer) std::fprintf(stderr, "%s: %s\n", program_.c_str(), what.c_str());
    return outcome::error;
  }

  std::string program_, summary_;
  std::vector<option> opts_;
};

// Splits "a,b,c".
inline std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    std::size_t comma = s.find(',', start);
    out.push_back(s.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

}  // namespace bench
