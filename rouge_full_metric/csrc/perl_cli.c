/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* read_files: the rouge-full CLI's file reader */

/* Issue 12: read_files reads only regular files up to READ_FILES_MAX_BYTES.  A device such as
 * /dev/zero never ends and a huge file would exhaust memory; both get None, and the Python
 * reader (cli/input_files.py) refuses them with a message, under its configurable cap. */
#include <sys/stat.h>
#ifndef S_ISREG
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
#endif
#define READ_FILES_MAX_BYTES ((long long)64 << 20)
static int read_files_accepts(int fd) {
    struct stat st;
    return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (long long)st.st_size <= READ_FILES_MAX_BYTES;
}

/* read_files(paths) -> [bytes or None]: each file's content, None where it cannot be opened or
 * read (the caller then takes its slow path, which reports the error as the Perl does).  The
 * ROUGE-1.5.5.pl command line reads two small files per evaluation; open/read/close here cost
 * a third of Python's open().read(). */
static PyObject *mod_read_files(PyObject *self, PyObject *paths) {
    PyObject *seq = PySequence_Fast(paths, "paths must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyList_New(n);
    char *buf = NULL;
    size_t cap = 0;
    for (Py_ssize_t i = 0; out && i < n; i++) {
        PyObject *encoded = NULL;
        if (!PyUnicode_FSConverter(PySequence_Fast_GET_ITEM(seq, i), &encoded)) { Py_CLEAR(out); break; }
        PyObject *item = NULL;
        int fd = open(PyBytes_AS_STRING(encoded), O_RDONLY | O_BINARY);
        Py_DECREF(encoded);
        if (fd >= 0 && !read_files_accepts(fd)) {
            close(fd);
            fd = -1;   /* the caller's Python path applies its checks and says why (issue 12) */
        }
        if (fd >= 0) {
            size_t len = 0;
            for (;;) {
                if (len == cap) {
                    size_t c = cap ? 2 * cap : 65536;
                    char *q = (char *)realloc(buf, c);
                    if (!q) { len = (size_t)-1; break; }
                    buf = q;
                    cap = c;
                }
                ptrdiff_t got = read(fd, buf + len, (unsigned)(cap - len > 1 << 30 ? 1 << 30 : cap - len));
                if (got < 0 && errno == EINTR) continue;
                if (got <= 0) { if (got < 0) len = (size_t)-1; break; }
                len += (size_t)got;
            }
            close(fd);
            if (len != (size_t)-1) {
                item = PyBytes_FromStringAndSize(buf, (Py_ssize_t)len);
                if (!item) { Py_CLEAR(out); break; }
            }
        }
        if (!item) { Py_INCREF(Py_None); item = Py_None; }
        PyList_SET_ITEM(out, i, item);
    }
    free(buf);
    Py_DECREF(seq);
    return out;
}
