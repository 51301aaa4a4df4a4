// The engine's outcome of a collective: what went wrong, in the engine's words.
// Each front-end maps these to its own codes (lib/api/upccoll_status.cpp for
// UPCCOLL_ERROR_*); a member whose call failed before it could post passes its
// failure in as one of these, and every other member's call ends with the same.
#pragma once
#include <cstdint>

namespace upc::coll {

#define UPCEMU_STATUSES(X)                                                               \
  X(ok, "ok")                                                                            \
  X(failed, "the call failed")                                                           \
  X(bad_team, "not a usable team")                                                       \
  X(bad_size, "a size does not fit the team")                                            \
  X(bad_rank, "a rank or key is not valid")                                              \
  X(bad_handle, "not a live handle")                                                     \
  X(bad_send_buffer, "the send buffer cannot be used")                                   \
  X(bad_recv_buffer, "the receive buffer cannot be used")                                \
  X(bad_count, "the byte counts of a sender and a receiver disagree")                    \
  X(bad_type, "the element type differs or is not valid")                                \
  X(bad_op, "the operation differs or is not valid")                                     \
  X(bad_flags, "the synchronisation flags differ or are not valid")                      \
  X(bad_root, "the root differs or is not a member")                                     \
  X(bad_send_type, "the send type is not valid")                                         \
  X(bad_recv_type, "the receive type is not valid")                                      \
  X(bad_send_counts, "the send counts are not valid")                                    \
  X(bad_recv_counts, "the receive counts differ or are not valid")                       \
  X(bad_send_displs, "the send displacements are not valid")                             \
  X(bad_recv_displs, "the receive displacements are not valid")                          \
  X(no_memory, "no shared heap left")                                                    \
  X(uninitialized, "the library is not initialised")

enum class status : std::uint8_t {
#define UPCEMU_STATUS_ID(id, text) id,
  UPCEMU_STATUSES(UPCEMU_STATUS_ID)
#undef UPCEMU_STATUS_ID
};

// "bad_count", and what it means.
const char* status_name(status s) noexcept;
const char* status_text(status s) noexcept;

}  // namespace upc::coll
