// SpamC on our MapReduce-over-MPI library (the peer of apps/mapreduce/spamc,
// seed 003 §4.3): one map task per e-mail gives (word number, 1) per malware
// word and (256, 1) if it had any; collate() and reduce() add each key's ones;
// gather(1) puts the 257 counts on rank 0. The same generated e-mails, malware
// words and tokenizer as the UPC-MR app; rank 0 checks the counts against ones
// made sequentially.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "../../../apps/mapreduce/mr_answer.hpp"
#include "../../../apps/mapreduce/mr_inputs.hpp"
#include "mapreduce.hpp"
#include "peer_app.hpp"
#include "peer_steps.hpp"

namespace {

constexpr int keywords = 256, matching_mails = keywords, counters = keywords + 1;

struct mailbox {
  std::vector<std::string> mails;
  std::unordered_map<std::string, int> keyword_of;  // malware word -> its number
};

// f(word number) for each malware word of one e-mail; how many there were.
template <class F>
int scan(const mailbox& box, const std::string& mail, F&& f) {
  char word[mrapp::max_word + 1];
  int found = 0;
  mrapp::for_each_word(mail.c_str(), word, [&](const char* w, int) {
    const auto it = box.keyword_of.find(w);
    if (it != box.keyword_of.end()) f(it->second), ++found;
  });
  return found;
}

void spamc_map(int index, mrmpi::key_value* kv, void* ptr) {
  const mailbox& box = *static_cast<const mailbox*>(ptr);
  const long long one = 1;
  const int any = matching_mails;
  if (scan(box, box.mails[static_cast<std::size_t>(index)], [&](int w) { kv->add(&w, sizeof w, &one, sizeof one); }) > 0)
    kv->add(&any, sizeof any, &one, sizeof one);
}

int run(const mrpeer::options& opt) {
  mailbox box;
  box.mails = mrapp::make_emails(opt.size, static_cast<std::uint64_t>(opt.seed));
  const std::vector<std::string> names = mrapp::spam_keywords();
  for (int k = 0; k < keywords; ++k) box.keyword_of[names[static_cast<std::size_t>(k)]] = k;
  mrmpi::mapreduce mr(MPI_COMM_WORLD, opt.page);

  MPI_Barrier(MPI_COMM_WORLD);
  const double start = mrpeer::now_s();
  const std::uint64_t pairs = mrpeer::map_collate_reduce_gather(mr, opt.size, spamc_map, &box, mrpeer::add_values<long long>);
  const std::vector<long long> count = mrpeer::values_by_key<long long>(mr.kv(), counters);
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = mrpeer::now_s() - start;

  bool ok = true;
  if (mr.rank() == 0) {
    std::vector<long long> want(counters, 0);
    for (const std::string& m : box.mails)
      if (scan(box, m, [&](int w) { ++want[static_cast<std::size_t>(w)]; }) > 0) ++want[matching_mails];
    for (int k = 0; k < counters && ok; ++k)
      if (count[static_cast<std::size_t>(k)] != want[static_cast<std::size_t>(k)]) {
        std::printf("spamc_mrmpi: key %d: %lld, expected %lld\n", k, count[static_cast<std::size_t>(k)],
                    want[static_cast<std::size_t>(k)]);
        ok = false;
      }
    long long occurrences = 0;
    int top = 0;
    for (int k = 0; k < keywords; ++k) {
      occurrences += count[static_cast<std::size_t>(k)];
      if (count[static_cast<std::size_t>(k)] > count[static_cast<std::size_t>(top)]) top = k;
    }
    std::printf("spamc: %lld of %lld e-mails have malware words, %lld occurrences; the most frequent: \"%s\" (%lld)\n",
                count[matching_mails], static_cast<long long>(opt.size), occurrences,
                names[static_cast<std::size_t>(top)].c_str(), count[static_cast<std::size_t>(top)]);
  }
  const bool verified = mrpeer::rank0_says(ok);
  return mrpeer::report("spamc", opt, seconds, verified, pairs, mrapp::digest_of_counts(count.data(), counters));
}

}  // namespace

int main(int argc, char** argv) {
  return mrpeer::main_of(argc, argv, "spamc_mrmpi", "SpamC on MapReduce over MPI (the peer of apps/mapreduce/spamc)",
                         "e-mails (30 to 300 words each)", 2000, 1 << 22, run);
}
