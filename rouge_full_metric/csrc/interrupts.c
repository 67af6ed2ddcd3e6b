/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* Ctrl-C inside one long call                                                                  */
/*
 * Python runs its signal handlers between bytecodes; a call into the core that runs for seconds
 * (one example of a million tokens, a whole score_matrix, a 10 MB text through a segmenter)
 * would hold Ctrl-C until it returns.  So the long loops report their work here: every
 * POLL_WORK units (about a millisecond of the cheapest kernel's work) a monotonic clock is
 * read, and once SIGNAL_MS have passed the GIL is taken to run the handlers.  When they raise
 * (KeyboardInterrupt), or when another thread sets the call's cancel byte, w->stop is set: the
 * kernels then return at once with meaningless numbers, each caller still restores the
 * Worker's neutral scratch state on its way out, and the call ends with the exception.
 * Loops that run with the GIL held (the segmenters) call PyErr_CheckSignals themselves.
 */

#define SIGNAL_EVERY 16
#define SIGNAL_MS 50
/* Work units (64-bit word operations, table cells) between two clock reads. */
#define POLL_WORK ((int64_t)1 << 20)
/* Loops add their work to a local counter and call worker_poll once it passes this. */
#define POLL_LOCAL ((Py_ssize_t)1 << 14)

static int64_t monotonic_ms(void) {
#if defined(_WIN32)
    return (int64_t)clock() * 1000 / CLOCKS_PER_SEC;
#else
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
#endif
}

/* Loops that run for seconds without the GIL (the bootstrap's replicate
 * sums: 10^6 examples x 1000 replicates take ~20 s): the signal handlers every SIGNAL_MS, the GIL
 * taken for them; 1 when one raised (its exception is set, the GIL released again). */
static int nogil_signals(PyThreadState **ts, int64_t *last) {
    int64_t now = monotonic_ms();
    if (now - *last < SIGNAL_MS) return 0;
    *last = now;
    PyEval_RestoreThread(*ts);
    int rc = PyErr_CheckSignals();
    *ts = PyEval_SaveThread();
    return rc != 0;
}

/* 0, or -1 with the signal handler's exception set and c->err = ERR_PY. */
static int poll_signals(Ctx *c, int64_t *last) {
    if (c->helper) return 0;
    int rc;
    if (c->nogil) rc = nogil_signals(&c->ts, last);
    else {
        int64_t now = monotonic_ms();
        if (now - *last < SIGNAL_MS) return 0;
        *last = now;
        rc = PyErr_CheckSignals() != 0;
    }
    if (rc) c->err = ERR_PY;
    return rc ? -1 : 0;
}

/* The Worker's call starts (c: its context; cancel: a byte another thread may set, or NULL). */
static void poll_begin(WorkerObject *w, Ctx *c, const volatile unsigned char *cancel) {
    w->ctx = c;
    w->cancel = cancel;
    w->stop = 0;
    w->poll_work = 0;
    w->poll_last = monotonic_ms();
}

static void poll_end(WorkerObject *w) {
    w->ctx = NULL;
    w->cancel = NULL;
}

/* A kernel call releases the GIL and starts polling; cancel: a bytearray of one byte, or NULL. */
static void poll_begin_nogil(WorkerObject *w, Ctx *c, PyObject *cancel) {
    c->w = w;
    c->nogil = 1;
    c->err = 0;
    c->helper = 0;
    c->ts = PyEval_SaveThread();
    poll_begin(w, c, cancel ? (const volatile unsigned char *)PyByteArray_AS_STRING(cancel) : NULL);
}

/* ... and ends: the GIL back; 1 when it was stopped (the exception is set). */
static int poll_end_nogil(WorkerObject *w, Ctx *c) {
    int stopped = w->stop;
    poll_end(w);
    PyEval_RestoreThread(c->ts);
    return stopped;
}

static int worker_poll_slow(WorkerObject *w) {
    Ctx *c = w->ctx;
    w->poll_work = 0;
    if (!c) return 0;
    if (w->cancel && *w->cancel) {
        if (c->nogil) PyEval_RestoreThread(c->ts);
        PyErr_SetNone(PyExc_KeyboardInterrupt);
        if (c->nogil) c->ts = PyEval_SaveThread();
        c->err = ERR_PY;
        w->stop = 1;
        return 1;
    }
    if (poll_signals(c, &w->poll_last)) w->stop = 1;
    return w->stop;
}

/* 1 once the running call must end; work: units done since the last call. */
static inline int worker_poll(WorkerObject *w, Py_ssize_t work) {
    if (w->stop) return 1;
    if ((w->poll_work += work) < POLL_WORK) return 0;
    return worker_poll_slow(w);
}

/* In a loop: add work to the local counter acc; every POLL_LOCAL units, worker_poll. */
#define POLL_LOOP(w, acc, work) \
    (((acc) += (work)) >= POLL_LOCAL && (worker_poll((w), (acc)) || ((acc) = 0)))
