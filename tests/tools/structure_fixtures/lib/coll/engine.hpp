#pragma once
// The engine's public header: the one lib/coll/ file a front-end may include.
int engine_submit(int request);
