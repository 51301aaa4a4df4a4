// The text of `upcrun --help` (upcrun_options.hpp): every option, the
// environment variables they set and the exit statuses. docs/man/upcrun.1 says
// the same; the test 'upcrun man page lists every option' keeps them in step.
#include "upcrun_options.hpp"

namespace upcrun {

const char* const help_text =
    R"(Usage: upcrun -n THREADS [options] PROGRAM [ARGS...]

Runs a upcemu program as THREADS UPC threads: a UPC program built by upcc, or
a C++ one that defines upc_main and links upcemu's main (pkg-config upcemu).
upcrun checks its options, sets the UPCEMU_* environment variables below and
then executes PROGRAM in its own place, so PROGRAM's exit status, and any
signal that ends it, are upcrun's.

Options:
  -n, --threads N        number of UPC threads (THREADS), 1 to 4096
                         (default: $UPCEMU_THREADS, else the number of CPUs)
  --backend KIND         'threads' (default): THREADS OS threads in one process;
                         'processes': one forked process per UPC thread;
                         'mpi': one Open MPI rank per UPC thread, started by
                         mpirun, on one host or several (docs/backends.md);
                         Open MPI's files of the job go in a folder upcrun
                         removes (/dev/shm/upcrun-mpi.*; a killed upcrun's
                         by the next one)
  --hostfile FILE        mpi backend: the hosts for mpirun (its --hostfile); the
                         program and upcemu at the same path on every host
  --mpirun PATH          mpi backend: the mpirun to call (default:
                         $UPCEMU_MPIRUN, else mpirun from PATH)
  --heap SIZE            shared heap per thread, e.g. 512K, 64M, 1G (at least 64K;
                         default 64M, less when THREADS is large; SIZE x THREADS
                         at most 64 TiB, reserved sparsely)
  --nodes N              emulate a cluster: place the threads on N virtual nodes
                         (1 to THREADS, default 1); see docs/topology.md
  --threads-per-node K   nodes of exactly K threads (K must divide THREADS)
  --node-map MAP         how threads go to nodes: 'block' (default: consecutive
                         threads together), 'cyclic' (thread t on node t mod N),
                         or a FILE with one line per node listing its threads
                         (numbers or ranges such as 4-7; '#' comments)
  --report=traffic       print at exit, per collective call site and algorithm,
                         the bytes and copies within nodes and between nodes
                         and the largest fan-in (docs/topology.md)
  --report=locality      print at exit, per source line, the shared accesses
                         made there to the thread's own partition (local) and to
                         others' (remote; with --nodes, same node or another),
                         most remote first, and each upc_forall whose affinity
                         gives every iteration to every thread (docs/user-guide.md);
                         both reports: --report=traffic,locality
  --report-file FILE     write those rows to FILE as JSON lines instead (FILE must
                         be writable: checked before the program starts; alone,
                         it means --report=traffic)
  --net=LAT_US,GBPS      network model: every copy between nodes waits LAT_US
                         microseconds + bytes / GBPS gigabytes per second (off
                         by default; a model, not a measurement; LAT_US 0 to
                         1e9, GBPS 0 or at least 0.001, not both 0)
  --check                checked mode: bounds checks against each shared object,
                         the full single-valued argument checks of collectives,
                         <upccoll.h> errors printed as they are returned (and
                         every member of a call waits for every member, so all
                         get the same code), a note on its handles never waited
                         on, and wait warnings (see --wait-warning)
  --check=races          --check, and data races on shared data reported: two
                         accesses to the same bytes by different threads, one a
                         write, with no barrier, lock or strict access between
                         them (threads and processes backends; docs/races.md)
  --check=all-races      the same, but every distinct race (pair of places in the
                         program) is reported once and the run goes on; it ends
                         with status 1 if any was found
  --watchdog S           stop the run, printing where every thread waits, once
                         every thread has been waiting in the runtime for S
                         seconds with none of them moving: a deadlock (default 2;
                         on in every run)
  --wait-warning S       warn (without stopping) when threads have waited S
                         seconds in a barrier, collective or lock while other
                         threads run instead of arriving, naming what those last
                         called (default 20 with --check, else off; 0: off)
  --timeout S            stop the run after S seconds, printing where every thread
                         is (0, the default: no limit)
  --stack SIZE           stack of each UPC thread on the threads backend
                         (at least 64K, default 8M)
  --quiet                do not print failure reports to stderr
  --backtrace WHAT       the backtrace of a failure report: 'program' (default:
                         the program's own frames, demangled, with file:line
                         when it is built with -g; upcemu's and the system
                         libraries' frames not shown), 'full' (every frame) or
                         'off'
  --coll SPEC            force collective algorithms: "broadcast:push;exchange:
                         pairwise:0-64K" (collective:algorithm[:lo-hi] separated by
                         ';'; sizes per block, K/M/G suffixes, 'max'; 'auto' too)
  --coll-segment SIZE    the unit in which the chunk algorithms stage and forward
                         large runs (at least 64, K/M/G suffixes; default 128K)
  --verbose-coll         print, once per collective and algorithm, which ran
  --list-algorithms      list every collective's algorithms and exit
  --upccoll-progress M   who advances non-blocking upccoll_* collectives: 'inline'
                         (inside every upccoll call, the default) or 'thread' (also
                         a progress thread per UPC thread)
  -h, --help             show this help and exit
  --version              show the version and exit
  --                     end of options (for a PROGRAM whose name starts with -)

Options may also be written --option=VALUE, and -n as -nTHREADS. SIZE is a number
of bytes with an optional K, M or G suffix (powers of 1024). S is a number of
seconds (fractions allowed; not inf or nan). Options come before PROGRAM;
everything after it is passed to PROGRAM unchanged. A PROGRAM without a '/' is
looked up in PATH, so run one in the current directory as ./prog.

Environment (what the options set; a program started without upcrun reads them
too, and an option given to upcrun overrides the variable):
  UPCEMU_THREADS    -n            UPCEMU_BACKEND   --backend
  UPCEMU_HEAP       --heap        UPCEMU_NODES     --nodes
  UPCEMU_THREADS_PER_NODE --threads-per-node   UPCEMU_NODE_MAP --node-map
  UPCEMU_REPORT     --report      UPCEMU_REPORT_FILE --report-file
  UPCEMU_NET        --net
  UPCEMU_CHECK      --check (1/0, races, all-races) UPCEMU_WATCHDOG --watchdog
  UPCEMU_WAIT_WARNING --wait-warning
  UPCEMU_TIMEOUT    --timeout     UPCEMU_STACK     --stack
  UPCEMU_QUIET      --quiet (1/0) UPCEMU_BACKTRACE --backtrace
  UPCEMU_COLL       --coll        UPCEMU_VERBOSE_COLL --verbose-coll (1/0)
  UPCEMU_COLL_SEGMENT --coll-segment
  UPCEMU_UPCCOLL_PROGRESS --upccoll-progress
  UPCEMU_MPIRUN     --mpirun      UPCEMU_MPI_PLUGIN the mpi backend's module
                                  (libupcemu_mpi.so) to load instead of the
                                  build tree's or the installed one

Exit status (PROGRAM's, since upcrun becomes PROGRAM; on the mpi backend
upcrun waits for mpirun, whose status is the program's):
  0        every thread returned 0 from upc_main (or called exit(0))
  N        the first non-zero status a thread returned or passed to exit, in
           thread order, or upc_global_exit(N); also _exit(N), _Exit(N) or
           quick_exit(N) called by a thread, which is reported as a failure
           (1 for N = 0)
  1        a thread failed: an uncaught exception, a upc:: usage error, a thread
           that ended abnormally, a deadlock found by --check, or a shared array
           whose size expression threw
  124      the run exceeded --timeout
  128+N    a thread was killed by signal N (139: SIGSEGV, 137: SIGKILL), a thread
           the program started included
  130      interrupted (SIGINT, Ctrl-C); 143 for SIGTERM; every thread is stopped,
           also while they are being started
  2        bad usage: an invalid option or environment variable, no PROGRAM, or
           --heap x THREADS over 64 TiB
  126, 127 PROGRAM could not be executed / was not found (on every backend;
           mpi: before mpirun starts)
On every failure the report on stderr names the thread and the cause (exception
text, signal name, where each thread waits), and no shared-memory segment is
left in /dev/shm.

Example:
  upcrun -n 8 --backend processes --check --timeout 60 ./examples/hello
)";

}  // namespace upcrun
