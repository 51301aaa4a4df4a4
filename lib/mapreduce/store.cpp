// The per-thread intermediate pairs and upc_mr_emit, the one way a map function
// adds to them.
#include "store.hpp"

#include <climits>
#include <cstring>
#include <string>

#include "upc/error.hpp"
#include "upc_mr.h"

namespace upc::mr {

void pair_store::clear() {
  keys.clear();
  values.clear();
  key_sizes.clear();
  value_sizes.clear();
  key_size = value_size = no_pairs_yet;
}

pair_store& store() {
  // thread_local: a UPC thread is an OS thread (threads backend) or a process
  thread_local pair_store s;
  return s;
}

namespace {

int merged(int seen, int size) {
  if (seen == no_pairs_yet) return size;
  return seen == size ? seen : sizes_differ;
}

}  // namespace

}  // namespace upc::mr

int upc_mr_emit(void* key, void* value, const void* keyData, int sizeKey, const void* valueData, int sizeValue) {
  using upc::detail::fail;
  const char* F = "upc_mr_emit";
  upc::mr::pair_store& s = upc::mr::store();
  if (!s.mapping) fail(F, "called outside a map function (only mapfunc, while ApplyMap runs it, may emit pairs)");
  if (key != &s.key_handle || value != &s.value_handle)
    fail(F, std::string(key != &s.key_handle ? "key" : "value") +
                " is not the handle this thread's mapfunc received: pass mapfunc's own `key` and `value` arguments");
  if (sizeKey < 0) fail(F, "sizeKey = " + std::to_string(sizeKey) + " is negative");
  if (sizeValue < 0) fail(F, "sizeValue = " + std::to_string(sizeValue) + " is negative");
  if (sizeKey > 0 && keyData == nullptr) fail(F, "keyData is NULL with sizeKey = " + std::to_string(sizeKey));
  if (sizeValue > 0 && valueData == nullptr) fail(F, "valueData is NULL with sizeValue = " + std::to_string(sizeValue));
  if (s.count() >= static_cast<std::size_t>(INT_MAX))
    fail(F, "this thread already holds INT_MAX intermediate pairs (ApplyMap returns their number as an int)");
  const auto* k = static_cast<const unsigned char*>(keyData);
  const auto* v = static_cast<const unsigned char*>(valueData);
  if (sizeKey > 0) s.keys.insert(s.keys.end(), k, k + sizeKey);
  if (sizeValue > 0) s.values.insert(s.values.end(), v, v + sizeValue);
  s.key_sizes.push_back(sizeKey);
  s.value_sizes.push_back(sizeValue);
  s.key_size = upc::mr::merged(s.key_size, sizeKey);
  s.value_size = upc::mr::merged(s.value_size, sizeValue);
  return static_cast<int>(s.count());
}

int upc_mr_last_algorithm(void) { return upc::mr::store().last_algorithm; }
