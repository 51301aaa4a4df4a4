// upc_main for programs built by upcc (libupcemu_c_main): a C translation unit
// cannot define the C++ function upc_main that runtime/main.cpp calls, so upcc
// renames the program's main to upcemu_c_program_main and this calls it.
// Before it, the initialisers of shared objects run (thread 0, then a barrier),
// then each thread's initialisers of its private pointers-to-shared.
extern "C" int upcemu_c_program_main(int argc, char** argv);
extern "C" void upcemu_run_initializers(void);
extern "C" void upcemu_run_private_initializers(void);

int upc_main(int argc, char** argv) {
  upcemu_run_initializers();
  upcemu_run_private_initializers();
  return upcemu_c_program_main(argc, argv);
}
