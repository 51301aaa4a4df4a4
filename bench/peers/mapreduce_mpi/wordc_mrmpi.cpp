// WordC on our MapReduce-over-MPI library (the peer of apps/mapreduce/wordc,
// seed 003 §4.3 and Fig. 4.2): one map task per document gives (word, 1) for
// each word (the key: the word's bytes with its terminator); collate() and
// reduce() count each word; gather(1) puts the counts on rank 0, which sorts
// them by word. The same generated corpus and tokenizer as the UPC-MR app;
// rank 0 checks the counts against ones made sequentially.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "../../../apps/mapreduce/mr_answer.hpp"
#include "../../../apps/mapreduce/mr_inputs.hpp"
#include "mapreduce.hpp"
#include "peer_app.hpp"
#include "peer_steps.hpp"

namespace {

void wordc_map(int document, mrmpi::key_value* kv, void* ptr) {
  const std::vector<std::string>& docs = *static_cast<const std::vector<std::string>*>(ptr);
  char word[mrapp::max_word + 1];
  const long long one = 1;
  mrapp::for_each_word(docs[static_cast<std::size_t>(document)].c_str(), word,
                       [&](const char* w, int length) { kv->add(w, length + 1, &one, sizeof one); });
}

int run(const mrpeer::options& opt) {
  const std::vector<std::string> documents = mrapp::make_corpus(opt.size, static_cast<std::uint64_t>(opt.seed));
  mrmpi::mapreduce mr(MPI_COMM_WORLD, opt.page);

  MPI_Barrier(MPI_COMM_WORLD);
  const double start = mrpeer::now_s();
  const std::uint64_t pairs = mrpeer::map_collate_reduce_gather(
      mr, opt.size, wordc_map, const_cast<std::vector<std::string>*>(&documents), mrpeer::add_values<long long>);
  std::map<std::string, long long> counts;  // sorted by word
  mr.kv().for_each([&](const char* k, int, const char* v, int) {
    long long c;
    std::memcpy(&c, v, sizeof c);
    counts[k] += c;
  });
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = mrpeer::now_s() - start;

  bool ok = true;
  long long words = 0;
  if (mr.rank() == 0) {
    std::map<std::string, long long> want;
    char word[mrapp::max_word + 1];
    for (const std::string& d : documents) mrapp::for_each_word(d.c_str(), word, [&](const char* w, int) { ++want[w]; });
    for (const auto& [w, c] : want) words += c;
    if (counts != want) {
      std::printf("wordc_mrmpi: %zu distinct words counted, expected %zu; the counts differ\n", counts.size(), want.size());
      ok = false;
    }
    const std::pair<const std::string, long long>* top = nullptr;
    for (const auto& wc : counts)
      if (top == nullptr || wc.second > top->second) top = &wc;
    if (top)
      std::printf("wordc: %lld words, %zu distinct; the most frequent: \"%s\" (%lld times)\n", words, counts.size(),
                  top->first.c_str(), top->second);
  }
  const bool verified = mrpeer::rank0_says(ok);
  mrapp::answer_digest digest;
  for (const auto& [w, c] : counts) digest.add_word(w.c_str(), c);
  return mrpeer::report("wordc", opt, seconds, verified, pairs, digest.text(), {{"words", static_cast<std::int64_t>(words)}});
}

}  // namespace

int main(int argc, char** argv) {
  return mrpeer::main_of(argc, argv, "wordc_mrmpi", "WordC on MapReduce over MPI (the peer of apps/mapreduce/wordc)",
                         "documents (20 to 400 words each)", 1000, 1 << 22, run);
}
