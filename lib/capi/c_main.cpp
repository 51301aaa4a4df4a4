// upc_main for programs built by upcc (libupcemu_c_main): a C translation unit
// cannot define the C++ function upc_main that runtime/main.cpp calls, so upcc
// renames the program's main to upcemu_c_program_main and this calls it.
extern "C" int upcemu_c_program_main(int argc, char** argv);

int upc_main(int argc, char** argv) { return upcemu_c_program_main(argc, argv); }
