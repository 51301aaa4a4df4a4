/* Plain C linked into upc_in_c_file's program (after -x c: compiled as C, no
   translation; a .c file is UPC by default, as with Berkeley upcc). */
long helper_checksum(const int *v, int n) {
  long s = 0;
  for (int i = 0; i < n; i++) s = s * 31 + v[i];
  return s;
}

int helper_is_plain_c(void) {
#ifdef __UPC__
  return 0;
#else
  return 1;
#endif
}
