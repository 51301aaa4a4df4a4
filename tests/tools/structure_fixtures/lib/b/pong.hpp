#pragma once
int pong(int n);
