#include "hosts_slots.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "hosts.hpp"
#include "remote_ops.hpp"

namespace upc::detail {

namespace {
// The slot's head: state, wait and place, up to the last call's line.
constexpr std::size_t head_bytes = offsetof(thread_slot, last_line) + sizeof(std::uint32_t);

// A name in the control block (shared_names.hpp) is that host's text: the
// same address here holds this host's. Program text is at the same address
// in every rank (same_addresses.cpp).
bool host_local_name(const char* p) {
  const char* base = reinterpret_cast<const char*>(g_control);
  return p && p >= base && p < base + g_control->header_bytes;
}
}  // namespace

void hosts_slots::refresh() {
  control_block& c = control();
  const int T = c.threads;
  copies_.resize(static_cast<std::size_t>(T));
  progress_ = c.progress.load();
  std::vector<bool> host_counted(static_cast<std::size_t>(g_host_map.hosts), false);
  host_counted[static_cast<std::size_t>(g_host_map.my_host)] = true;
  std::vector<unsigned char> run_bytes;
  for (int t = 0; t < T;) {
    if (on_my_host(t)) {
      ++t;
      continue;
    }
    const int h = g_host_map.host_of[static_cast<std::size_t>(t)];
    if (!host_counted[static_cast<std::size_t>(h)]) {
      host_counted[static_cast<std::size_t>(h)] = true;
      std::uint64_t p = 0;
      remote_read(t, &c.progress, &p, sizeof p);
      progress_ += p;
    }
    // The host's consecutive threads' slots in one request.
    int end = t + 1;  // at most 512 slots a request (a reply holds 1 MiB)
    while (end < T && end - t < 512 && g_host_map.host_of[static_cast<std::size_t>(end)] == h) ++end;
    run_bytes.resize(static_cast<std::size_t>(end - t) * sizeof(thread_slot));
    remote_read(t, &c.slots[t], run_bytes.data(), run_bytes.size());
    for (int u = t; u < end; ++u) copy_head(u, run_bytes.data() + static_cast<std::size_t>(u - t) * sizeof(thread_slot));
    t = end;
  }
}

void hosts_slots::copy_head(int t, const unsigned char* slot_bytes) {
  control_block& c = control();
  auto& cp = copies_[static_cast<std::size_t>(t)];
  if (!cp) cp = std::make_unique<copy>();
  std::memset(cp->bytes, 0, sizeof cp->bytes);
  std::memcpy(cp->bytes, slot_bytes, head_bytes);
  auto* s = reinterpret_cast<thread_slot*>(cp->bytes);
  std::atomic<const char*>* names[4] = {&s->blocked_function, &s->blocked_file, &s->last_function, &s->last_file};
  for (int i = 0; i < 4; ++i) {
    const char* p = names[i]->load(std::memory_order_relaxed);
    if (!host_local_name(p)) continue;
    char text[128] = {};
    const std::size_t room = static_cast<std::size_t>(reinterpret_cast<const char*>(g_control) + c.header_bytes - p);
    remote_read(t, p, text, std::min(sizeof text - 1, room));
    cp->names[i] = text;
    names[i]->store(cp->names[i].c_str(), std::memory_order_relaxed);
  }
}

const thread_slot& hosts_slots::slot(int thread) const {
  if (on_my_host(thread) || thread >= static_cast<int>(copies_.size()) || !copies_[static_cast<std::size_t>(thread)])
    return control().slots[thread];
  return *reinterpret_cast<const thread_slot*>(copies_[static_cast<std::size_t>(thread)]->bytes);
}

}  // namespace upc::detail
