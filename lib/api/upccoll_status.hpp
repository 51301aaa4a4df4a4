// UPCCOLL_ERROR_* and the engine's status (lib/coll/status.hpp), both ways:
// one table, so a code the engine carries between members comes back as the
// code the failing member's call chose.
#pragma once
#include "../coll/status.hpp"
#include "upccoll.h"

upc::coll::status to_status(upccoll_return_t code) noexcept;
upccoll_return_t from_status(upc::coll::status s) noexcept;
