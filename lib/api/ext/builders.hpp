// Every family's builders, one file per family (as lib/coll/algorithms/ has one
// file per algorithm family); the family table (families.cpp) lists them.
//
// Data movement (chunk_builder.hpp): each builder appends the chunks of its
// form; the engine decides who copies them.
//   _fixed  fixed-size forms (A.1 in place, A.4 get/put/priv), `root` a rank
//   _team   team-based forms (A.3): nbytes split over the members or THREADS
//   _v      vector variants (A.2) and vector_copy: arrays read after the IN sync
// Reductions (reduction.hpp): the source's pieces and their totals are made by
// reductions.cpp; each family's _results combines them and moves the results.
#pragma once

namespace upc::ext {

struct chunk_builder;
struct v_chunk_builder;
struct reduction;

void broadcast_fixed(chunk_builder& b);
void broadcast_team(chunk_builder& b);
void broadcast_v(v_chunk_builder& v);

void scatter_fixed(chunk_builder& b);
void scatter_team(chunk_builder& b);
void scatter_v(v_chunk_builder& v);

void gather_fixed(chunk_builder& b);
void gather_team(chunk_builder& b);
void gather_v(v_chunk_builder& v);

void gather_all_fixed(chunk_builder& b);
void gather_all_team(chunk_builder& b);
void gather_all_v(v_chunk_builder& v);

void exchange_fixed(chunk_builder& b);
void exchange_team(chunk_builder& b);
void exchange_v(v_chunk_builder& v);

// Every form but the v-variant: perm is an argument read after the IN sync.
void permute_by_perm(chunk_builder& b);
void permute_v(v_chunk_builder& v);

void vector_copy_v(v_chunk_builder& v);

void reduce_results(reduction& r);
void allreduce_results(reduction& r);
void prefix_reduce_results(reduction& r);

}  // namespace upc::ext
