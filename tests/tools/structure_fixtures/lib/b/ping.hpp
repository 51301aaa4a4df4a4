#pragma once
int ping(int n);
