/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* One batch scored by several threads (score_batch with n_jobs > 1)                            */
/*
 * A pool thread per chunk that took the GIL twice per chunk (to read its texts, to build its
 * results) stalled behind any GIL holder the kernel had descheduled: on a machine whose other
 * core was busy, n_jobs=2 ran slower than n_jobs=1.  Here the caller reads every text once
 * (phase 1: the head before the helpers start, the rest after its first chunk), then it and the
 * helpers take chunks from a shared counter and score them with the GIL released (phase 2); only
 * the caller builds results (phase 3), between its own chunks, so a helper never waits for the
 * GIL and the caller never waits for a helper until nothing is left to take.  Chunks shrink as
 * the batch drains (a share of the remaining bytes, within bounds): a helper the kernel parks
 * then holds back one small chunk at the end, not a big one.  The cancel byte stops every
 * thread within a millisecond or so when the caller is interrupted.
 */

/* A helper on the CPU the caller runs on (the other one busy with another job) would only
 * take turns with the caller there, each thread evicting the other's token cache from the
 * core's L2: 7-32 % more CPU for no gain (benchmarks/bench_njobs.py, one CPU).  On Linux it
 * waits instead, off the CPU, until the kernel places it elsewhere or the batch is done. */
#if defined(__linux__)
#include <sched.h>
#include <time.h>
#define SAME_CPU_CHECK 1
/* The first wait is short (the kernel usually moves a helper woken on the caller's CPU to an
 * idle one at once); the next ones double up to SAME_CPU_WAIT_MAX_NS: a helper that stays on the
 * caller's CPU (the other one busy, or the process pinned) then wakes, and takes the CPU from the
 * caller, ~10 times a batch instead of ~40 (both threads on one CPU: 0.98 -> 1.0 of n_jobs=1) */
#define SAME_CPU_WAIT_NS 1000000L
#define SAME_CPU_WAIT_MAX_NS 8000000L
/* ... but not while the caller makes no progress (descheduled, or not started): after this long
 * without a chunk of the caller's, the helper takes one */
#define SAME_CPU_PATIENCE_NS 100000000L
#endif

/* Bytes of text per chunk: small enough to finish together (16 KiB: ~20 news pairs, ~0.2 ms),
 * big enough that taking a chunk and the caller's GIL round trip between chunks vanish. */
#define CHUNK_MIN_BYTES ((Py_ssize_t)16 << 10)
#define CHUNK_MAX_BYTES ((Py_ssize_t)256 << 10)
/* a chunk is at most 1/(CHUNK_SPLIT * threads) of what is left */
#define CHUNK_SPLIT 4
/* Text read before any helper starts, per thread: the rest is read by the caller after its first
 * chunk, while the helpers score these (news: the whole read, 0.8 ms, was 4 % of an n_jobs=2 call
 * spent by one thread).  Enough for the caller's first chunk and each helper's next ones, as a
 * helper that finds the rest unread waits for it. */
static Py_ssize_t HEAD_BYTES_PER_THREAD = 2 * CHUNK_MAX_BYTES;
/* the longest a helper waits for the caller's run() to end before it returns (batch_wait_finished) */
#define FINISH_WAIT_MS 1000

/* A gate: closed when made, opened once (under the batch's lock, which guards `open`), after which
 * every wait passes.  A lock held from the start: a waiter takes it and hands it on at once. */
typedef struct { PyThread_type_lock lock; int open; } Gate;

static int gate_init(Gate *g) {
    if (!(g->lock = PyThread_allocate_lock())) return -1;
    PyThread_acquire_lock(g->lock, WAIT_LOCK);
    return 0;
}

static void gate_open(Gate *g) {
    if (!g->open) {
        g->open = 1;
        PyThread_release_lock(g->lock);
    }
}

/* 1 once the gate is open, 0 when it stayed closed for timeout_us microseconds. */
static int gate_wait(Gate *g, PY_TIMEOUT_T timeout_us) {
    if (PyThread_acquire_lock_timed(g->lock, timeout_us, 0) != PY_LOCK_ACQUIRED) return 0;
    PyThread_release_lock(g->lock);   /* the next waiter passes too */
    return 1;
}

static void gate_free(Gate *g) {
    if (!g->lock) return;
    if (!g->open) PyThread_release_lock(g->lock);
    PyThread_free_lock(g->lock);
}

/* The texts of consecutive examples, read in one go: the batch's head, or the rest. */
typedef struct {
    Texts t;
    Py_ssize_t first;               /* the batch's index of t's example 0 */
    Py_ssize_t *ends;               /* bytes of text (+1 per example) in t's examples 0..i-1 */
    PS *stats;                      /* t's examples', written by whichever thread scores them
                                     * (NULL when the call wants none) */
} Part;

typedef struct {
    PyObject_HEAD
    EngineObject *eng;
    Py_ssize_t count;               /* examples */
    Part part[2];                   /* the head, and the rest (empty when the head is all) */
    int nread;                      /* parts read: 1, then 2 */
    PyObject *pseq, *rseq;          /* what the rest is read from, until it is; start: its first */
    Py_ssize_t start;
    SC *scores;                     /* every example's, written by whichever thread scores it */
    PyObject *scores_list, *stats_list;   /* stats_list NULL: the call wants no statistics */
    int nthreads;
    PyThread_type_lock lock;        /* guards next, inflight, done, ndone, failed, claimed, nread, the gates */
    Py_ssize_t next;                /* first example no thread has taken */
    Py_ssize_t inflight;            /* chunks being scored */
    Py_ssize_t *done; Py_ssize_t ndone, donecap;   /* finished chunks as (first, stop) pairs */
    Py_ssize_t built;               /* done chunks the caller has built */
    int failed;                     /* a thread stopped with an error: nobody takes more */
    volatile unsigned char cancel;  /* set by the caller when it stops (Ctrl-C, an error) */
    Gate idle;                      /* opens once no chunk is left or in flight, nor a Worker claimed */
    Gate drained;                   /* opens once no chunk is left to take (or taking stopped) */
    Gate read;                      /* opens once every text is read (or taking stopped) */
    Gate finished;                  /* opens once the caller's run() (or stop()) is over */
    int caller_started;
    /* The helpers' Workers (strong references), which the caller gives back to its pool with its
     * own (collect()): a helper done with its chunks returns through Python only when it gets the
     * GIL, and a Worker it gave back itself stayed out until then -- the next batch's helper, on
     * another pool thread, then started a Worker of its own, with a cold token cache (news: 25-40
     * ms instead of 21 for a third of the calls when batches followed each other). */
    PyObject **joined; Py_ssize_t njoined, joinedcap;
    int claimed;                    /* joined helpers that may still use their Worker */
    int collected;                  /* collect() was called: no helper joins any more */
    volatile int caller_cpu;        /* where the caller last took a chunk (-1: unknown) */
    volatile Py_ssize_t caller_beat; /* chunks the caller has taken */
    Py_buffer table;                /* .obj NULL, or where the scores go instead of Python objects:
                                     * each thread writes the rows of the chunks it scores */
} BatchObject;

static PyTypeObject BatchType;

static void Batch_dealloc(BatchObject *b) {
    for (int k = 0; k < 2; k++) {
        texts_free(&b->part[k].t);
        free(b->part[k].ends);
        free(b->part[k].stats);
    }
    Py_XDECREF(b->pseq);
    Py_XDECREF(b->rseq);
    free(b->scores); free(b->done);
    Py_XDECREF(b->scores_list);
    Py_XDECREF(b->stats_list);
    Py_XDECREF(b->eng);
    if (b->lock) PyThread_free_lock(b->lock);
    gate_free(&b->idle);
    gate_free(&b->drained);
    gate_free(&b->read);
    gate_free(&b->finished);
    for (Py_ssize_t i = 0; i < b->njoined; i++) Py_DECREF(b->joined[i]);
    free(b->joined);
    PyBuffer_Release(&b->table);   /* nothing without a table (obj NULL) */
    PyObject_Free(b);
}

/* Under b->lock: once nothing is left to take (or taking stopped), a helper waiting off the
 * caller's CPU stops waiting; once no chunk is in flight either and no helper still holds its
 * Worker, the caller's wait ends. */
static void batch_check_idle(BatchObject *b) {
    if (b->nread == 2 || b->failed || b->cancel) gate_open(&b->read);
    if (!(b->next >= b->count || b->failed || b->cancel)) return;
    gate_open(&b->drained);
    if (b->inflight == 0 && b->claimed == 0) gate_open(&b->idle);
}

/* Bytes of text in examples first.. of the batch (under b->lock), the rest's estimated from the
 * head until it is read. */
static Py_ssize_t batch_bytes_from(const BatchObject *b, Py_ssize_t first) {
    const Part *h = &b->part[0], *r = &b->part[1];
    Py_ssize_t nh = h->t.count, bytes = 0;
    if (first < nh) bytes = h->ends[nh] - h->ends[first];
    if (b->count > nh) {
        if (b->nread == 2) bytes += r->ends[r->t.count] - r->ends[first > nh ? first - nh : 0];
        else bytes += (b->count - (first > nh ? first : nh)) * (h->ends[nh] / (nh ? nh : 1));
    }
    return bytes;
}

/* The part that holds example i. */
static inline Part *batch_part(BatchObject *b, Py_ssize_t i) {
    return &b->part[i >= b->part[0].t.count];
}

enum { TAKE_NONE, TAKE_CHUNK, TAKE_UNREAD };

/* The next chunk [*first, *stop), all in one part; TAKE_NONE when none is left (or the batch
 * stopped), TAKE_UNREAD when the next examples' texts are not read yet. */
static int batch_take(BatchObject *b, Py_ssize_t *first, Py_ssize_t *stop) {
    int got = TAKE_NONE;
    PyThread_acquire_lock(b->lock, WAIT_LOCK);
    Py_ssize_t s = b->next;
    const Part *pt = batch_part(b, s);
    if (b->failed || b->cancel || s >= b->count) {
        got = TAKE_NONE;
    } else if (pt != &b->part[0] && b->nread < 2) {
        got = TAKE_UNREAD;
    } else {
        Py_ssize_t want = batch_bytes_from(b, s) / (CHUNK_SPLIT * b->nthreads);
        if (want < CHUNK_MIN_BYTES) want = CHUNK_MIN_BYTES;
        if (want > CHUNK_MAX_BYTES) want = CHUNK_MAX_BYTES;
        /* in the part's numbering, the first e > s with ends[e] - ends[s] >= want, or its end */
        const Py_ssize_t *ends = pt->ends, ls = s - pt->first;
        Py_ssize_t lo = ls + 1, hi = pt->t.count;
        while (lo < hi) {
            Py_ssize_t mid = lo + (hi - lo) / 2;
            if (ends[mid] - ends[ls] >= want) hi = mid;
            else lo = mid + 1;
        }
        *first = s;
        *stop = pt->first + lo;
        b->next = *stop;
        b->inflight++;
        got = TAKE_CHUNK;
        batch_check_idle(b);   /* the last chunk taken: helpers waiting off the caller's CPU go */
    }
    PyThread_release_lock(b->lock);
    return got;
}

/* Reads a part's texts (GIL held): examples part->first.. of the batch, count of them, or up to
 * max_bytes (texts_read).  0, or -1 with an exception set. */
static int batch_read(BatchObject *b, Part *part, Py_ssize_t count, Py_ssize_t max_bytes) {
    EngineObject *e = b->eng;
    if (texts_read(e, b->pseq, b->rseq, b->start + part->first, count, max_bytes, &part->t)) return -1;
    const Texts *t = &part->t;
    part->ends = (Py_ssize_t *)malloc((size_t)(t->count + 1) * sizeof(Py_ssize_t));
    if (b->stats_list) part->stats = (PS *)malloc((size_t)((t->nsrc - t->count) * e->ntypes + 1) * sizeof(PS));
    if (!part->ends || (b->stats_list && !part->stats)) { PyErr_NoMemory(); return -1; }
    part->ends[0] = 0;
    for (Py_ssize_t i = 0; i < t->count; i++) part->ends[i + 1] = part->ends[i] + example_bytes(t, i);
    return 0;
}

/* Every text is read (GIL held): the sequences go, helpers waiting for the rest take it. */
static void batch_all_read(BatchObject *b) {
    Py_CLEAR(b->pseq);
    Py_CLEAR(b->rseq);
    PyThread_acquire_lock(b->lock, WAIT_LOCK);
    b->nread = 2;
    batch_check_idle(b);
    PyThread_release_lock(b->lock);
}

/* The caller (GIL held): the texts after the head, unless read.  0, or -1 with an exception set. */
static int batch_read_rest(BatchObject *b) {
    if (b->nread == 2) return 0;
    Part *rest = &b->part[1];
    rest->first = b->part[0].t.count;
    if (batch_read(b, rest, b->count - rest->first, 0)) return -1;
    batch_all_read(b);
    return 0;
}

/* A helper: wait (off the CPU) while it shares the caller's CPU and chunks are left. */
static void batch_keep_off_caller_cpu(BatchObject *b, WorkerObject *w) {
#ifdef SAME_CPU_CHECK
    Py_ssize_t beat = b->caller_beat;
    long wait = SAME_CPU_WAIT_NS, waited = 0;
    for (;;) {
        int cpu = b->caller_cpu;
        if (cpu < 0 || sched_getcpu() != cpu || (w->cancel && *w->cancel)) return;
        if (waited >= SAME_CPU_PATIENCE_NS) {
            if (b->caller_beat == beat) return;
            beat = b->caller_beat;
            waited = 0;
        }
        /* off the CPU until the wait is over or nothing is left to take (the caller then waits
         * for this helper to give its Worker back) */
        if (gate_wait(&b->drained, (PY_TIMEOUT_T)(wait / 1000))) return;
        waited += wait;
        if (wait < SAME_CPU_WAIT_MAX_NS) wait *= 2;
    }
#else
    (void)b; (void)w;
#endif
}

/* A chunk ends (ok: scored); -1 when it could not be recorded (no memory). */
static int batch_done(BatchObject *b, Py_ssize_t first, Py_ssize_t stop, int ok) {
    int rc = 0;
    PyThread_acquire_lock(b->lock, WAIT_LOCK);
    b->inflight--;
    if (ok && grow((void **)&b->done, &b->donecap, 2 * (b->ndone + 1), sizeof(Py_ssize_t))) ok = 0, rc = -1;
    if (ok) {
        b->done[2 * b->ndone] = first;
        b->done[2 * b->ndone + 1] = stop;
        b->ndone++;
    } else {
        b->failed = 1;
    }
    batch_check_idle(b);
    PyThread_release_lock(b->lock);
    return rc;
}

/* The caller (GIL held): Python objects of every chunk finished since its last call (none with
 * a table: the threads wrote its rows). */
static int batch_build_done(BatchObject *b) {
    if (b->table.obj) return 0;
    for (;;) {
        Py_ssize_t first, stop;
        PyThread_acquire_lock(b->lock, WAIT_LOCK);
        int more = b->built < b->ndone;
        if (more) {
            first = b->done[2 * b->built];
            stop = b->done[2 * b->built + 1];
            b->built++;
        }
        PyThread_release_lock(b->lock);
        if (!more) return 0;
        const Part *pt = batch_part(b, first);
        if (build_range(b->eng, &pt->t, first - pt->first, stop - pt->first, pt->stats,
                        b->scores + pt->first * b->eng->ntypes, b->scores_list, b->stats_list, pt->first)) return -1;
    }
}

/* Chunks until none is left (GIL released); the caller builds what is done between its chunks.
 * Ends with c->err set when this thread failed or was stopped. */
static void batch_work(BatchObject *b, WorkerObject *w, Ctx *c, int caller) {
    Py_ssize_t first, stop;
    for (;;) {
#ifdef SAME_CPU_CHECK
        if (caller) {
            b->caller_cpu = sched_getcpu();
            b->caller_beat++;
        }
#endif
        if (!caller) batch_keep_off_caller_cpu(b, w);
        if (c->err) break;
        int got = batch_take(b, &first, &stop);
        if (got == TAKE_NONE) break;
        if (got == TAKE_UNREAD) {
            if (caller) {   /* a helper took the whole head before the caller's first chunk */
                PyEval_RestoreThread(c->ts);
                if (batch_read_rest(b)) c->err = ERR_PY;
                c->ts = PyEval_SaveThread();
            } else {   /* the caller reads it now; stop() opens the gate too */
                gate_wait(&b->read, (PY_TIMEOUT_T)SIGNAL_MS * 1000);
            }
            continue;
        }
        const Part *pt = batch_part(b, first);
        score_range(c, w, &pt->t, first - pt->first, stop - pt->first, pt->stats,
                    b->scores + pt->first * b->eng->ntypes, caller);
        if (b->table.obj && !c->err) {
            Py_ssize_t nt = b->eng->ntypes;
            scores_to_table(b->scores + first * nt, (stop - first) * nt, (double *)b->table.buf + 3 * first * nt);
        }
        if (batch_done(b, first, stop, !c->err) && !c->err) c->err = ERR_NOMEM;
        if (caller && !c->err) {
            PyEval_RestoreThread(c->ts);
            if (batch_build_done(b) || batch_read_rest(b)) c->err = ERR_PY;
            c->ts = PyEval_SaveThread();
        }
    }
}

static WorkerObject *batch_worker(BatchObject *b, PyObject *wo) {
    if (!PyObject_TypeCheck(wo, &WorkerType) || ((WorkerObject *)wo)->eng != b->eng) {
        PyErr_SetString(PyExc_TypeError, "worker: a Worker of the batch's Engine");
        return NULL;
    }
    WorkerObject *w = (WorkerObject *)wo;
    if (w->busy) {
        PyErr_SetString(PyExc_RuntimeError, "Worker is already running (one thread per Worker)");
        return NULL;
    }
    return w;
}

/* The caller (GIL held) is done with the batch: the helpers may take the GIL. */
static void batch_finish(BatchObject *b) {
    PyThread_acquire_lock(b->lock, WAIT_LOCK);
    gate_open(&b->finished);
    PyThread_release_lock(b->lock);
}

/* A helper whose chunks are done (GIL released) waits for the caller's run() to end before it
 * takes the GIL to return: taken while the caller builds its last results, the GIL made the
 * caller wait for the helper's return through the thread pool's Python code, and for the young-
 * generation collection that code set off over the caller's new results, from the other core's
 * cold cache (news: ~1 ms of a 22 ms call, on every call; n_jobs=2 1.15x faster).  Bounded, in
 * case a caller never comes (every path of _parallel_range calls run() or stop()). */
static void batch_wait_finished(BatchObject *b) {
    gate_wait(&b->finished, (PY_TIMEOUT_T)FINISH_WAIT_MS * 1000);
}

static void batch_stop(BatchObject *b) {
    PyThread_acquire_lock(b->lock, WAIT_LOCK);
    b->cancel = 1;
    b->failed = 1;
    batch_check_idle(b);
    PyThread_release_lock(b->lock);
    batch_finish(b);
}

/* join(worker) -> bool (a helper, GIL held): whether the batch takes the helper and its Worker,
 * which the caller then gives back to the pool (collect()); False when the batch needs no more
 * help (nothing left to take, or the caller is done): the helper gives the Worker back itself. */
static PyObject *Batch_join(BatchObject *b, PyObject *wo) {
    WorkerObject *w = batch_worker(b, wo);
    if (!w) return NULL;
    /* the claim in the same hold of the lock as the look at what is left: the caller's wait for
     * the batch to be idle cannot end between the two */
    PyThread_acquire_lock(b->lock, WAIT_LOCK);
    int open = !b->collected && !b->failed && !b->cancel && b->next < b->count;
    if (open) b->claimed++;
    PyThread_release_lock(b->lock);
    if (!open) Py_RETURN_FALSE;
    if (grow((void **)&b->joined, &b->joinedcap, b->njoined + 1, sizeof(PyObject *))) {
        PyThread_acquire_lock(b->lock, WAIT_LOCK);
        b->claimed--;
        batch_check_idle(b);
        PyThread_release_lock(b->lock);
        return PyErr_NoMemory();
    }
    Py_INCREF(wo);
    b->joined[b->njoined++] = wo;
    w->busy = 1;   /* until work() is done with it */
    Py_RETURN_TRUE;
}

/* collect() -> the joined helpers' Workers, for the caller's pool, once run() has returned (no
 * helper uses them then); [] when helpers may still be at work (run() raised: they keep them).
 * No helper joins after it. */
static PyObject *Batch_collect(BatchObject *b, PyObject *unused) {
    PyThread_acquire_lock(b->lock, WAIT_LOCK);
    b->collected = 1;
    int claimed = b->claimed;
    PyThread_release_lock(b->lock);
    if (claimed) return PyList_New(0);
    PyObject *out = PyList_New(b->njoined);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < b->njoined; i++) PyList_SET_ITEM(out, i, b->joined[i]);   /* the reference moves */
    b->njoined = 0;
    return out;
}

/* work(worker): a helper thread's share, with the Worker it joined with; None (also when the
 * caller stopped the batch). */
static PyObject *Batch_work(BatchObject *b, PyObject *wo) {
    int joined = 0;
    for (Py_ssize_t i = 0; i < b->njoined; i++) joined |= b->joined[i] == wo;
    if (!joined || !((WorkerObject *)wo)->busy) {
        PyErr_SetString(PyExc_RuntimeError, "work(worker): a Worker that join() took, once");
        return NULL;
    }
    WorkerObject *w = (WorkerObject *)wo;
    Ctx c = {w, NULL, 1, 0, 1};
    c.ts = PyEval_SaveThread();
    poll_begin(w, &c, &b->cancel);
    batch_work(b, w, &c, 0);
    poll_end(w);
    w->busy = 0;
    PyThread_acquire_lock(b->lock, WAIT_LOCK);
    b->claimed--;   /* the Worker is the caller's to give back from here on: not touched again */
    batch_check_idle(b);
    PyThread_release_lock(b->lock);
    if (!c.err) batch_wait_finished(b);   /* a failed helper returns at once: the batch stops */
    PyEval_RestoreThread(c.ts);
    if (!c.err) Py_RETURN_NONE;
    if (b->cancel) {   /* the caller's KeyboardInterrupt (or error) is the one that counts */
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    if (c.err == ERR_NOMEM) PyErr_NoMemory();
    return NULL;
}

/* run(worker): the caller's share, then the wait for the helpers' last chunks (Ctrl-C still
 * ends it), then the rest of the results: (scores, stats or None); None when a helper failed
 * (its work() raised: the caller re-raises that). */
static PyObject *Batch_run(BatchObject *b, PyObject *wo) {
    WorkerObject *w = batch_worker(b, wo);
    if (!w) return NULL;
    if (b->caller_started) {
        PyErr_SetString(PyExc_RuntimeError, "run() was already called for this batch");
        return NULL;
    }
    b->caller_started = 1;
    w->busy = 1;
    Ctx c = {w, NULL, 1, 0, 0};
    c.ts = PyEval_SaveThread();
    poll_begin(w, &c, &b->cancel);
    batch_work(b, w, &c, 1);
    PyThread_acquire_lock(b->lock, WAIT_LOCK);
    batch_check_idle(b);   /* an empty batch, or one the helpers finished before we came */
    PyThread_release_lock(b->lock);
    while (!c.err && !gate_wait(&b->idle, (PY_TIMEOUT_T)SIGNAL_MS * 1000)) {
        PyEval_RestoreThread(c.ts);
        if (PyErr_CheckSignals()) c.err = ERR_PY;
        c.ts = PyEval_SaveThread();
    }
    poll_end(w);
    PyEval_RestoreThread(c.ts);
    w->busy = 0;
    if (c.err) {
        batch_stop(b);
        if (c.err == ERR_NOMEM) PyErr_NoMemory();
        return NULL;
    }
    PyThread_acquire_lock(b->lock, WAIT_LOCK);
    int failed = b->failed;
    PyThread_release_lock(b->lock);
    if (failed) {
        batch_finish(b);
        Py_RETURN_NONE;
    }
    if (batch_build_done(b)) {
        batch_stop(b);
        return NULL;
    }
    batch_finish(b);
    if (b->table.obj) return PyTuple_Pack(2, Py_None, Py_None);
    return PyTuple_Pack(2, b->scores_list, b->stats_list ? b->stats_list : Py_None);
}

/* threads() -> the threads worth starting for this batch (the caller included). */
static PyObject *Batch_threads(BatchObject *b, PyObject *unused) {
    return PyLong_FromLong(b->nthreads);
}

/* stop(): the caller gives up (an exception between its calls); helpers stop. */
static PyObject *Batch_stop(BatchObject *b, PyObject *unused) {
    batch_stop(b);
    Py_RETURN_NONE;
}

/* Engine.batch(predictions, references, start, stop, with_stats, threads, table=None) -> Batch of
 * examples start..stop-1, ready for run() and work(): the head of its texts read (the rest is
 * read in run(), where errors in it are raised).  With a table (Worker.run's: (stop - start) x
 * types x 3 float64, no statistics), run() returns (None, None) and the scores are in it. */
static PyObject *Engine_batch(EngineObject *e, PyObject *args) {
    PyObject *preds, *refs, *pseq, *rseq, *table = Py_None;
    Py_ssize_t start, stop;
    int with_stats, nthreads;
    if (!PyArg_ParseTuple(args, "OOnnpi|O", &preds, &refs, &start, &stop, &with_stats, &nthreads, &table)) return NULL;
    if (nthreads < 1) { PyErr_SetString(PyExc_ValueError, "threads must be >= 1"); return NULL; }
    if (table != Py_None && with_stats) {
        PyErr_SetString(PyExc_ValueError, "table: scores only, without statistics (with_stats False)");
        return NULL;
    }
    Py_buffer out = {0};
    if (table != Py_None && table_buffer(table, &out)) return NULL;
    if (run_sequences(preds, refs, &pseq, &rseq, &start, &stop)) { PyBuffer_Release(&out); return NULL; }
    if (out.obj && table_size_check(&out, stop - start, e->ntypes)) {
        PyBuffer_Release(&out);
        Py_DECREF(pseq);
        Py_DECREF(rseq);
        return NULL;
    }
    BatchObject *b = PyObject_New(BatchObject, &BatchType);
    if (!b) { PyBuffer_Release(&out); Py_DECREF(pseq); Py_DECREF(rseq); return NULL; }
    memset((char *)b + offsetof(BatchObject, eng), 0, sizeof(BatchObject) - offsetof(BatchObject, eng));
    b->table = out;   /* the batch holds the buffer now (released with it) */
    Py_INCREF(e);
    b->eng = e;
    b->nthreads = nthreads;
    b->pseq = pseq;   /* the batch owns these references now */
    b->rseq = rseq;
    b->start = start;
#ifdef SAME_CPU_CHECK
    b->caller_cpu = sched_getcpu();   /* before any helper starts */
#else
    b->caller_cpu = -1;
#endif
    Py_ssize_t count = b->count = stop - start;
    b->lock = PyThread_allocate_lock();
    b->scores = (SC *)malloc((size_t)(count * e->ntypes + 1) * sizeof(SC));
    if (!b->scores || !b->lock || gate_init(&b->idle) || gate_init(&b->drained) || gate_init(&b->read) ||
        gate_init(&b->finished)) {
        Py_DECREF(b);
        return PyErr_NoMemory();
    }
    /* made before the head is read, which sizes its statistics by whether stats_list exists */
    if ((!out.obj && !(b->scores_list = PyList_New(count))) || (with_stats && !(b->stats_list = PyList_New(count)))) {
        Py_DECREF(b);
        return NULL;
    }
    b->nread = 1;
    if (batch_read(b, &b->part[0], count, nthreads > 1 ? (Py_ssize_t)nthreads * HEAD_BYTES_PER_THREAD : 0)) {
        Py_DECREF(b);
        return NULL;
    }
    if (b->part[0].t.count == count) {   /* the head is all */
        b->part[1].first = count;
        batch_all_read(b);
    }
    /* no more threads than minimum-size chunks: the others would find nothing to take */
    Py_ssize_t bytes = batch_bytes_from(b, 0);
    if (b->nthreads > 1 + bytes / CHUNK_MIN_BYTES) b->nthreads = (int)(1 + bytes / CHUNK_MIN_BYTES);
    return (PyObject *)b;
}

static PyMethodDef Batch_methods[] = {
    {"run", (PyCFunction)Batch_run, METH_O,
     "run(worker) -> (scores, stats or None), or None when a helper's work() failed: the caller's share."},
    {"join", (PyCFunction)Batch_join, METH_O,
     "join(worker) -> bool: a helper joins with its Worker (True), which collect() hands back; False when no help is needed."},
    {"work", (PyCFunction)Batch_work, METH_O, "work(worker) -> None: a helper thread's share, with the Worker it joined with."},
    {"collect", (PyCFunction)Batch_collect, METH_NOARGS,
     "collect() -> the helpers' Workers, once run() has returned ([] after an error); no helper joins after it."},
    {"threads", (PyCFunction)Batch_threads, METH_NOARGS,
     "threads() -> the threads worth starting (the caller included): at most one per minimum-size chunk."},
    {"stop", (PyCFunction)Batch_stop, METH_NOARGS, "stop(): no more chunks; running ones stop at once."},
    {NULL}
};

static PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "rouge_full_metric._core.Batch",
    .tp_basicsize = sizeof(BatchObject),
    .tp_dealloc = (destructor)Batch_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A batch shared by several scoring threads; create with Engine.batch().",
    .tp_methods = Batch_methods,
};
