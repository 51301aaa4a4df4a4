/* Included (clang -include) only when upcc parses; never in the output. */
enum { __upcc_THREADS = 1 };
extern const int __upcc_MYTHREAD;
void __upcc_barrier();
void __upcc_notify();
void __upcc_wait();
void __upcc_fence(void);
int __upcc_forall_aff();
unsigned long __upcc_blocksizeof();
unsigned long __upcc_elemsizeof();
unsigned long __upcc_localsizeof();
