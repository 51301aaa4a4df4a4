// Berkeley UPC's access regions (bupc_begin_accessregion /
// bupc_end_accessregion, lib/capi/headers_bupc.cpp) over the implicit-handle
// transfers of <upc_nb.h> (nb.cpp): the implicit transfers a thread starts in
// a region are completed by the region's handle, not by upc_synci.
#pragma once
#include "upc_nb.h"

namespace upc::detail {

// Opens a region for the calling thread (the caller checks that none is open).
void nb_region_begin() noexcept;
// Closes it: one handle for the transfers started in it that are still to be
// noted at their sync under --check=races (UPC_COMPLETE_HANDLE when there are
// none: every transfer here completes when issued).
upc_handle_t nb_region_end();

}  // namespace upc::detail
