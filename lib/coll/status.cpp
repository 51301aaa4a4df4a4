#include "status.hpp"

namespace upc::coll {

namespace {
const char* const g_names[] = {
#define UPCEMU_STATUS_NAME(id, text) #id,
    UPCEMU_STATUSES(UPCEMU_STATUS_NAME)
#undef UPCEMU_STATUS_NAME
};
const char* const g_texts[] = {
#define UPCEMU_STATUS_TEXT(id, text) text,
    UPCEMU_STATUSES(UPCEMU_STATUS_TEXT)
#undef UPCEMU_STATUS_TEXT
};
}  // namespace

const char* status_name(status s) noexcept { return g_names[static_cast<int>(s)]; }
const char* status_text(status s) noexcept { return g_texts[static_cast<int>(s)]; }

}  // namespace upc::coll
