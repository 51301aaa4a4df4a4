// The argument checks of the <upccoll.h> collectives, in the order the paper's
// error codes are decided (the first problem decides the returned code), and
// the in-place rules (MPI's MPI_IN_PLACE rules, one table). The memory a call
// touches is checked by the engine's one validator (lib/coll/validate.hpp):
// each buffer inside the heap and inside one live object, and no area read
// overlapping an area written.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "upccoll_completion.hpp"
#include "upccoll_state.hpp"
#include "upccoll_types.hpp"

namespace upccoll_front {

using upc::coll::upccoll_types::dtype_info;

// The arguments of a fixed-size call as given (pointers, counts, types, root,
// op, flags). A call whose arguments are those of this thread's last good call
// of the same collective on the same team, with nothing freed since, gets the
// same verdict: `repeat` (below) fills in its description and skips the checks.
struct raw_args {
  std::uint64_t v[10] = {};
  bool operator==(const raw_args&) const = default;
};

// One collective call being checked and described.
struct call_args {
  call_args(collective k, const char* fn, upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle);
  tasks::call c;                     // what this member passes
  upccoll_team_t team_handle;
  upccoll_flag_t flags;
  upccoll_handle_t* handle;
  verdict v;
  upc::coll::team* t = nullptr;
  int P = 0, me = 0;
  std::vector<upc::coll::area>& areas;  // what the call reads and writes of this member's buffers
  const raw_args* raw = nullptr;        // set when the call may be remembered
  const void* caller = nullptr;         // the return address into the program (its place, for the race check)
  tasks::call* repeated = nullptr;      // a repeated call: the remembered description, passed as it is
  tasks::call& sent() { return repeated ? *repeated : c; }  // what goes to the engine
};

// The checks every collective makes first; false (with the code to return)
// when the call cannot even be posted (uninitialised library, bad team).
bool begin(call_args& a, upccoll_return_t& early);

bool repeat(call_args& a, const raw_args& raw);  // see raw_args
// The quick way of a blocking repeated call (no handle, no UPC_ASYNC_FENCE,
// not under --check=races): run from the remembered description before any
// of call_args is built; false when the call must take the checked way.
bool run_remembered(collective kind, const char* function, upccoll_team_t team, upccoll_flag_t flags,
                    upccoll_handle_t* handle, const raw_args& raw, upccoll_return_t& result);
// Forgets this thread's remembered calls: a team was freed (its handle may
// not be used again), or the library finalised.
void forget_calls();
// Remembers a call that passed its checks (launch does, for calls with raw arguments).
void remember(const call_args& a);
// The common end of every collective: the overlap check, then the engine.
upccoll_return_t launch(call_args& a);
// The end of a repeated call (repeat): straight to the engine.
upccoll_return_t launch_repeat(call_args& a);

// ---- single arguments --------------------------------------------------------

const dtype_info* check_type(verdict& v, upccoll_dtype_t dt, upccoll_return_t code, const char* arg);
void check_root(verdict& v, int root, int team_size);
// count × size, or an error when it overflows.
std::uint64_t bytes_of(verdict& v, std::uint64_t count, std::size_t size, const char* what, upccoll_return_t code);
// The bound operation of (dt, op), recording the op in the call; an error when
// it does not exist.
upc::coll::element_op check_reduction(call_args& a, upccoll_dtype_t dt, upccoll_op_t op);

// ---- buffers ---------------------------------------------------------------------

// Whether `p` is UPCCOLL_IN_PLACE where this member may pass it (the send side
// or not; at the root or not). A misplaced one is refused by use_buffer.
bool in_place_here(const call_args& a, upc::sptr<void> p, bool send_side, bool at_root);
std::string in_place_usage(const call_args& a);

// A buffer of `bytes` bytes at `p`: affine to the caller, inside its heap and
// one live object. Zero bytes accept any pointer, null included (not a
// misplaced UPCCOLL_IN_PLACE). Returns the machine address.
char* use_buffer(call_args& a, upc::sptr<void> p, std::uint64_t bytes, const char* arg, upccoll_return_t code);
// The machine address of a buffer already checked to be ours.
char* local_address(upc::sptr<void> p);
// Notes that the call reads (or writes) bytes [off, off + n) of the buffer at `base`.
void note(call_args& a, bool write, const char* arg, const char* base, std::uint64_t off, std::uint64_t n, int block = -1);

// counts[P] and displacements[P] (elements of `size` bytes) into bytes
// ([counts..., displacements...]); each block must fit in the heap from the
// buffer's offset, and is noted as read (or written) but the block of rank
// `own`, an in-place member's input, which is read. {} on error.
std::vector<std::uint64_t> check_vector(call_args& a, const size_t* counts, const size_t* displs, std::size_t size,
                                        upc::sptr<void> buf, const char* counts_arg, const char* displs_arg,
                                        upccoll_return_t counts_code, upccoll_return_t displs_code, bool write, int own = -1);

}  // namespace upccoll_front
