#pragma once
int engine_detail();
