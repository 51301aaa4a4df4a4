// What the engine finds wrong with a <upccoll.h> collective, said in this
// library's words (issue 28): the engine hands back a structured difference
// between two members' calls, or its own words for anything else; this file
// names the arguments as the paper's functions name them ("sendbuf", "dt",
// "recvcounts") and the collectives by their functions ("upccoll_bcast").
#pragma once
#include <string>

#include "../coll/engine.hpp"

namespace upccoll_front {

// The function that starts a kind ("upccoll_bcast"; the exclusive scan:
// "upccoll_scan", which upccoll_exscan shares), or nullptr for a kind this
// library does not start.
const char* function_name(upc::coll::collective kind) noexcept;

// The message of a failure: "root is 1 on this thread but 2 on thread 3".
std::string words(const upc::coll::tasks::failure& f);

// The library as the engine names it in wait reports and heap labels
// ("upccoll (staged input)"), and its reporter: under --check,
// "upcemu: FUNCTION: MESSAGE (seen by thread T): UPCCOLL_ERROR_X".
extern const upc::coll::tasks::front_end engine_words;

}  // namespace upccoll_front
