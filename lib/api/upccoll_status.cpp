#include "upccoll_state.hpp"

namespace {

using upc::coll::status;

struct pair {
  upccoll_return_t code;
  status engine;
};

constexpr pair g_codes[] = {
    {UPCCOLL_SUCCESS, status::ok},
    {UPCCOLL_ERROR, status::failed},
    {UPCCOLL_ERROR_TEAM, status::bad_team},
    {UPCCOLL_ERROR_SIZE, status::bad_size},
    {UPCCOLL_ERROR_RANK, status::bad_rank},
    {UPCCOLL_ERROR_HANDLE, status::bad_handle},
    {UPCCOLL_ERROR_SENDBUF, status::bad_send_buffer},
    {UPCCOLL_ERROR_RECVBUF, status::bad_recv_buffer},
    {UPCCOLL_ERROR_COUNT, status::bad_count},
    {UPCCOLL_ERROR_DATATYPE, status::bad_type},
    {UPCCOLL_ERROR_UPC_OP, status::bad_op},
    {UPCCOLL_ERROR_FLAGS, status::bad_flags},
    {UPCCOLL_ERROR_ROOT, status::bad_root},
    {UPCCOLL_ERROR_SENDTYPE, status::bad_send_type},
    {UPCCOLL_ERROR_RECVTYPE, status::bad_recv_type},
    {UPCCOLL_ERROR_SENDCNTS, status::bad_send_counts},
    {UPCCOLL_ERROR_RECVCNTS, status::bad_recv_counts},
    {UPCCOLL_ERROR_SDISPLS, status::bad_send_displs},
    {UPCCOLL_ERROR_RDISPLS, status::bad_recv_displs},
    {UPCCOLL_ERROR_MALLOC, status::no_memory},
    {UPCCOLL_ERROR_UNINITIALIZED, status::uninitialized},
};

}  // namespace

namespace upccoll_front {

status to_status(upccoll_return_t code) noexcept {
  for (const pair& p : g_codes)
    if (p.code == code) return p.engine;
  return status::failed;
}

upccoll_return_t from_status(status s) noexcept {
  for (const pair& p : g_codes)
    if (p.engine == s) return p.code;
  return UPCCOLL_ERROR;
}

}  // namespace upccoll_front

const char* upccoll_error_name(upccoll_return_t code) {
  static const char* names[] = {"UPCCOLL_SUCCESS",        "UPCCOLL_ERROR",          "UPCCOLL_ERROR_TEAM",
                                "UPCCOLL_ERROR_SIZE",     "UPCCOLL_ERROR_RANK",     "UPCCOLL_ERROR_HANDLE",
                                "UPCCOLL_ERROR_SENDBUF",  "UPCCOLL_ERROR_RECVBUF",  "UPCCOLL_ERROR_COUNT",
                                "UPCCOLL_ERROR_DATATYPE", "UPCCOLL_ERROR_UPC_OP",   "UPCCOLL_ERROR_FLAGS",
                                "UPCCOLL_ERROR_ROOT",     "UPCCOLL_ERROR_SENDTYPE", "UPCCOLL_ERROR_RECVTYPE",
                                "UPCCOLL_ERROR_SENDCNTS", "UPCCOLL_ERROR_RECVCNTS", "UPCCOLL_ERROR_SDISPLS",
                                "UPCCOLL_ERROR_RDISPLS",  "UPCCOLL_ERROR_MALLOC",   "UPCCOLL_ERROR_UNINITIALIZED"};
  const int i = static_cast<int>(code);
  return i >= 0 && i < static_cast<int>(sizeof names / sizeof *names) ? names[i] : "(not an upccoll_return_t)";
}
