#include "segment.hpp"

#include <unistd.h>

#include <atomic>
#include <boost/interprocess/mapped_region.hpp>
#include <boost/interprocess/permissions.hpp>
#include <boost/interprocess/shared_memory_object.hpp>
#include <cstring>
#include <memory>
#include <new>
#include <random>
#include <string>

#include "control.hpp"
#include "upc/runtime.hpp"

namespace bip = boost::interprocess;

namespace upc::detail {

namespace {
std::unique_ptr<bip::mapped_region> g_region;
std::atomic<unsigned> g_segment_counter{0};

std::string unique_segment_name() {
  std::random_device rd;
  return "/upcemu-" + std::to_string(::getpid()) + "-" + std::to_string(g_segment_counter++) + "-" +
         std::to_string(rd());
}
}  // namespace

void create_segment(const segment_geometry& g) {
  const std::string name = unique_segment_name();
  try {
    bip::permissions only_me(0600);
    bip::shared_memory_object shm(bip::create_only, name.c_str(), bip::read_write, only_me);
    try {
      shm.truncate(static_cast<bip::offset_t>(g.total_bytes()));
      g_region = std::make_unique<bip::mapped_region>(shm, bip::read_write);
    } catch (...) {
      bip::shared_memory_object::remove(name.c_str());
      throw;
    }
    bip::shared_memory_object::remove(name.c_str());
  } catch (const bip::interprocess_exception& e) {
    throw upc::error("upcrun",
                     "cannot create the shared segment of " + std::to_string(g.total_bytes()) +
                         " bytes in /dev/shm: " + e.what() + " (try a smaller --heap)",
                     -1);
  }
  char* base = static_cast<char*>(g_region->get_address());
  g_control = new (base) control_block{};
  g_partitions = base + g.header_bytes;
  g_partition_bytes = g.partition_bytes;
}

void destroy_segment() noexcept {
  g_region.reset();
  g_control = nullptr;
  g_partitions = nullptr;
}

}  // namespace upc::detail
