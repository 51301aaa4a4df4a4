// getopt, getopt_long and getopt_long_only with their state per OS thread, so per
// UPC thread on every backend (include/upcemu_libc.h routes a program's calls and
// its optind/optarg/opterr/optopt here).
//
// glibc keeps no reentrant form of its parser public, so this is a parser of our
// own written to behave as glibc's does for the same inputs: POSIX short options
// ("ab:c::", a leading ':' for quiet errors, '+' to stop at the first non-option,
// '-' to return non-options as option 1, POSIXLY_CORRECT), GNU permutation of argv
// (options first, non-options after, "--" ends the options), and long options
// ("--name", "--name=value", unique abbreviations, "-W name" when optstring has
// "W;", single-dash long options for getopt_long_only), with glibc's messages on
// stderr. tests/unit/test_getopt.cpp compares every result, argv's final order and
// the messages with glibc's own getopt run in a child process.
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>

#include "libc_state.hpp"
#include "upcemu_libc.h"

namespace upc::detail {

namespace {

enum class order { permute, require_order, return_in_order };

struct getopt_state {
  // What the program sees as optind, opterr, optopt and optarg.
  int index = 1;
  int report = 1;
  int visible_error_char = '?';
  char* argument = nullptr;
  // The option character of the last error. As in glibc, it starts at 0 and is
  // what optopt reads after every call: a program's own write to optopt is
  // not seen by the next call.
  int error_char = 0;
  // Where the scan is: the rest of the current option element, and the
  // non-options skipped so far, argv[first_nonopt, last_nonopt).
  bool initialized = false;
  char* nextchar = nullptr;
  order ordering = order::permute;
  int first_nonopt = 1;
  int last_nonopt = 1;
};

thread_local getopt_state tl_getopt;

bool is_nonoption(char* const* argv, int i) { return argv[i][0] != '-' || argv[i][1] == '\0'; }

// The first call, or a call after the program set optind to 0: start at
// argv[1] and read the ordering from optstring (returned past its '+' or '-').
const char* start_scan(getopt_state& s, const char* optstring) {
  if (s.index == 0) s.index = 1;
  s.first_nonopt = s.last_nonopt = s.index;
  s.nextchar = nullptr;
  if (optstring[0] == '-') {
    s.ordering = order::return_in_order;
    ++optstring;
  } else if (optstring[0] == '+') {
    s.ordering = order::require_order;
    ++optstring;
  } else {
    s.ordering = getenv("POSIXLY_CORRECT") ? order::require_order : order::permute;
  }
  s.initialized = true;
  return optstring;
}

// Moves the options found since the last skipped non-options, argv[last_nonopt,
// optind), in front of those non-options, argv[first_nonopt, last_nonopt),
// keeping the order within each group.
void move_options_first(char** argv, getopt_state& s) {
  std::rotate(argv + s.first_nonopt, argv + s.last_nonopt, argv + s.index);
  s.first_nonopt += s.index - s.last_nonopt;
  s.last_nonopt = s.index;
}

struct call {
  int argc;
  char** argv;
  const char* optstring;  // past a leading '+' or '-'
  const option* longopts;
  int* longindex;
  bool long_only;
  bool print_errors;
};

bool same_meaning(const option& a, const option& b) {
  return a.has_arg == b.has_arg && a.flag == b.flag && a.val == b.val;
}

// s.nextchar is the name (after "--", "-" or "-W "), argv[s.index] its element.
// Returns what getopt returns, or -1 when getopt_long_only should read the
// element as short options instead (it names no long option but starts with a
// valid short one).
int long_option(const call& c, getopt_state& s, const char* prefix) {
  const char* name = s.nextchar;
  const char* name_end = name;
  while (*name_end && *name_end != '=') ++name_end;
  const size_t length = static_cast<size_t>(name_end - name);

  const option* found = nullptr;
  int found_index = -1;
  for (int i = 0; c.longopts[i].name; ++i)
    if (strncmp(c.longopts[i].name, name, length) == 0 && strlen(c.longopts[i].name) == length) {
      found = &c.longopts[i];
      found_index = i;
      break;
    }
  if (!found) {
    // An abbreviation: ambiguous when a later match means something else (any
    // later match, for getopt_long_only).
    bool ambiguous = false;
    for (int i = 0; c.longopts[i].name; ++i) {
      if (strncmp(c.longopts[i].name, name, length) != 0) continue;
      if (!found) {
        found = &c.longopts[i];
        found_index = i;
      } else if (c.long_only || !same_meaning(*found, c.longopts[i])) {
        ambiguous = true;
      }
    }
    if (ambiguous) {
      if (c.print_errors) {
        flockfile(stderr);
        fprintf(stderr, "%s: option '%s%s' is ambiguous; possibilities:", c.argv[0], prefix, name);
        fprintf(stderr, " '%s%s'", prefix, found->name);
        for (int i = found_index + 1; c.longopts[i].name; ++i)
          if (strncmp(c.longopts[i].name, name, length) == 0 && (c.long_only || !same_meaning(*found, c.longopts[i])))
            fprintf(stderr, " '%s%s'", prefix, c.longopts[i].name);
        fprintf(stderr, "\n");
        funlockfile(stderr);
      }
      s.nextchar += strlen(s.nextchar);
      s.index++;
      s.error_char = 0;
      return '?';
    }
  }
  if (!found) {
    if (!c.long_only || c.argv[s.index][1] == '-' || strchr(c.optstring, *s.nextchar) == nullptr) {
      if (c.print_errors) fprintf(stderr, "%s: unrecognized option '%s%s'\n", c.argv[0], prefix, name);
      s.nextchar = nullptr;
      s.index++;
      s.error_char = 0;
      return '?';
    }
    return -1;
  }

  s.index++;
  s.nextchar = nullptr;
  if (*name_end) {  // "--name=value"
    if (found->has_arg) {
      s.argument = const_cast<char*>(name_end + 1);
    } else {
      if (c.print_errors)
        fprintf(stderr, "%s: option '%s%s' doesn't allow an argument\n", c.argv[0], prefix, found->name);
      s.error_char = found->val;
      return '?';
    }
  } else if (found->has_arg == required_argument) {
    if (s.index < c.argc) {
      s.argument = c.argv[s.index++];
    } else {
      if (c.print_errors)
        fprintf(stderr, "%s: option '%s%s' requires an argument\n", c.argv[0], prefix, found->name);
      s.error_char = found->val;
      return c.optstring[0] == ':' ? ':' : '?';
    }
  }
  if (c.longindex) *c.longindex = found_index;
  if (found->flag) {
    *found->flag = found->val;
    return 0;
  }
  return found->val;
}

// The next short option character of the element s.nextchar points into.
int short_option(const call& c, getopt_state& s) {
  const char ch = *s.nextchar++;
  const char* spec = strchr(c.optstring, ch);
  // Moving on to the next element once this one's last character is taken.
  if (*s.nextchar == '\0') ++s.index;

  if (spec == nullptr || ch == ':' || ch == ';') {
    if (c.print_errors) fprintf(stderr, "%s: invalid option -- '%c'\n", c.argv[0], ch);
    s.error_char = ch;
    return '?';
  }
  const int missing = c.optstring[0] == ':' ? ':' : '?';
  if (spec[0] == 'W' && spec[1] == ';' && c.longopts) {  // "-W name" means "--name"
    char* name;
    if (*s.nextchar != '\0') {
      name = s.nextchar;
    } else if (s.index == c.argc) {
      if (c.print_errors) fprintf(stderr, "%s: option requires an argument -- '%c'\n", c.argv[0], ch);
      s.error_char = ch;
      return missing;
    } else {
      name = c.argv[s.index];
    }
    s.nextchar = name;
    s.argument = nullptr;
    call as_long = c;
    as_long.long_only = false;
    return long_option(as_long, s, "-W ");
  }
  if (spec[1] != ':') return ch;
  if (spec[2] == ':') {  // "c::": an argument only when attached
    if (*s.nextchar != '\0') {
      s.argument = s.nextchar;
      s.index++;
    } else {
      s.argument = nullptr;
    }
  } else if (*s.nextchar != '\0') {  // "c:": the rest of the element...
    s.argument = s.nextchar;
    s.index++;
  } else if (s.index == c.argc) {
    if (c.print_errors) fprintf(stderr, "%s: option requires an argument -- '%c'\n", c.argv[0], ch);
    s.error_char = ch;
    s.nextchar = nullptr;
    return missing;
  } else {  // ...or the next element
    s.argument = c.argv[s.index++];
  }
  s.nextchar = nullptr;
  return ch;
}

int scan(int argc, char* const* argv_in, const char* optstring, const option* longopts, int* longindex,
         bool long_only) {
  getopt_state& s = tl_getopt;
  if (argc < 1) return -1;
  char** argv = const_cast<char**>(argv_in);  // permuted, as glibc does behind the const
  s.argument = nullptr;
  if (s.index == 0 || !s.initialized) optstring = start_scan(s, optstring);
  else if (optstring[0] == '-' || optstring[0] == '+') ++optstring;
  const call c{argc, argv, optstring, longopts, longindex, long_only, s.report != 0 && optstring[0] != ':'};

  if (s.nextchar == nullptr || *s.nextchar == '\0') {
    // The program may have moved optind back (and changed argv) since the last call.
    s.last_nonopt = std::min(s.last_nonopt, s.index);
    s.first_nonopt = std::min(s.first_nonopt, s.index);
    if (s.ordering == order::permute) {
      if (s.first_nonopt != s.last_nonopt && s.last_nonopt != s.index) move_options_first(argv, s);
      else if (s.last_nonopt != s.index) s.first_nonopt = s.index;
      while (s.index < argc && is_nonoption(argv, s.index)) s.index++;
      s.last_nonopt = s.index;
    }
    // "--" ends the options: skip it, keep the non-options skipped before it
    // together with everything after it.
    if (s.index != argc && strcmp(argv[s.index], "--") == 0) {
      s.index++;
      if (s.first_nonopt != s.last_nonopt && s.last_nonopt != s.index) move_options_first(argv, s);
      else if (s.first_nonopt == s.last_nonopt) s.first_nonopt = s.index;
      s.last_nonopt = argc;
      s.index = argc;
    }
    if (s.index == argc) {
      // Done: optind names the first non-option (they are all at the end now).
      if (s.first_nonopt != s.last_nonopt) s.index = s.first_nonopt;
      return -1;
    }
    if (is_nonoption(argv, s.index)) {
      if (s.ordering == order::require_order) return -1;
      s.argument = argv[s.index++];  // return_in_order
      return 1;
    }
    if (longopts) {
      if (argv[s.index][1] == '-') {
        s.nextchar = argv[s.index] + 2;
        return long_option(c, s, "--");
      }
      // getopt_long_only: "-name" is a long option unless it is exactly "-f"
      // for a short option f ("-fu" may still abbreviate a long "fubar").
      if (long_only && (argv[s.index][2] || !strchr(optstring, argv[s.index][1]))) {
        s.nextchar = argv[s.index] + 1;
        const int code = long_option(c, s, "-");
        if (code != -1) return code;
      }
    }
    s.nextchar = argv[s.index] + 1;
  }
  return short_option(c, s);
}

int parse(int argc, char* const* argv, const char* optstring, const option* longopts, int* longindex,
          bool long_only) {
  const int r = scan(argc, argv, optstring, longopts, longindex, long_only);
  tl_getopt.visible_error_char = tl_getopt.error_char;
  return r;
}

}  // namespace

void reset_getopt_state() noexcept { tl_getopt = getopt_state{}; }

}  // namespace upc::detail

using upc::detail::parse;
using upc::detail::tl_getopt;

extern "C" {
int* upcemu_optind_location(void) { return &tl_getopt.index; }
int* upcemu_opterr_location(void) { return &tl_getopt.report; }
int* upcemu_optopt_location(void) { return &tl_getopt.visible_error_char; }
char** upcemu_optarg_location(void) { return &tl_getopt.argument; }

int upcemu_getopt(int argc, char* const* argv, const char* optstring) noexcept {
  return parse(argc, argv, optstring, nullptr, nullptr, false);
}
int upcemu_getopt_long(int argc, char* const* argv, const char* optstring, const option* longopts,
                       int* longindex) noexcept {
  return parse(argc, argv, optstring, longopts, longindex, false);
}
int upcemu_getopt_long_only(int argc, char* const* argv, const char* optstring, const option* longopts,
                            int* longindex) noexcept {
  return parse(argc, argv, optstring, longopts, longindex, true);
}
}
