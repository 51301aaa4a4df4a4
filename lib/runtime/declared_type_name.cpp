// The name of a declared shared object's type in reports ("shared_array<int, 4>",
// "shared [4] int array"): read by the heap's lookups and by the objects' own
// errors, so a unit of its own rather than a part of either.
#include <string>
#include <string_view>

#include "upc/detail/static_object.hpp"

namespace upc::detail {

std::string declared_type_name(const declared_type& t) {
  // The signature spells the element type after "T = " (GCC: "[with T = int]", Clang: "[T = int]").
  const std::string_view sig = t.signature ? t.signature : "";
  std::string element = "?";
  if (const std::size_t at = sig.find("T = "); at != std::string_view::npos) {
    const std::size_t from = at + 4, to = sig.find_first_of(";]", from);
    element = std::string(sig.substr(from, to == std::string_view::npos ? std::string_view::npos : to - from));
  }
  // An object declared in UPC source (upcc): in UPC's words, "shared [4] int array".
  const std::string_view family = t.family;
  if (family == "upc" || family == "upc[*]") {
    const std::string layout = family == "upc[*]" ? "[*] "
                               : t.block == 1  ? ""
                               : t.block == 0  ? "[] "
                                               : "[" + std::to_string(t.block) + "] ";
    return "shared " + layout + element + " array";
  }
  std::string name = std::string(t.family) + "<" + element;
  if (std::string_view(t.family) == "shared_array" && t.block != 1)
    name += ", " + (t.block == 0 ? std::string("indefinite") : std::to_string(t.block));
  return name + ">";
}

}  // namespace upc::detail
