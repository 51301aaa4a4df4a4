/* The official problem classes of NAS IS and FT (NPB 3.x), in one place for
 * the UPC applications (apps/nas/is, apps/nas/ft: C++) and their MPI peers
 * (bench/peers/mpi/nas: C): sizes, iterations and the verification values.
 * Plain C, includable from C++. */
#ifndef UPCEMU_NPB_CLASSES_H
#define UPCEMU_NPB_CLASSES_H

/* ---- IS ------------------------------------------------------------------ */
#define NPB_IS_TEST_ARRAY_SIZE 5 /* NPB's TEST_ARRAY_SIZE */
#define NPB_IS_MAX_ITERATIONS 10 /* NPB's MAX_ITERATIONS */

/* Keys, key range, buckets, and the ranks five chosen keys must have. */
struct npb_is_class {
  char name;
  int total_keys_log2, max_key_log2, num_buckets_log2;
  long test_index[NPB_IS_TEST_ARRAY_SIZE], test_rank[NPB_IS_TEST_ARRAY_SIZE];
};

static const struct npb_is_class npb_is_classes[] = {
    {'S', 16, 11, 9, {48427, 17148, 23627, 62548, 4431}, {0, 18, 346, 64917, 65463}},
    {'W', 20, 16, 10, {357773, 934767, 875723, 898999, 404505}, {1249, 11698, 1039987, 1043896, 1048018}},
    {'A', 23, 19, 10, {2112377, 662041, 5336171, 3642833, 4250760}, {104, 17523, 123928, 8288932, 8388264}},
    {'B', 25, 21, 10, {41869, 812306, 5102857, 18232239, 26860214}, {33422937, 10244, 59149, 33135281, 99}},
    {'C', 27, 23, 10, {44172927, 72999161, 74326391, 129606274, 21736814}, {61147, 882988, 266290, 133997595, 133525895}},
};
enum { npb_is_class_count = sizeof npb_is_classes / sizeof npb_is_classes[0] };

/* NPB's per-class rule: the rank test key i must have in an iteration (the
 * iteration moves two keys, so some ranks go up and some down with it). */
static inline long npb_is_expected_rank(const struct npb_is_class *c, int i, int iteration) {
  const long r = c->test_rank[i];
  switch (c->name) {
    case 'S': return i <= 2 ? r + iteration : r - iteration;
    case 'W': return i < 2 ? r + (iteration - 2) : r - iteration;
    case 'A': return i <= 2 ? r + (iteration - 1) : r - (iteration - 1);
    case 'B': return i == 1 || i == 2 || i == 4 ? r + iteration : r - iteration;
    default: return i <= 2 ? r + iteration : r - iteration; /* 'C' */
  }
}

/* ---- FT ------------------------------------------------------------------ */
#define NPB_FT_MAX_ITERATIONS 20

/* The grid, the iterations and NPB's checksum (real, imaginary) after each. */
struct npb_ft_class {
  char name;
  int nx, ny, nz, niter;
  double ref[NPB_FT_MAX_ITERATIONS][2];
};

static const struct npb_ft_class npb_ft_classes[] = {
    {'S',
     64,
     64,
     64,
     6,
     {{5.546087004964e+02, 4.845363331978e+02},
      {5.546385409189e+02, 4.865304269511e+02},
      {5.546148406171e+02, 4.883910722336e+02},
      {5.545423607415e+02, 4.901273169046e+02},
      {5.544255039624e+02, 4.917475857993e+02},
      {5.542683411902e+02, 4.932597244941e+02}}},
    {'W',
     128,
     128,
     32,
     6,
     {{5.673612178944e+02, 5.293246849175e+02},
      {5.631436885271e+02, 5.282149986629e+02},
      {5.594024089970e+02, 5.270996558037e+02},
      {5.560698047020e+02, 5.260027904925e+02},
      {5.530898991250e+02, 5.249400845633e+02},
      {5.504159734538e+02, 5.239212247086e+02}}},
    {'A',
     256,
     256,
     128,
     6,
     {{5.046735008193e+02, 5.114047905510e+02},
      {5.059412319734e+02, 5.098809666433e+02},
      {5.069376896287e+02, 5.098144042213e+02},
      {5.077892868474e+02, 5.101336130759e+02},
      {5.085233095391e+02, 5.104914655194e+02},
      {5.091487099959e+02, 5.107917842803e+02}}},
    {'B', 512, 256, 256, 20, {{5.177643571579e+02, 5.077803458597e+02}, {5.154521291263e+02, 5.088249431599e+02},
                              {5.146409228649e+02, 5.096208912659e+02}, {5.142378756213e+02, 5.101023387619e+02},
                              {5.139626667737e+02, 5.103976610617e+02}, {5.137423460082e+02, 5.105948019802e+02},
                              {5.135547056878e+02, 5.107404165783e+02}, {5.133910925466e+02, 5.108576573661e+02},
                              {5.132470705390e+02, 5.109577278523e+02}, {5.131197729984e+02, 5.110460304483e+02},
                              {5.130070319283e+02, 5.111252433800e+02}, {5.129070537032e+02, 5.111968077718e+02},
                              {5.128182883502e+02, 5.112616233064e+02}, {5.127393733383e+02, 5.113203605551e+02},
                              {5.126691062020e+02, 5.113735928093e+02}, {5.126064276004e+02, 5.114218460548e+02},
                              {5.125504076570e+02, 5.114656139760e+02}, {5.125002331720e+02, 5.115053595966e+02},
                              {5.124551951846e+02, 5.115415130407e+02}, {5.124146770029e+02, 5.115744692211e+02}}},
};
enum { npb_ft_class_count = sizeof npb_ft_classes / sizeof npb_ft_classes[0] };

#endif
