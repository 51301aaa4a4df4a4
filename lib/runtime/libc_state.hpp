// The C library state a UPC thread has to itself, as the process of a UPC
// implementation that runs each thread as a process gives it (Berkeley UPC, GCC
// UPC): its own argv, getopt state, random number sequences, strtok position,
// atexit handlers, and exit() that ends the thread, not the program.
// docs/implementation-defined.md "C library state" says what is per thread and
// what stays per process.
#pragma once
#include <functional>
#include <string>

namespace upc::detail {

// Runs a UPC thread's body as a C program's main: each thread starts with the
// state a new process has (reset_libc_state); a return from the body, or an
// exit(status) anywhere inside it, ends the thread with that status after its
// atexit handlers have run and every stream is flushed (libc_exit.cpp).
int run_as_main(const std::function<int()>& body);

// The state of a new process: getopt at argv[1], srand(1), srand48's zero
// state, no strtok string, no atexit handler. Each part lives in its own file.
void reset_libc_state() noexcept;
void reset_getopt_state() noexcept;   // libc_getopt.cpp
void reset_random_state() noexcept;   // libc_random.cpp
void reset_strtok_state() noexcept;   // libc_strtok.cpp

// A copy of argv (the array, argv[argc] == nullptr, and the strings) for one UPC
// thread, kept until the process ends (libc_argv.cpp).
char** copy_of_argv(int argc, char** argv);

// From here on exit() called by this OS thread ends the process, as glibc's:
// for the runtime's own ways out (the mpi backend's MPI_Abort may call exit).
void let_exit_end_process() noexcept;

// "returned from main" or "ended by calling exit(3)": how thread t ended, for
// the reports of a barrier, lock or collective it can no longer join.
std::string how_thread_ended(int t);

}  // namespace upc::detail
