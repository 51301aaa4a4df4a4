// WordC (seed 003 §4.3): how many times each distinct word occurs in a set of
// text documents, with UPC-MR. The keys are the words themselves (strings of
// different lengths), so ApplyReduce moves them with the _raw collectives and
// hands the reduce an index of where each key starts (§4.2.2). The map emits
// (word, 1) for every word of a document, or, array-based, counts the words of
// this thread's block of documents first and emits (word, count); the reduce
// adds the counts of each word, which arrive grouped. Checked against the
// counts made sequentially (with --gather=none, of the documents this thread
// mapped).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "mr_answer.hpp"
#include "mr_app.hpp"
#include "mr_inputs.hpp"
#include "upc.h"
#include "upc_mr.h"

namespace {

mrapp::options opt;
std::vector<std::string> g_documents;           // the corpus, made before the threads start
std::map<std::string, long long> g_counts;      // its word counts, made sequentially
long long g_words = 0;

struct corpus {
  const char* const* documents;
  long long count;
};

// sloc mapreduce/wordc decl begin
struct word_count {
  char word[mrapp::max_word + 1];
  long long count;
};
// sloc mapreduce/wordc decl end

// sloc mapreduce/wordc comp begin
// Element-by-element map: a document gives (word, 1) for each of its words.
int wordc_map(void* document, void* key, void* value) {
  char word[mrapp::max_word + 1];
  const long long one = 1;
  mrapp::for_each_word(static_cast<const char*>(document), word,
                       [&](const char* w, int length) { upc_mr_emit(key, value, w, length + 1, &one, sizeof one); });
  return 0;
}

// Array-based map: this thread's block of documents, each word counted here first.
int wordc_map_array(void* input, void* key, void* value) {
  const corpus* c = static_cast<const corpus*>(input);
  std::map<std::string, long long> count;
  char word[mrapp::max_word + 1];
  const long long first = MYTHREAD * c->count / THREADS, last = (MYTHREAD + 1) * c->count / THREADS;
  for (long long d = first; d < last; ++d) mrapp::for_each_word(c->documents[d], word, [&](const char* w, int) { ++count[w]; });
  for (const auto& [w, n] : count) upc_mr_emit(key, value, w.c_str(), static_cast<int>(w.size() + 1), &n, sizeof n);
  return 0;
}

// Reduce: the counts of each word (the pairs come grouped by key) added up;
// the result is an array of word_count ended by an empty word.
int wordc_reduce(void* keys, void* values, int nelems, void* result) {
  const upc_mr_item* word = static_cast<const upc_mr_item*>(keys);
  const upc_mr_item* count = static_cast<const upc_mr_item*>(values);
  word_count* out = static_cast<word_count*>(std::malloc((static_cast<std::size_t>(nelems) + 1) * sizeof(word_count)));
  if (out == nullptr) return -1;
  int distinct = 0;
  for (int i = 0; i < nelems; ++i) {
    long long n;
    std::memcpy(&n, count[i].data, sizeof n);
    if (distinct > 0 && std::strcmp(out[distinct - 1].word, static_cast<const char*>(word[i].data)) == 0) {
      out[distinct - 1].count += n;
    } else {
      std::strcpy(out[distinct].word, static_cast<const char*>(word[i].data));
      out[distinct++].count = n;
    }
  }
  out[distinct].word[0] = '\0';
  *static_cast<void**>(result) = out;
  return 0;
}
// sloc mapreduce/wordc comp end

std::map<std::string, long long> counts_of(const std::vector<int>& which) {
  std::map<std::string, long long> count;
  char word[mrapp::max_word + 1];
  for (int d : which) mrapp::for_each_word(g_documents[static_cast<std::size_t>(d)].c_str(), word, [&](const char* w, int) { ++count[w]; });
  return count;
}

bool same(const word_count* got, const std::map<std::string, long long>& want, const char* what) {
  if (got == nullptr) {
    std::printf("wordc: thread %d: no counts (%s)\n", MYTHREAD, what);
    return false;
  }
  auto it = want.begin();
  for (const word_count* w = got; w->word[0] != '\0'; ++w, ++it) {
    if (it == want.end() || it->first != w->word || it->second != w->count) {
      std::printf("wordc: thread %d: %s got \"%s\" %lld times, expected \"%s\" %lld times\n", MYTHREAD, what, w->word, w->count,
                  it == want.end() ? "(nothing)" : it->first.c_str(), it == want.end() ? 0LL : it->second);
      return false;
    }
  }
  if (it != want.end()) {
    std::printf("wordc: thread %d: %s \"%s\" (%lld times) is missing\n", MYTHREAD, what, it->first.c_str(), it->second);
    return false;
  }
  return true;
}

int wordc() {
  const int n = static_cast<int>(opt.size);
  // sloc mapreduce/wordc decl begin
  std::vector<void*> elements(static_cast<std::size_t>(n));  // the input list: a pointer per document
  std::vector<const char*> texts(static_cast<std::size_t>(n));
  std::vector<int> length(static_cast<std::size_t>(n));  // a document's weight: its bytes
  for (int i = 0; i < n; ++i) {
    texts[static_cast<std::size_t>(i)] = g_documents[static_cast<std::size_t>(i)].c_str();
    elements[static_cast<std::size_t>(i)] = const_cast<char*>(texts[static_cast<std::size_t>(i)]);
    length[static_cast<std::size_t>(i)] = static_cast<int>(g_documents[static_cast<std::size_t>(i)].size());
  }
  std::vector<int> weights = mrapp::weights_with_threshold(opt, length);
  corpus whole{texts.data(), n};
  // sloc mapreduce/wordc decl end

  upc_barrier;
  const double start = mrapp::now_s();
  // sloc mapreduce/wordc comp begin
  const int pairs = opt.array_map() ? ApplyMap(wordc_map_array, &whole, n, UPC_MR_USER_DISTR, 0, nullptr)
                                    : ApplyMap(wordc_map, elements.data(), n, UPC_MR_FRAMEWORK_DISTR, opt.algorithm(),
                                               mrapp::weights_for(opt, weights));
  // sloc mapreduce/wordc comp end
  // sloc mapreduce/wordc comm begin
  // (the words differ in size: sizeKey and sizeValue are ignored)
  word_count* counts = static_cast<word_count*>(ApplyReduce(wordc_reduce, pairs, opt.gath_flag(), opt.coll_flag(), 0, 0));
  // sloc mapreduce/wordc comm end
  upc_barrier;
  const double seconds = mrapp::now_s() - start;

  const bool verified =
      mrapp::verify_reduced(opt, counts, [&] { return counts_of(mrapp::my_elements(opt, n, weights)); }, g_counts, "", same);
  const int g = opt.gath_flag();
  long long distinct = 0;
  if (counts != nullptr && g != UPC_MR_NOCOMM) {
    const word_count* top = counts;
    for (const word_count* w = counts; w->word[0] != '\0'; ++w, ++distinct)
      if (w->count > top->count) top = w;
    if (MYTHREAD == (g == UPC_MR_ALLCOMM ? 0 : g) && distinct > 0)
      std::printf("wordc: %lld words, %lld distinct; the most frequent: \"%s\" (%lld times)\n", g_words, distinct, top->word,
                  top->count);
  }
  bench::record extra{{"words", static_cast<std::int64_t>(g_words)}};
  if (counts && mrapp::prints_answer(opt)) {  // the reduce's words come sorted (checked above)
    mrapp::answer_digest d;
    for (const word_count* w = counts; w->word[0] != '\0'; ++w) d.add_word(w->word, w->count);
    extra.push_back({"answer", d.text()});
  }
  std::free(counts);
  return mrapp::report("wordc", opt, seconds, verified, pairs, extra);
}

}  // namespace

int main(int argc, char** argv) {
  opt.size = 1000;
  bench::cli cli("wordc", "UPC-MR WordC (seed 003 §4.3): word counts of a generated text corpus");
  cli.add_int("size", "documents (20 to 400 words each)", &opt.size, 0);
  if (auto status = mrapp::parse(cli, opt, argc, argv, "wordc", 1 << 22)) return *status;
  g_documents = mrapp::make_corpus(opt.size, static_cast<std::uint64_t>(opt.seed));
  g_counts = counts_of(mrapp::every_element(opt.size));
  for (const auto& [w, c] : g_counts) g_words += c;
  // pairs: a word (about 8 bytes), a count and two sizes each
  return apps::launch("wordc", mrapp::heap_for(static_cast<std::uint64_t>(g_words) * 32), wordc);
}
