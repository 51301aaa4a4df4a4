/* <upc_mr.h> through upcc: two of the thesis's applications (seed 003 §4.3)
 * written as a UPC program would write them, each checked against a
 * sequential computation on every thread:
 *   - word count (WordC): an element-by-element map over a list of lines,
 *     keys of different sizes (the words), every thread gathering every pair
 *     with the extended collectives, and again to one thread pair by pair;
 *   - histogram (Hist): an array-based map that splits the pixels by MYTHREAD
 *     and emits one (level, count) pair per level it saw, gathered to thread
 *     0, and to every thread with UPC_MR_BALANCED weights over an element map. */
#include <upc.h>
#include <upc_mr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(cond, ...)                                  \
  do {                                                    \
    if (!(cond)) {                                        \
      printf("thread %d: line %d: ", MYTHREAD, __LINE__); \
      printf(__VA_ARGS__);                                \
      printf("\n");                                       \
      failures++;                                         \
    }                                                     \
  } while (0)

/* ---- word count ---- */

static const char *lines[] = {
    "the map function is sequential",     "the reduce function is sequential too",
    "shared memory and private memory",   "threads map and threads reduce",
    "a word a line a thread",             "",
    "upc mr counts the words of the text", "the end",
};
#define NLINES ((int)(sizeof lines / sizeof lines[0]))

/* One pair (word, 1) per word of the line. */
static int map_words(void *input, void *key, void *value) {
  const char *s = (const char *)input;
  const int one = 1;
  while (*s) {
    while (*s == ' ') s++;
    int n = 0;
    while (s[n] && s[n] != ' ') n++;
    if (n > 0) upc_mr_emit(key, value, s, n, &one, sizeof one);
    s += n;
  }
  return 0;
}

/* The result: the distinct words in order with their counts. */
struct word_count {
  char word[32];
  int count;
};
struct counts {
  int n;
  struct word_count w[64];
};

/* The pairs arrive grouped by key (the keys' bytes in order): add up each run. */
static int reduce_words(void *keys, void *values, int nelems, void *result) {
  const upc_mr_item *k = (const upc_mr_item *)keys, *v = (const upc_mr_item *)values;
  struct counts *c = (struct counts *)calloc(1, sizeof *c);
  int i;
  for (i = 0; i < nelems; i++) {
    if (c->n == 0 || (int)strlen(c->w[c->n - 1].word) != k[i].size ||
        memcmp(c->w[c->n - 1].word, k[i].data, (size_t)k[i].size) != 0) {
      memcpy(c->w[c->n].word, k[i].data, (size_t)k[i].size);
      c->n++;
    }
    c->w[c->n - 1].count += *(const int *)v[i].data;
  }
  *(void **)result = c;
  return 0;
}

/* The same, sequentially: how often `word` occurs in the text. */
static int occurrences(const char *word) {
  int total = 0, i;
  const size_t n = strlen(word);
  for (i = 0; i < NLINES; i++) {
    const char *s = lines[i];
    while (*s) {
      while (*s == ' ') s++;
      size_t m = 0;
      while (s[m] && s[m] != ' ') m++;
      if (m == n && m > 0 && memcmp(s, word, n) == 0) total++;
      s += m;
    }
  }
  return total;
}

static int total_words(void) {
  int total = 0, i;
  for (i = 0; i < NLINES; i++) {
    const char *s = lines[i];
    while (*s) {
      while (*s == ' ') s++;
      if (*s) total++;
      while (*s && *s != ' ') s++;
    }
  }
  return total;
}

static void check_counts(const struct counts *c, const char *how) {
  int i, sum = 0;
  for (i = 0; i < c->n; i++) {
    CHECK(c->w[i].count == occurrences(c->w[i].word), "%s: '%s' counted %d times", how, c->w[i].word, c->w[i].count);
    if (i > 0) CHECK(strcmp(c->w[i - 1].word, c->w[i].word) != 0, "%s: '%s' twice", how, c->w[i].word);
    sum += c->w[i].count;
  }
  CHECK(sum == total_words(), "%s: %d words, the text has %d", how, sum, total_words());
}

/* ---- histogram ---- */

#define NPIXELS 1000
#define LEVELS 16
static unsigned char pixels[NPIXELS];

/* Array-based: this thread's pixels are those i with i % THREADS == MYTHREAD. */
static int map_histogram(void *input, void *key, void *value) {
  const unsigned char *p = (const unsigned char *)input;
  long local[LEVELS] = {0};
  int i, level;
  for (i = MYTHREAD; i < NPIXELS; i += THREADS) local[p[i]]++;
  for (level = 0; level < LEVELS; level++)
    if (local[level]) upc_mr_emit(key, value, &level, sizeof level, &local[level], sizeof local[level]);
  return 0;
}

/* Element-by-element: one pair (level, 1) per pixel. */
static int map_pixel(void *input, void *key, void *value) {
  const int level = *(const unsigned char *)input;
  const long one = 1;
  upc_mr_emit(key, value, &level, sizeof level, &one, sizeof one);
  return 0;
}

static int reduce_histogram(void *keys, void *values, int nelems, void *result) {
  long *h = (long *)calloc(LEVELS, sizeof(long));
  int i;
  for (i = 0; i < nelems; i++) h[((const int *)keys)[i]] += ((const long *)values)[i];
  *(void **)result = h;
  return 0;
}

static void check_histogram(const long *h, const char *how) {
  long want[LEVELS] = {0};
  int i;
  for (i = 0; i < NPIXELS; i++) want[pixels[i]]++;
  for (i = 0; i < LEVELS; i++) CHECK(h[i] == want[i], "%s: level %d: %ld, sequentially %ld", how, i, h[i], want[i]);
}

int main(int argc, char **argv) {
  int i;
  if (argc > 1) { /* a misuse that must stop the run with the line of the call (tests/meson.build) */
    int k = ApplyMap(map_pixel, NULL, 0, UPC_MR_FRAMEWORK_DISTR, UPC_MR_CYCLIC, NULL);
    ApplyReduce(reduce_histogram, k, THREADS + 3, UPC_MR_COLL, sizeof(int), sizeof(long)); /* no such thread */
    return 0;
  }
  /* Word count: every thread gets the whole result (the extended collectives). */
  const char *input[NLINES];
  for (i = 0; i < NLINES; i++) input[i] = lines[i];
  int n = ApplyMap(map_words, (void *)input, NLINES, UPC_MR_FRAMEWORK_DISTR, UPC_MR_CYCLIC, NULL);
  struct counts *c = (struct counts *)ApplyReduce(reduce_words, n, UPC_MR_ALLCOMM, UPC_MR_COLL, 0, 0);
  CHECK(c != NULL, "ALLCOMM gives every thread the result");
  if (c) check_counts(c, "word count, ALLCOMM, COLL");
  CHECK(c && c->n > 0 && strcmp(c->w[0].word, "a") == 0 && c->w[0].count == 3, "the first word in order is 'a', 3 times");
  free(c);
  /* ... and to the last thread only, pair by pair. */
  n = ApplyMap(map_words, (void *)input, NLINES, UPC_MR_FRAMEWORK_DISTR, UPC_MR_BLOCK, NULL);
  c = (struct counts *)ApplyReduce(reduce_words, n, THREADS - 1, UPC_MR_NOCOLL, 0, 0);
  if (MYTHREAD == THREADS - 1) {
    CHECK(c != NULL, "the root gets the result");
    if (c) check_counts(c, "word count, root, NOCOLL");
  } else {
    CHECK(c == NULL, "a thread that is not the root gets NULL");
  }
  free(c);

  /* Histogram of a deterministic image. */
  for (i = 0; i < NPIXELS; i++) pixels[i] = (unsigned char)((i * 7 + i / 13) % LEVELS);
  n = ApplyMap(map_histogram, pixels, NPIXELS, UPC_MR_USER_DISTR, 0, NULL);
  CHECK(upc_mr_last_algorithm() == -1, "an array-based map has no algorithm");
  long *h = (long *)ApplyReduce(reduce_histogram, n, 0, UPC_MR_NOCOLL, sizeof(int), sizeof(long));
  if (MYTHREAD == 0) {
    CHECK(h != NULL, "thread 0 gets the histogram");
    if (h) check_histogram(h, "histogram, array map, to thread 0");
  }
  free(h);
  /* Per pixel, balanced by weights (heavier pixels on odd positions). */
  void *elems[NPIXELS];
  int weights[NPIXELS];
  for (i = 0; i < NPIXELS; i++) {
    elems[i] = &pixels[i];
    weights[i] = 1 + (i % 2) * 3;
  }
  n = ApplyMap(map_pixel, elems, NPIXELS, UPC_MR_FRAMEWORK_DISTR, UPC_MR_BALANCED, weights);
  CHECK(upc_mr_last_algorithm() == UPC_MR_BALANCED, "BALANCED used");
  {
    int owner[NPIXELS], mine = 0;
    upc_mr_distribute(THREADS, NPIXELS, UPC_MR_BALANCED, weights, owner);
    for (i = 0; i < NPIXELS; i++) mine += owner[i] == MYTHREAD;
    CHECK(n == mine, "this thread mapped %d pixels, its share is %d", n, mine);
    CHECK(upc_mr_max_load_difference(THREADS, NPIXELS, owner, weights) <= 4, "balanced within one weight");
  }
  h = (long *)ApplyReduce(reduce_histogram, n, UPC_MR_ALLCOMM, UPC_MR_COLL, sizeof(int), sizeof(long));
  CHECK(h != NULL, "every thread gets the histogram");
  if (h) check_histogram(h, "histogram, element map, ALLCOMM");
  free(h);

  if (failures) printf("thread %d: %d failures\n", MYTHREAD, failures);
  upc_barrier;
  if (MYTHREAD == 0 && !failures) printf("lib_mr: OK at THREADS %d\n", THREADS);
  return failures != 0;
}
