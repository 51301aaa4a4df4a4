// The generated inputs of the four applications, each a pure function of its
// size and seed (the thesis used files: Phoenix's images, random coordinates,
// the TREC and Webb spam corpora, §4.3.1): a 24-bit bitmap image, point pairs,
// a text corpus with Zipf-distributed words, and e-mails carrying malware
// words. Also the tokenizer that both the map functions and the sequential
// checks use, so that they split text the same way. Plain C++, no UPC: the
// MapReduce-over-MPI peers (bench/peers/mapreduce_mpi) generate the same inputs.
#pragma once
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace mrapp {

// ---- the generator ----------------------------------------------------------------

// splitmix64: a small, fast, seeded sequence (the inputs only need to be the
// same for every run with the same seed).
struct random {
  std::uint64_t state;
  explicit random(std::uint64_t seed) : state(seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL) {}
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // uniform in [0, n)
  std::uint64_t below(std::uint64_t n) { return n ? next() % n : 0; }
  double unit() { return static_cast<double>(next() >> 11) / 9007199254740992.0; }
};

// Zipf's law over ranks 0..n-1 (P(r) proportional to 1/(r+1)): the cumulative table.
inline std::vector<double> zipf_table(int n) {
  std::vector<double> c(static_cast<std::size_t>(n));
  double sum = 0;
  for (int r = 0; r < n; ++r) c[static_cast<std::size_t>(r)] = sum += 1.0 / (r + 1);
  for (double& x : c) x /= sum;
  return c;
}
inline int zipf_rank(const std::vector<double>& table, random& rng) {
  const auto at = std::upper_bound(table.begin(), table.end(), rng.unit()) - table.begin();
  return static_cast<int>(std::min<std::ptrdiff_t>(at, static_cast<std::ptrdiff_t>(table.size()) - 1));
}

// ---- Hist: a 24-bit BMP in memory --------------------------------------------------

constexpr int bmp_header_bytes = 54;

// A BMP file of `pixels` pixels (one row of `pixels` B, G, R triples): a smooth
// pattern with noise, so that the histogram has shape.
inline std::vector<unsigned char> make_bitmap(std::int64_t pixels, std::uint64_t seed) {
  const std::uint64_t data = static_cast<std::uint64_t>(pixels) * 3, padded = (data + 3) & ~std::uint64_t{3};
  std::vector<unsigned char> file(bmp_header_bytes + padded, 0);
  auto put32 = [&](int at, std::uint32_t v) { std::memcpy(&file[static_cast<std::size_t>(at)], &v, 4); };
  auto put16 = [&](int at, std::uint16_t v) { std::memcpy(&file[static_cast<std::size_t>(at)], &v, 2); };
  file[0] = 'B';
  file[1] = 'M';
  put32(2, static_cast<std::uint32_t>(file.size()));
  put32(10, bmp_header_bytes);  // where the pixels start
  put32(14, 40);                // BITMAPINFOHEADER
  put32(18, static_cast<std::uint32_t>(pixels));
  put32(22, 1);
  put16(26, 1);
  put16(28, 24);
  put32(34, static_cast<std::uint32_t>(padded));
  random rng(seed);
  for (std::int64_t i = 0; i < pixels; ++i) {
    unsigned char* p = &file[bmp_header_bytes + static_cast<std::size_t>(3 * i)];
    p[2] = static_cast<unsigned char>((i / 97 + static_cast<std::int64_t>(rng.below(32))) & 255);             // red: a ramp
    p[1] = static_cast<unsigned char>(((i * 31) / 1000 + static_cast<std::int64_t>(rng.below(16))) & 255);    // green
    p[0] = static_cast<unsigned char>(rng.below(64) + rng.below(64) + rng.below(64) + rng.below(64));      // blue: a bell
  }
  return file;
}

// Where a BMP file's pixel data starts (the offset at byte 10).
inline const unsigned char* bitmap_pixels(const std::vector<unsigned char>& file) {
  std::uint32_t offset;
  std::memcpy(&offset, file.data() + 10, sizeof offset);
  return file.data() + offset;
}

// ---- LinReg: points on a line with noise, exactly summable -------------------------

struct point {
  double x, y;
};

// x = i/16 in [0, 256), y = 2x + 3 + noise/16 with noise in [-64, 64): every
// product and every partial sum of up to 2^25 points is an exact double, so
// the sums do not depend on the order in which threads add them.
constexpr std::int64_t max_exact_points = std::int64_t{1} << 25;

inline std::vector<point> make_points(std::int64_t n, std::uint64_t seed) {
  std::vector<point> pts(static_cast<std::size_t>(n));
  random rng(seed);
  for (point& p : pts) {
    const double x = static_cast<double>(rng.below(4096)) / 16.0;
    const double noise = (static_cast<double>(rng.below(128)) - 64.0) / 16.0;
    p = {x, 2.0 * x + 3.0 + noise};
  }
  return pts;
}

// ---- WordC and SpamC: words and texts ------------------------------------------------

// `count` distinct lower-case words of one to four syllables.
inline std::vector<std::string> make_vocabulary(int count, std::uint64_t seed) {
  static const char* const syllables[] = {"ka", "to", "ri", "mu", "an", "el", "sor", "ben", "li", "qua", "de",  "po",
                                          "ne", "ra", "vi", "gu", "on", "ta", "mel", "dor", "si", "fa",  "zu", "ex"};
  constexpr int ns = sizeof syllables / sizeof syllables[0];
  random rng(seed ^ 0x5151);
  std::set<std::string> seen;
  std::vector<std::string> words;
  while (static_cast<int>(words.size()) < count) {
    std::string w;
    const int parts = 1 + static_cast<int>(rng.below(4));
    for (int k = 0; k < parts; ++k) w += syllables[rng.below(ns)];
    if (seen.insert(w).second) words.push_back(w);
  }
  return words;
}

// Text of `words` words drawn from `vocabulary` by Zipf's law, as prose:
// sentences with a capital letter, commas and a full stop, lines of text.
inline std::string make_text(int words, const std::vector<std::string>& vocabulary, const std::vector<double>& zipf,
                             random& rng) {
  std::string text;
  int in_sentence = 0, sentence_length = 5 + static_cast<int>(rng.below(11));
  for (int k = 0; k < words; ++k) {
    std::string w = vocabulary[static_cast<std::size_t>(zipf_rank(zipf, rng))];
    if (in_sentence == 0) w[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(w[0])));
    text += w;
    if (++in_sentence == sentence_length) {
      text += ".\n";
      in_sentence = 0;
      sentence_length = 5 + static_cast<int>(rng.below(11));
    } else {
      text += rng.below(9) == 0 ? ", " : " ";
    }
  }
  return text;
}

// WordC's corpus: `documents` texts of 20 to 400 words.
inline std::vector<std::string> make_corpus(std::int64_t documents, std::uint64_t seed) {
  const std::vector<std::string> vocabulary = make_vocabulary(2000, seed);
  const std::vector<double> zipf = zipf_table(static_cast<int>(vocabulary.size()));
  random rng(seed);
  std::vector<std::string> docs(static_cast<std::size_t>(documents));
  for (std::string& d : docs) d = make_text(20 + static_cast<int>(rng.below(381)), vocabulary, zipf, rng);
  return docs;
}

// SpamC's 256 malware words: 16 stems x 16 endings.
inline std::vector<std::string> spam_keywords() {
  static const char* const stems[] = {"trojan", "worm",  "virus",    "keylog",  "rootkit", "botnet", "exploit", "payload",
                                      "ransom", "phish", "spyware", "backdoor", "dropper", "malware", "crypter", "adware"};
  static const char* const endings[] = {"", "s", "kit", "net", "loader", "bot", "mail", "link",
                                        "code", "host", "drop", "shell", "tool", "pack", "x", "zone"};
  std::vector<std::string> words;
  for (const char* s : stems)
    for (const char* e : endings) words.push_back(std::string(s) + e);
  return words;
}

// SpamC's e-mails: a header and a body of 30 to 300 words; about a third are
// spam, whose words are malware words one time in eight (one in 400 otherwise).
inline std::vector<std::string> make_emails(std::int64_t count, std::uint64_t seed) {
  const std::vector<std::string> vocabulary = make_vocabulary(3000, seed + 1), keywords = spam_keywords();
  const std::vector<double> zipf = zipf_table(static_cast<int>(vocabulary.size()));
  random rng(seed);
  std::vector<std::string> mails(static_cast<std::size_t>(count));
  for (std::size_t m = 0; m < mails.size(); ++m) {
    const bool spam = rng.below(3) == 0;
    std::string body;
    const int words = 30 + static_cast<int>(rng.below(271));
    for (int k = 0; k < words; ++k) {
      const bool keyword = spam ? rng.below(8) == 0 : rng.below(400) == 0;
      body += keyword ? keywords[rng.below(keywords.size())] : vocabulary[static_cast<std::size_t>(zipf_rank(zipf, rng))];
      body += k % 12 == 11 ? "\n" : " ";
    }
    mails[m] = "From: user" + std::to_string(rng.below(100000)) + "@example.org\nSubject: " +
               vocabulary[static_cast<std::size_t>(zipf_rank(zipf, rng))] + "\n\n" + body;
  }
  return mails;
}

// Calls f(word, length) for every maximal run of letters, lower-cased in
// `buffer` (at least max_word + 1 bytes; longer words are cut).
constexpr int max_word = 31;
template <class F>
void for_each_word(const char* text, char* buffer, F&& f) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(text);
  while (*p) {
    while (*p && !std::isalpha(*p)) ++p;
    int n = 0;
    while (std::isalpha(*p)) {
      if (n < max_word) buffer[n++] = static_cast<char>(std::tolower(*p));
      ++p;
    }
    if (n) {
      buffer[n] = '\0';
      f(buffer, n);
    }
  }
}

}  // namespace mrapp
