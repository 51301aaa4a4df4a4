/* The constants and the item type of UPC-MR (<upc_mr.h>, seed 003 chapter 4;
 * docs/mapreduce.md), in plain C: included by the C++ header include/upc_mr.h
 * and by the UPC one, tools/upcc/include/upc_mr.h, so both have one table. */
#ifndef UPCEMU_UPC_MR_TYPES_H
#define UPCEMU_UPC_MR_TYPES_H

/* ApplyMap's `algorithm` (element-by-element map). Figure 4.1's weights
 * 2 9 3 1 8 7 9 8 8 on three threads: BLOCK {2,9,3} {1,8,7} {9,8,8} (largest
 * load difference 11), CYCLIC {2,1,9} {9,8,8} {3,7,8} (13), BALANCED
 * {2,1,8,8} {9,9} {3,7,8} (1); BEST_FIT chooses BALANCED. */
#define UPC_MR_BLOCK 0    /* consecutive elements: the first nelems % THREADS threads get one more */
#define UPC_MR_CYCLIC 1   /* element i to thread i % THREADS */
#define UPC_MR_BALANCED 2 /* each element in turn to the least loaded thread (by weights[i]; ties: lowest thread) */
#define UPC_MR_BEST_FIT 3 /* weights[0] is a threshold and weights[1..nelems] the weights: BLOCK if its largest
                             load difference is <= the threshold, else CYCLIC if it is, else BALANCED */

/* ApplyMap's `userDefDistrFlag` */
#define UPC_MR_FRAMEWORK_DISTR 0 /* element-by-element map, distributed by `algorithm` */
#define UPC_MR_USER_DISTR 1      /* array-based map: mapfunc gets the whole input and divides it itself */

/* ApplyReduce's `gathFlag` (besides a thread number) */
#define UPC_MR_NOCOMM (-1)
#define UPC_MR_ALLCOMM (-2)

/* ApplyReduce's `collFlag` */
#define UPC_MR_NOCOLL 0
#define UPC_MR_COLL 1

/* A key or value of variable size, as reducefunc receives them when the pairs
 * are not all the same size. */
typedef struct {
  const void *data;
  int size;
} upc_mr_item;

#endif
