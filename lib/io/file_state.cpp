#include "file_state.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "../runtime/static_objects.hpp"
#include "../runtime/world_barrier.hpp"

namespace upc::io {

file_state::~file_state() {
  if (fd >= 0) ::close(fd);
}

void file_state::set_hint(const char* key, const char* value) {
  bool found = false;
  for (auto& h : hints)
    if (h.first == key) {
      h.second = value;
      found = true;
    }
  if (!found) hints.emplace_back(key, value);
  hint_view.clear();
  for (const auto& h : hints) hint_view.push_back(upc_hint{h.first.c_str(), h.second.c_str()});
}

namespace {
// A thread's open files, of one run: a process of the mpi backend runs many
// (the unit suite), and a file a run left open must not be found by the next.
struct registry {
  std::uint64_t serial = 0;
  std::vector<std::unique_ptr<file_state>> files;
};
registry& mine() {
  thread_local registry r;
  const std::uint64_t now = detail::run_serial();
  if (r.serial != now) {
    r.files.clear();  // closes what an earlier run left open
    r.serial = now;
  }
  return r;
}
}  // namespace

file_state* find(upc_file_t* fd) noexcept {
  const auto h = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(fd));
  if (h == 0) return nullptr;
  for (auto& f : mine().files)
    if (f->handle == h) return f.get();
  return nullptr;
}

file_state& add(std::unique_ptr<file_state> f) {
  registry& r = mine();
  r.files.push_back(std::move(f));
  return *r.files.back();
}

void forget(file_state* f) noexcept {
  registry& r = mine();
  for (auto it = r.files.begin(); it != r.files.end(); ++it)
    if (it->get() == f) {
      r.files.erase(it);
      return;
    }
}

io_call::io_call(const char* function, const std::source_location& where,
                 std::initializer_list<detail::collective_arg> args)
    : call_(function, where, args), function_(function) {
  if (check_enabled()) barrier();
}

void io_call::barrier() {
  detail::world_barrier(function_);
  met_ = true;
}

namespace {
void check_flags(const char* fn, upc_flag_t flags) {
  const upc_flag_t known = UPC_IN_ALLSYNC | UPC_IN_MYSYNC | UPC_IN_NOSYNC | UPC_OUT_ALLSYNC | UPC_OUT_MYSYNC | UPC_OUT_NOSYNC;
  if (flags & ~known)
    detail::fail(fn, "flags has bits " + std::to_string(flags & ~known) + " that are not UPC_IN_* or UPC_OUT_* sync flags (flags = " +
                         std::to_string(flags) + ")");
  auto many = [](upc_flag_t f) { return f != 0 && (f & (f - 1)) != 0; };
  if (many(flags & (UPC_IN_ALLSYNC | UPC_IN_MYSYNC | UPC_IN_NOSYNC)))
    detail::fail(fn, "flags combines more than one of UPC_IN_ALLSYNC, UPC_IN_MYSYNC, UPC_IN_NOSYNC");
  if (many(flags & (UPC_OUT_ALLSYNC | UPC_OUT_MYSYNC | UPC_OUT_NOSYNC)))
    detail::fail(fn, "flags combines more than one of UPC_OUT_ALLSYNC, UPC_OUT_MYSYNC, UPC_OUT_NOSYNC");
}
}  // namespace

// MYSYNC is kept as ALLSYNC: a barrier gives every guarantee MYSYNC asks for.
void io_call::in_sync(const file_state& f, upc_flag_t flags) {
  check_flags(function_, flags);
  if (met_) return;
  if (f.strong() || !(flags & UPC_IN_NOSYNC)) barrier();
}

void io_call::out_sync(const file_state& f, upc_flag_t flags) {
  if (f.strong() || !(flags & UPC_OUT_NOSYNC)) barrier();
}

namespace {
// Each thread's element of the exchange area: two rounds, so that a round's
// rows stay readable until every thread has passed the next round's barrier.
struct exchange_slot {
  row rounds[2];
};
}  // namespace

std::size_t exchange_slot_bytes() noexcept { return sizeof(exchange_slot); }

std::vector<row> io_call::exchange(file_state& f, const row& mine) {
  const std::uint32_t r = f.round++ & 1;
  const shared_address base = f.exchange_area.address();
  auto at = [&](int t) {
    return sptr<void>(shared_address{base.offset + r * sizeof(row), static_cast<std::uint32_t>(t), 0});
  };
  upc_memput(at(mythread()), mine.data(), sizeof(row));
  barrier();
  std::vector<row> rows(static_cast<std::size_t>(threads()));
  for (int t = 0; t < threads(); ++t) upc_memget(rows[static_cast<std::size_t>(t)].data(), at(t), sizeof(row));
  return rows;
}

upc_off_t error_return(int e) noexcept {
  errno = e;
  return -1;
}

void check_same_as_thread0(const char* fn, const std::vector<row>& rows, int column, const char* what,
                           const char* why) {
  const std::int64_t ref = rows[0][static_cast<std::size_t>(column)];
  const std::int64_t me = rows[static_cast<std::size_t>(mythread())][static_cast<std::size_t>(column)];
  if (me == ref) return;
  detail::fail(fn, std::string("argument ") + what + " must be single-valued (the same on every thread)" + why +
                       ": this thread passed " + std::to_string(me) + ", thread 0 passed " + std::to_string(ref));
}

}  // namespace upc::io
