/* <upc_mr.h>: UPC-MR, the MapReduce framework of seed 003 (Teijeiro's thesis,
 * chapter 4). Two management functions with the signatures of Listing 4.1 do
 * all the parallel work; the user writes a sequential map function (applied to
 * input elements) and a sequential reduce function (applied to the intermediate
 * key/value pairs):
 *
 *   int   ApplyMap(mapfunc, inputElems, nelems, userDefDistrFlag, algorithm, weights);
 *   void *ApplyReduce(reducefunc, nelems, gathFlag, collFlag, sizeKey, sizeValue);
 *
 * Both are collective: every thread calls them, with the same flags and sizes.
 * The user guide of the framework is docs/mapreduce.md; the applications of
 * §4.3 are in apps/mapreduce/.
 *
 * The map function.  int mapfunc(void *input, void *key, void *value)
 *   Element-by-element map (userDefDistrFlag 0): inputElems is an array of
 *   nelems pointers, one per input element (`void *elems[nelems]`, passed as
 *   void *), every thread holding the whole list; ApplyMap gives each thread its
 *   share by `algorithm` and calls mapfunc(elems[i], key, value) for each of its
 *   elements, in increasing i.
 *   Array-based map (userDefDistrFlag 1): mapfunc(inputElems, key, value) is
 *   called once on every thread with the whole input, and splits the work
 *   itself (by MYTHREAD); `algorithm` and `weights` are ignored.
 *   `key` and `value` are the calling thread's intermediate key list and value
 *   list: mapfunc adds pairs to them with upc_mr_emit(key, value, ...). It
 *   returns 0 (any value >= 0) when it succeeded; a negative value stops the run
 *   with the element it failed on.
 *   ApplyMap returns the number of intermediate pairs the calling thread holds;
 *   they stay in its private memory, managed by the framework, until the next
 *   ApplyMap.
 *
 * The reduce function.  int reducefunc(void *key, void *value, int nelems, void *result)
 *   Called once by every thread that reduces, with all the pairs it holds after
 *   the gathering (its own for UPC_MR_NOCOMM), grouped by key: the pairs are
 *   ordered by their key's bytes, and pairs with equal keys keep the order
 *   thread 0's first, each thread's in the order they were emitted.
 *   When every pair of every thread has a sizeKey-byte key and a sizeValue-byte
 *   value, `key` is an array of nelems keys of sizeKey bytes and `value` an
 *   array of nelems values of sizeValue bytes. When the sizes differ (strings,
 *   say), `key` and `value` are arrays of nelems upc_mr_item, each the address
 *   and size of one key or value (the "indexes" of §4.2.2).
 *   `result` is a `void **`: the function stores there a pointer to the result
 *   it made (malloc it; the caller frees it), which ApplyReduce returns. It
 *   returns 0 (>= 0) when it succeeded, a negative value to stop the run.
 *   The arrays are valid during the call only.
 *
 * ApplyReduce(reducefunc, nelems, gathFlag, collFlag, sizeKey, sizeValue)
 *   nelems:    the pairs this thread holds (what ApplyMap returned).
 *   gathFlag:  UPC_MR_NOCOMM (each thread reduces its own pairs and returns its
 *              portion of the result), UPC_MR_ALLCOMM (every thread gathers all
 *              pairs and returns the whole result), or a thread number 0 ..
 *              THREADS-1 (that thread gathers and returns the result; the others
 *              return NULL and do not call reducefunc).
 *   collFlag:  UPC_MR_COLL: the pairs move with the extended collectives
 *              (upc_all_gather_all_v_priv / upc_all_gather_v_rooted_priv for
 *              fixed-size pairs, the _raw forms for pairs of different sizes);
 *              UPC_MR_NOCOLL: they are transferred one by one.
 *   sizeKey, sizeValue: the bytes of every key and every value; checked
 *              against what the map emitted, and ignored when the sizes differ.
 */
#pragma once
#include "upc.h"

/* The flags, algorithms and upc_mr_item: plain C, one table for C++ and UPC
 * programs (tools/upcc/include/upc_mr.h includes it too). */
#include "upc_mr_types.h"

int ApplyMap(int (*mapfunc)(void *, void *, void *), void *inputElems, int nelems, int userDefDistrFlag, int algorithm,
             int *weights);
void *ApplyReduce(int (*reducefunc)(void *, void *, int, void *), int nelems, int gathFlag, int collFlag, int sizeKey,
                  int sizeValue);

/* Inside mapfunc: adds the pair (sizeKey bytes at keyData, sizeValue bytes at
 * valueData) to the calling thread's intermediate pairs. `key` and `value` are
 * the arguments mapfunc received. Returns the number of pairs this thread now
 * holds. */
int upc_mr_emit(void *key, void *value, const void *keyData, int sizeKey, const void *valueData, int sizeValue);

/* The element-by-element distribution, for any thread count: owner[i] (nelems
 * entries) gets the thread of element i. `weights` as ApplyMap takes it (NULL
 * for BLOCK and CYCLIC). Returns the algorithm used (BEST_FIT: the one chosen).
 * Needs no running program. */
int upc_mr_distribute(int threads, int nelems, int algorithm, const int *weights, int *owner);
/* The largest difference between two threads' loads (sums of the element
 * weights they own; weights NULL: one per element) for that owner array. */
long long upc_mr_max_load_difference(int threads, int nelems, const int *owner, const int *weights);
/* The algorithm the calling thread's last ApplyMap used (BEST_FIT resolved;
 * UPC_MR_USER_DISTR's maps: -1). */
int upc_mr_last_algorithm(void);
