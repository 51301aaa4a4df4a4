// The C side of <upc_io.h> for upcc (tools/upcc/include/upc_io.h, docs/upcc.md
// "Library headers"): extern "C" wrappers over the C++ library
// (include/upc_io.h, lib/io/). A upc_file_t * is, in C, the pointer-to-shared
// {handle, thread 0, phase 0}, and in C++ the opaque pointer whose value is the
// handle; upc_all_fopen takes no pointer-to-shared, so its C symbol is renamed
// (upcemu_upc_all_fopen, an __asm__ label in the UPC header).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "upcemu_c.h"
#include "upc_io.h"

namespace {

upc_file_t* file_of(upcemu_sptr p) {
  // Anything but a handle's own pointer names no open file (an odd address never is one).
  if (p.thread != 0 || p.phase != 0) return reinterpret_cast<upc_file_t*>(std::uintptr_t{1});
  return reinterpret_cast<upc_file_t*>(static_cast<std::uintptr_t>(p.offset));
}
upcemu_sptr sptr_of(upc_file_t* f) { return upcemu_sptr{static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(f)), 0, 0}; }
upc::sptr<void> vptr(upcemu_sptr p) { return upc::sptr<void>(upc::shared_address{p.offset, p.thread, p.phase}); }

// struct upc_shared_memvec as the translated UPC declares it.
struct c_shared_memvec {
  upcemu_sptr baseaddr;
  size_t blocksize;
  size_t len;
};
std::vector<upc_shared_memvec> memvecs(size_t n, const c_shared_memvec* v) {
  std::vector<upc_shared_memvec> out;
  if (!v) return out;  // the library reports a null memvec with entries
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) out.push_back(upc_shared_memvec{vptr(v[i].baseaddr), v[i].blocksize, v[i].len});
  return out;
}
const upc_shared_memvec* data_or_null(const std::vector<upc_shared_memvec>& v, const c_shared_memvec* given) {
  return given ? v.data() : nullptr;
}

}  // namespace

extern "C" {

upcemu_sptr upcemu_upc_all_fopen(const char* fname, int flags, size_t numhints, const upc_hint* hints) {
  return sptr_of(upc_all_fopen(fname, flags, numhints, hints));
}
int upc_all_fclose(upcemu_sptr fd) { return upc_all_fclose(file_of(fd)); }
int upc_all_fsync(upcemu_sptr fd) { return upc_all_fsync(file_of(fd)); }
upc_off_t upc_all_fseek(upcemu_sptr fd, upc_off_t offset, int origin) { return upc_all_fseek(file_of(fd), offset, origin); }
int upc_all_fset_size(upcemu_sptr fd, upc_off_t size) { return upc_all_fset_size(file_of(fd), size); }
upc_off_t upc_all_fget_size(upcemu_sptr fd) { return upc_all_fget_size(file_of(fd)); }
int upc_all_fpreallocate(upcemu_sptr fd, upc_off_t size) { return upc_all_fpreallocate(file_of(fd), size); }
int upc_all_fcntl(upcemu_sptr fd, int cmd, void* arg) { return upc_all_fcntl(file_of(fd), cmd, arg); }

upc_off_t upc_all_fread_local(upcemu_sptr fd, void* buffer, size_t size, size_t nmemb, upc_flag_t flags) {
  return upc_all_fread_local(file_of(fd), buffer, size, nmemb, flags);
}
upc_off_t upc_all_fwrite_local(upcemu_sptr fd, void* buffer, size_t size, size_t nmemb, upc_flag_t flags) {
  return upc_all_fwrite_local(file_of(fd), buffer, size, nmemb, flags);
}
upc_off_t upc_all_fread_shared(upcemu_sptr fd, upcemu_sptr buffer, size_t blocksize, size_t size, size_t nmemb,
                               upc_flag_t flags) {
  return upc_all_fread_shared(file_of(fd), vptr(buffer), blocksize, size, nmemb, flags);
}
upc_off_t upc_all_fwrite_shared(upcemu_sptr fd, upcemu_sptr buffer, size_t blocksize, size_t size, size_t nmemb,
                                upc_flag_t flags) {
  return upc_all_fwrite_shared(file_of(fd), vptr(buffer), blocksize, size, nmemb, flags);
}

upc_off_t upc_all_fread_list_local(upcemu_sptr fd, size_t memvec_entries, const upc_local_memvec* memvec,
                                   size_t filevec_entries, const upc_filevec* filevec, upc_flag_t flags) {
  return upc_all_fread_list_local(file_of(fd), memvec_entries, memvec, filevec_entries, filevec, flags);
}
upc_off_t upc_all_fwrite_list_local(upcemu_sptr fd, size_t memvec_entries, const upc_local_memvec* memvec,
                                    size_t filevec_entries, const upc_filevec* filevec, upc_flag_t flags) {
  return upc_all_fwrite_list_local(file_of(fd), memvec_entries, memvec, filevec_entries, filevec, flags);
}
upc_off_t upc_all_fread_list_shared(upcemu_sptr fd, size_t memvec_entries, const c_shared_memvec* memvec,
                                    size_t filevec_entries, const upc_filevec* filevec, upc_flag_t flags) {
  const auto v = memvecs(memvec_entries, memvec);
  return upc_all_fread_list_shared(file_of(fd), memvec_entries, data_or_null(v, memvec), filevec_entries, filevec, flags);
}
upc_off_t upc_all_fwrite_list_shared(upcemu_sptr fd, size_t memvec_entries, const c_shared_memvec* memvec,
                                     size_t filevec_entries, const upc_filevec* filevec, upc_flag_t flags) {
  const auto v = memvecs(memvec_entries, memvec);
  return upc_all_fwrite_list_shared(file_of(fd), memvec_entries, data_or_null(v, memvec), filevec_entries, filevec, flags);
}

void upc_all_fread_local_async(upcemu_sptr fd, void* buffer, size_t size, size_t nmemb, upc_flag_t flags) {
  upc_all_fread_local_async(file_of(fd), buffer, size, nmemb, flags);
}
void upc_all_fwrite_local_async(upcemu_sptr fd, void* buffer, size_t size, size_t nmemb, upc_flag_t flags) {
  upc_all_fwrite_local_async(file_of(fd), buffer, size, nmemb, flags);
}
void upc_all_fread_shared_async(upcemu_sptr fd, upcemu_sptr buffer, size_t blocksize, size_t size, size_t nmemb,
                                upc_flag_t flags) {
  upc_all_fread_shared_async(file_of(fd), vptr(buffer), blocksize, size, nmemb, flags);
}
void upc_all_fwrite_shared_async(upcemu_sptr fd, upcemu_sptr buffer, size_t blocksize, size_t size, size_t nmemb,
                                 upc_flag_t flags) {
  upc_all_fwrite_shared_async(file_of(fd), vptr(buffer), blocksize, size, nmemb, flags);
}
void upc_all_fread_list_local_async(upcemu_sptr fd, size_t memvec_entries, const upc_local_memvec* memvec,
                                    size_t filevec_entries, const upc_filevec* filevec, upc_flag_t flags) {
  upc_all_fread_list_local_async(file_of(fd), memvec_entries, memvec, filevec_entries, filevec, flags);
}
void upc_all_fwrite_list_local_async(upcemu_sptr fd, size_t memvec_entries, const upc_local_memvec* memvec,
                                     size_t filevec_entries, const upc_filevec* filevec, upc_flag_t flags) {
  upc_all_fwrite_list_local_async(file_of(fd), memvec_entries, memvec, filevec_entries, filevec, flags);
}
void upc_all_fread_list_shared_async(upcemu_sptr fd, size_t memvec_entries, const c_shared_memvec* memvec,
                                     size_t filevec_entries, const upc_filevec* filevec, upc_flag_t flags) {
  const auto v = memvecs(memvec_entries, memvec);
  upc_all_fread_list_shared_async(file_of(fd), memvec_entries, data_or_null(v, memvec), filevec_entries, filevec, flags);
}
void upc_all_fwrite_list_shared_async(upcemu_sptr fd, size_t memvec_entries, const c_shared_memvec* memvec,
                                      size_t filevec_entries, const upc_filevec* filevec, upc_flag_t flags) {
  const auto v = memvecs(memvec_entries, memvec);
  upc_all_fwrite_list_shared_async(file_of(fd), memvec_entries, data_or_null(v, memvec), filevec_entries, filevec, flags);
}
upc_off_t upc_all_fwait_async(upcemu_sptr fd) { return upc_all_fwait_async(file_of(fd)); }
upc_off_t upc_all_ftest_async(upcemu_sptr fd, int* flag) { return upc_all_ftest_async(file_of(fd), flag); }

}  // extern "C"
