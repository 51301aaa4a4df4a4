#pragma once
// upccoll in a comment is no violation, nor /* UPCCOLL_IN_PLACE */ here.
const char* const kind_name = "upccoll_bcast";
int upccoll_helper(int x);  /* the name above is code: a violation */
