// SpamC (seed 003 §4.3): like WordC, over a set of e-mails, counting the
// occurrences of 256 words related to malware — and, as key 256, the e-mails
// that contain at least one of them. The keys are the words' numbers (fixed
// size), so ApplyReduce moves the pairs with the typed _v_priv collectives. The
// map emits (word number, 1) per malware word of an e-mail, or, array-based,
// counts this thread's block of e-mails first; the reduce adds the counts of
// each key. Checked against the counts made sequentially (with --gather=none,
// of the e-mails this thread mapped).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <vector>

#include "mr_answer.hpp"
#include "mr_app.hpp"
#include "mr_inputs.hpp"
#include "upc.h"
#include "upc_mr.h"

namespace {

constexpr int keywords = 256, matching_mails = keywords, counters = keywords + 1;

mrapp::options opt;
std::vector<std::string> g_mails;                  // made before the threads start
std::vector<std::string> g_keywords;               // the 256 malware words
std::unordered_map<std::string, int> g_keyword_of;  // word -> its number (read-only)
std::vector<long long> g_counts;                   // the answer, counted sequentially

struct mailbox {
  const char* const* mails;
  long long count;
};

// sloc mapreduce/spamc comp begin
// The malware words of one e-mail: f(word number) for each occurrence.
template <class F>
int scan(const char* mail, F&& f) {
  char word[mrapp::max_word + 1];
  int found = 0;
  mrapp::for_each_word(mail, word, [&](const char* w, int) {
    const auto it = g_keyword_of.find(w);
    if (it != g_keyword_of.end()) f(it->second), ++found;
  });
  return found;
}

// Element-by-element map: an e-mail gives (word number, 1) per malware word,
// and (256, 1) if it had any.
int spamc_map(void* mail, void* key, void* value) {
  const long long one = 1;
  const int k = matching_mails;
  if (scan(static_cast<const char*>(mail), [&](int w) { upc_mr_emit(key, value, &w, sizeof w, &one, sizeof one); }) > 0)
    upc_mr_emit(key, value, &k, sizeof k, &one, sizeof one);
  return 0;
}

// Array-based map: this thread's block of e-mails, counted here first.
int spamc_map_array(void* input, void* key, void* value) {
  const mailbox* box = static_cast<const mailbox*>(input);
  std::vector<long long> count(counters, 0);
  const long long first = MYTHREAD * box->count / THREADS, last = (MYTHREAD + 1) * box->count / THREADS;
  for (long long m = first; m < last; ++m)
    if (scan(box->mails[m], [&](int w) { ++count[static_cast<std::size_t>(w)]; }) > 0) ++count[matching_mails];
  for (int k = 0; k < counters; ++k)
    if (count[static_cast<std::size_t>(k)]) upc_mr_emit(key, value, &k, sizeof k, &count[static_cast<std::size_t>(k)], sizeof(long long));
  return 0;
}

// Reduce: the counts of each key added up.
int spamc_reduce(void* keys, void* values, int nelems, void* result) {
  long long* count = static_cast<long long*>(std::calloc(counters, sizeof(long long)));
  if (count == nullptr) return -1;
  for (int i = 0; i < nelems; ++i) count[static_cast<int*>(keys)[i]] += static_cast<long long*>(values)[i];
  *static_cast<void**>(result) = count;
  return 0;
}
// sloc mapreduce/spamc comp end

std::vector<long long> counts_of(const std::vector<int>& which) {
  std::vector<long long> count(counters, 0);
  for (int m : which)
    if (scan(g_mails[static_cast<std::size_t>(m)].c_str(), [&](int w) { ++count[static_cast<std::size_t>(w)]; }) > 0)
      ++count[matching_mails];
  return count;
}

bool same(const long long* got, const std::vector<long long>& want, const char* what) {
  if (got == nullptr) {
    std::printf("spamc: thread %d: no counts (%s)\n", MYTHREAD, what);
    return false;
  }
  for (int k = 0; k < counters; ++k)
    if (got[k] != want[static_cast<std::size_t>(k)]) {
      std::printf("spamc: thread %d: %s %s: %lld, expected %lld\n", MYTHREAD, what,
                  k == matching_mails ? "e-mails with malware words" : g_keywords[static_cast<std::size_t>(k)].c_str(), got[k],
                  want[static_cast<std::size_t>(k)]);
      return false;
    }
  return true;
}

int spamc() {
  const int n = static_cast<int>(opt.size);
  // sloc mapreduce/spamc decl begin
  std::vector<void*> elements(static_cast<std::size_t>(n));  // the input list: a pointer per e-mail
  std::vector<const char*> texts(static_cast<std::size_t>(n));
  std::vector<int> length(static_cast<std::size_t>(n));  // an e-mail's weight: its bytes
  for (int i = 0; i < n; ++i) {
    texts[static_cast<std::size_t>(i)] = g_mails[static_cast<std::size_t>(i)].c_str();
    elements[static_cast<std::size_t>(i)] = const_cast<char*>(texts[static_cast<std::size_t>(i)]);
    length[static_cast<std::size_t>(i)] = static_cast<int>(g_mails[static_cast<std::size_t>(i)].size());
  }
  std::vector<int> weights = mrapp::weights_with_threshold(opt, length);
  mailbox whole{texts.data(), n};
  // sloc mapreduce/spamc decl end

  upc_barrier;
  const double start = mrapp::now_s();
  // sloc mapreduce/spamc comp begin
  const int pairs = opt.array_map() ? ApplyMap(spamc_map_array, &whole, n, UPC_MR_USER_DISTR, 0, nullptr)
                                    : ApplyMap(spamc_map, elements.data(), n, UPC_MR_FRAMEWORK_DISTR, opt.algorithm(),
                                               mrapp::weights_for(opt, weights));
  // sloc mapreduce/spamc comp end
  // sloc mapreduce/spamc comm begin
  long long* count =
      static_cast<long long*>(ApplyReduce(spamc_reduce, pairs, opt.gath_flag(), opt.coll_flag(), sizeof(int), sizeof(long long)));
  // sloc mapreduce/spamc comm end
  upc_barrier;
  const double seconds = mrapp::now_s() - start;

  const bool verified =
      mrapp::verify_reduced(opt, count, [&] { return counts_of(mrapp::my_elements(opt, n, weights)); }, g_counts, "", same);
  const int g = opt.gath_flag();
  if (count != nullptr && MYTHREAD == (g == UPC_MR_ALLCOMM ? 0 : g)) {
    long long occurrences = 0;
    int top = 0;
    for (int k = 0; k < keywords; ++k) {
      occurrences += count[k];
      if (count[k] > count[top]) top = k;
    }
    std::printf("spamc: %lld of %d e-mails have malware words, %lld occurrences; the most frequent: \"%s\" (%lld)\n",
                count[matching_mails], n, occurrences, g_keywords[static_cast<std::size_t>(top)].c_str(), count[top]);
  }
  bench::record extra;
  if (count && mrapp::prints_answer(opt)) extra = {{"answer", mrapp::digest_of_counts(count, counters)}};
  std::free(count);
  return mrapp::report("spamc", opt, seconds, verified, pairs, extra);
}

}  // namespace

int main(int argc, char** argv) {
  opt.size = 2000;
  bench::cli cli("spamc", "UPC-MR SpamC (seed 003 §4.3): occurrences of 256 malware words in generated e-mails");
  cli.add_int("size", "e-mails (30 to 300 words each)", &opt.size, 0);
  if (auto status = mrapp::parse(cli, opt, argc, argv, "spamc", 1 << 22)) return *status;
  g_mails = mrapp::make_emails(opt.size, static_cast<std::uint64_t>(opt.seed));
  // sloc mapreduce/spamc decl begin
  g_keywords = mrapp::spam_keywords();
  for (int k = 0; k < keywords; ++k) g_keyword_of[g_keywords[static_cast<std::size_t>(k)]] = k;
  // sloc mapreduce/spamc decl end
  if (g_keyword_of.size() != keywords) {
    std::fprintf(stderr, "spamc: the malware words are not %d distinct words\n", keywords);
    return 1;
  }
  g_counts = counts_of(mrapp::every_element(opt.size));
  long long occurrences = 0;
  for (int k = 0; k < keywords; ++k) occurrences += g_counts[static_cast<std::size_t>(k)];
  // pairs: (number, count) per occurrence and matching e-mail, 12 bytes each
  return apps::launch("spamc", mrapp::heap_for(static_cast<std::uint64_t>(occurrences + opt.size) * 20), spamc);
}
