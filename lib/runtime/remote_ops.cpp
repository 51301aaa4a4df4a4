#include "remote_ops.hpp"

#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "mpi_session.hpp"
#include "call_site.hpp"
#include "dsm.hpp"
#include "futex.hpp"
#include "mpi_plugin.hpp"

namespace upc::detail {

namespace {
volatile int g_stop = 0;
thread_local int tl_channel = 0;
std::thread g_server;

[[noreturn]] void lost(const char* what, int rc) {
  fail("upcemu", std::string("a request to another host failed (") + what + "): " + mpi_ops().last_error() +
                     " (code " + std::to_string(rc) + ")");
}

template <class T>
std::uint64_t atomic_on(remote_op op, void* address, std::uint64_t value, std::uint64_t expected) {
  auto& w = *static_cast<std::atomic<T>*>(address);
  const T v = static_cast<T>(value);
  switch (op) {
    case remote_op::load32: case remote_op::load64: return w.load();
    case remote_op::store32: case remote_op::store64: w.store(v); return 0;
    case remote_op::fetch_add32: case remote_op::fetch_add64: return w.fetch_add(v);
    case remote_op::exchange32: case remote_op::exchange64: return w.exchange(v);
    case remote_op::compare_exchange32: case remote_op::compare_exchange64: {
      T e = static_cast<T>(expected);
      w.compare_exchange_strong(e, v);
      return e;
    }
    default: return 0;
  }
}

std::vector<remote_function>& functions() {
  static std::vector<remote_function> f;
  return f;
}

// The server's side: memory of this host, reached with this process's mapping.
void serve(const void* in, std::uint64_t bytes, int, mpi_rpc_reply* out) {
  remote_request r;
  std::memcpy(&r, in, sizeof r);
  void* at = reinterpret_cast<void*>(static_cast<std::uintptr_t>(r.address));
  const auto reply = [out](std::uint64_t value) {
    std::memcpy(out->buffer, &value, 8);
    out->bytes = 8;
  };
  switch (r.op) {
    case remote_op::read:  // sent from where it lies
      out->from = at;
      out->bytes = r.bytes;
      return;
    case remote_op::write:  // received into place, then acknowledged
      out->receive_into = at;
      out->receive_bytes = r.bytes;
      return reply(0);
    case remote_op::write_runs: {
      const char* p = static_cast<const char*>(in) + sizeof r;
      const char* end = static_cast<const char*>(in) + bytes;
      while (p + 16 <= end) {
        std::uint64_t a, n;
        std::memcpy(&a, p, 8);
        std::memcpy(&n, p + 8, 8);
        std::memcpy(reinterpret_cast<void*>(static_cast<std::uintptr_t>(a)), p + 16, n);
        p += 16 + n;
      }
      std::atomic_thread_fence(std::memory_order_seq_cst);
      return reply(0);
    }
    case remote_op::store32_wake: {
      auto& w = *static_cast<std::atomic<std::uint32_t>*>(at);
      w.store(static_cast<std::uint32_t>(r.value));
      futex_wake_all(&w);
      return;  // posted: no reply
    }
    case remote_op::invoke: {
      if (r.value >= functions().size() || out->capacity < 16) return;
      std::memset(out->buffer, 0, 16);
      functions()[r.value](at, static_cast<const char*>(in) + sizeof r, bytes - sizeof r, out->buffer);
      out->bytes = 16;
      return;
    }
    case remote_op::release_lock32: {
      auto& w = *static_cast<std::atomic<std::uint32_t>*>(at);
      const std::uint64_t old = w.exchange(0, std::memory_order_release);
      if (old == 2) futex_wake_one(&w);
      return reply(old);
    }
    case remote_op::load32: case remote_op::store32: case remote_op::fetch_add32:
    case remote_op::compare_exchange32: case remote_op::exchange32:
      return reply(atomic_on<std::uint32_t>(r.op, at, r.value, r.expected));
    default:
      return reply(atomic_on<std::uint64_t>(r.op, at, r.value, r.expected));
  }
}
}  // namespace

void remote_read(int owner, const void* address, void* out, std::size_t bytes) {
  remote_request r{remote_op::read};
  r.address = reinterpret_cast<std::uintptr_t>(address);
  r.bytes = bytes;
  if (int rc = mpi_ops().rpc_call(owner, &r, sizeof r, nullptr, 0, out, bytes, tl_channel)) lost("read", rc);
}

void remote_write_runs(int owner, const void* payload, std::size_t bytes) {
  std::uint64_t ack = 0;
  if (int rc = mpi_ops().rpc_call(owner, payload, bytes, nullptr, 0, &ack, sizeof ack, tl_channel)) lost("write", rc);
}

void remote_write(int owner, void* address, const void* data, std::size_t bytes) {
  remote_request r{remote_op::write};
  r.address = reinterpret_cast<std::uintptr_t>(address);
  r.bytes = bytes;
  std::uint64_t ack = 0;
  if (int rc = mpi_ops().rpc_call(owner, &r, sizeof r, data, bytes, &ack, sizeof ack, tl_channel)) lost("write", rc);
}

std::uint64_t remote_atomic(int owner, remote_op op, const void* address, std::uint64_t value, std::uint64_t expected) {
  if (op == remote_op::store32_wake) {  // gets no reply: it is posted
    remote_post(owner, op, address, value);
    return 0;
  }
  remote_request r{op};
  r.address = reinterpret_cast<std::uintptr_t>(address);
  r.value = value;
  r.expected = expected;
  std::uint64_t old = 0;
  if (int rc = mpi_ops().rpc_call(owner, &r, sizeof r, nullptr, 0, &old, sizeof old, tl_channel)) lost("atomic", rc);
  return old;
}

void remote_post(int owner, remote_op op, const void* address, std::uint64_t value) {
  remote_request r{op};
  r.address = reinterpret_cast<std::uintptr_t>(address);
  r.value = value;
  if (int rc = mpi_ops().rpc_send(owner, &r, sizeof r)) lost("post", rc);
}

int register_remote_function(remote_function f) {
  functions().push_back(f);
  return static_cast<int>(functions().size() - 1);
}

void remote_invoke(int owner, int function, const void* address, const void* argument, std::size_t bytes,
                   void* reply16) {
  std::vector<char> msg(sizeof(remote_request) + bytes);
  remote_request r{remote_op::invoke};
  r.address = reinterpret_cast<std::uintptr_t>(address);
  r.value = static_cast<std::uint64_t>(function);
  std::memcpy(msg.data(), &r, sizeof r);
  if (bytes) std::memcpy(msg.data() + sizeof r, argument, bytes);
  if (int rc = mpi_ops().rpc_call(owner, msg.data(), msg.size(), nullptr, 0, reply16, 16, tl_channel | rpc_server_only)) lost("atomic", rc);
}

void set_remote_channel(int channel) noexcept { tl_channel = channel; }

std::uint32_t remote_claim(std::atomic<std::uint32_t>& word) {
  remote_request r{remote_op::compare_exchange32};
  r.address = reinterpret_cast<std::uintptr_t>(&word);
  r.value = 1;
  r.expected = 0;
  std::uint64_t old = 1;
  if (mpi_ops().rpc_call(0, &r, sizeof r, nullptr, 0, &old, sizeof old, tl_channel)) return 0;  // no answer: report it here
  return static_cast<std::uint32_t>(old);
}

void start_remote_server() {
  g_stop = 0;
  g_server = std::thread([] {
    tl_no_cache = true;
    mpi_ops().rpc_serve(serve, &g_stop);
  });
}

void stop_remote_server() noexcept {
  if (!g_server.joinable()) return;
  g_stop = 1;
  g_server.join();
}

}  // namespace upc::detail
