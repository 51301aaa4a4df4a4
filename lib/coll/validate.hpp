// The one validator of the memory a collective touches (issue 9), for every
// library: each byte range a call reads or writes on a thread must lie inside
// that thread's shared heap and inside one live shared object, and no range
// read may overlap a range written on the same thread (the collective would
// read bytes it has already overwritten and give a wrong answer with no error;
// the UPC collectives and seed 000 §3.5 rule 6 leave that undefined, we refuse it).
//
// Front-ends list the areas (areas_of does it for an owner-executor request),
// call check_areas, and word the fault in their own terms: fault.message()
// gives the runtime's wording, which the UPC-style front-ends use as it is.
//
// Cost: finding an object is a lookup in the heap's index; a thread remembers
// the areas it has found good until something is freed (the heap's
// generation), so a loop of collectives on the same buffers pays once.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace upc::coll {

class team;
struct request;

// A byte range of one thread's partition that a call reads or writes.
struct area {
  int thread = 0;
  std::uint64_t lo = 0, hi = 0;  // [lo, hi): offsets in the thread's partition, lo < hi
  bool write = false;
  const char* arg = "";           // the argument it belongs to ("dst", "sendbuf")
  int block = -1;                 // vector forms: the rank the block is for; -1: the whole area
};

struct area_fault {
  enum kind_t { none, outside_heap, outside_objects, past_object, overlap } kind = none;
  area a;                 // the area at fault (overlap: the one read)
  area b;                 // overlap: the one written
  std::string object;     // past_object: the object's description
  std::uint64_t room = 0; // past_object: bytes of the object from the area's start

  explicit operator bool() const noexcept { return kind != none; }
  // The runtime's wording: "dst: 4096 bytes at offset 128 of thread 1 run past
  // the end of the object it points into, ..." / "src and dst overlap on thread 0".
  std::string message() const;
  // "sendbuf block 3 (bytes [128, 256))"
  static std::string describe(const area& a);
};

// The first fault of `areas` (placement first, in the order given; then the
// first read/written overlap on any thread). `objects`: also require each area
// to lie inside one live object.
area_fault check_areas(std::vector<area>& areas, bool objects = true);

// Placement of one area alone (inside the heap, inside one object).
area_fault check_placement(const area& a, bool objects = true);

// The first pair (read, written) of areas of one thread that share a byte
// (sorts `areas`; all of one thread; no empty areas).
area_fault first_overlap(std::vector<area>& areas);

// Every area an owner-executor request reads and writes, on every member.
void areas_of(const request& rq, const team& t, std::vector<area>& out);

// The validator of owner-executor requests: areas_of, then check_areas;
// remembered per thread until the heap changes. Throws upc::error naming the
// request's function, the argument and the thread.
void validate_areas(const request& rq, const team& t);

}  // namespace upc::coll
