// For C wrappers of library calls whose own checks name the function and the
// thread but no line: at_c_site(f) runs f and, when it throws upc::error during
// a call from translated UPC (the header's macros set the site with
// upcemu_site_enter), adds "; called at prog.upc:12" to the report, unless the
// report already names that site.
#pragma once
#include <string>

#include "../runtime/call_site.hpp"
#include "upc/error.hpp"

namespace upc::capi {

template <class F>
auto at_c_site(F f) -> decltype(f()) {
  try {
    return f();
  } catch (const upc::error& e) {
    const upc::detail::c_site site = upc::detail::tl_c_site;
    if (!site.file) throw;
    const std::string at = upc::detail::location_text(site.file, site.line);
    if (e.message().find(at) != std::string::npos) throw;
    throw upc::error(e.function(), e.message() + "; called" + at, e.thread());
  }
}

}  // namespace upc::capi
