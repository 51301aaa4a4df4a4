#include <upc.h>
shared int ok[THREADS] = {1};
shared int bad[2][THREADS] = {{1}, {2}};
int main(void) { return ok[0] - bad[0][0]; }
