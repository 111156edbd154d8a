/* list_readings: the API form of a complete hand's standard readings (decompose.py
 * listed_dicts) for the readings made of the groups standard_readings shares between hands
 * (decompose.py _LIST_STATIC: the plain groups, _code_group's and _free_group's) and
 * declared melds. The twin of decompose.py _listed_reading; tests/test_listed_dicts.py
 * holds the two equal (the same dicts, in the same order, shared alike).
 *
 * Per call, each group is looked at once (by identity); a reading then costs a lookup per
 * group and a step per wildcard place. A reading holding any other group (a special
 * shape's, or one the Python twin of standard_readings built) is left as None: the Python
 * listing lists it, with the same ``shared`` dict. */
#include "_pjunit.h"

#define LR_PLACES 4                 /* places of a static group: 2 or 3 */

typedef struct {
    PyObject *g;                    /* the group (held by the readings' private tuple) */
    int type;                       /* 0 static, no wildcard; 1 a declared meld; 2 static
                                     * with a wildcard place; -1 neither (the Python twin) */
    int bare;                       /* type 2 without faces of its own */
    PyObject *dict;                 /* types 0 and 1: its dict (owned) */
    PyObject *spec;                 /* type 2: its _LIST_STATIC entry (owned) */
    int n, free;
    int tiles[LR_PLACES], wild[LR_PLACES];
} LREntry;

typedef struct {
    LREntry *e;
    int n, cap;
    int *slots;                     /* open addressing by the group's address: index + 1 */
    int nslots;
} LRTable;

static PyObject *k_shape, *k_groups, *k_best, *k_kind, *k_tiles, *k_wild, *k_exposed,
    *k_faces;

static int lr_keys(void) {
    if (k_faces)
        return 0;
#define INTERN(var, text)                                                                 \
    if (!(var = PyUnicode_InternFromString(text)))                                        \
        return -1;
    INTERN(k_shape, "shape")
    INTERN(k_groups, "groups")
    INTERN(k_best, "best")
    INTERN(k_kind, "kind")
    INTERN(k_tiles, "tiles")
    INTERN(k_wild, "wild")
    INTERN(k_exposed, "exposed")
    INTERN(k_faces, "faces") /* last: the flag that all are made */
#undef INTERN
    return 0;
}

static size_t lr_hash(PyObject *g) {
    return (size_t)(((uintptr_t)g >> 4) * (uintptr_t)11400714819323198485ull);
}

static int lr_rehash(LRTable *t, int nslots) {
    int *slots = PyMem_Calloc((size_t)nslots, sizeof(int));
    if (!slots) {
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < t->n; i++) {
        size_t h = lr_hash(t->e[i].g) & (size_t)(nslots - 1);
        while (slots[h])
            h = (h + 1) & (size_t)(nslots - 1);
        slots[h] = i + 1;
    }
    PyMem_Free(t->slots);
    t->slots = slots;
    t->nslots = nslots;
    return 0;
}

/* a new list of ``seq``'s items (a tuple), each its own reference */
static PyObject *lr_list(PyObject *seq) {
    return PySequence_List(seq);
}

/* the dict of a static group without a wildcard place: (kind, tile codes, wild flags) */
static PyObject *lr_plain_dict(PyObject *parts) {
    if (!PyTuple_Check(parts) || PyTuple_GET_SIZE(parts) != 3) {
        PyErr_SetString(PyExc_TypeError, "list_readings: a static group's parts");
        return NULL;
    }
    PyObject *d = PyDict_New(), *tiles = NULL, *wild = NULL, *faces = NULL;
    if (!d || !(tiles = lr_list(PyTuple_GET_ITEM(parts, 1))) ||
        !(wild = lr_list(PyTuple_GET_ITEM(parts, 2))) ||
        !(faces = lr_list(PyTuple_GET_ITEM(parts, 1))) ||
        PyDict_SetItem(d, k_kind, PyTuple_GET_ITEM(parts, 0)) < 0 ||
        PyDict_SetItem(d, k_tiles, tiles) < 0 || PyDict_SetItem(d, k_wild, wild) < 0 ||
        PyDict_SetItem(d, k_exposed, Py_False) < 0 || PyDict_SetItem(d, k_faces, faces) < 0) {
        Py_XDECREF(d);
        d = NULL;
    }
    Py_XDECREF(tiles);
    Py_XDECREF(wild);
    Py_XDECREF(faces);
    return d;
}

static int lr_tile(PyObject *o, int *out) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < 0 || v > 33) {
        PyErr_SetString(PyExc_ValueError, "list_readings: a tile is 0 to 33");
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* fill in a new entry for group ``g``: its type from ``statics`` (id -> what listing needs,
 * decompose.py _list_info) or its ``exposed`` field; types 0 and 1 with their dict, shared
 * in ``shared`` as the Python listing shares it (a static group by its id, a meld by its
 * value). 0 done, -1 error. */
static int lr_fill(LREntry *e, PyObject *g, PyObject *statics, PyObject *shared) {
    e->g = g;
    e->type = -1;
    e->bare = 0;
    e->dict = e->spec = NULL;
    if (!PyTuple_Check(g) || PyTuple_GET_SIZE(g) < 6) {
        PyErr_SetString(PyExc_TypeError, "list_readings: a group is a Group");
        return -1;
    }
    PyObject *id = PyLong_FromVoidPtr(g);
    if (!id)
        return -1;
    PyObject *spec = PyDict_GetItemWithError(statics, id);
    if (spec) {
        /* held: an item's __bool__ or __index__ may run code that changes ``statics`` */
        Py_INCREF(spec);
        e->spec = spec;
        if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) < 2) {
            Py_DECREF(id);
            PyErr_SetString(PyExc_TypeError, "list_readings: a static group's entry");
            goto fail;
        }
        long kind = PyLong_AsLong(PyTuple_GET_ITEM(spec, 0));
        if (kind == 0) {
            PyObject *d = PyDict_GetItemWithError(shared, id);
            if (d)
                Py_INCREF(d);
            else if (!PyErr_Occurred()) {
                d = lr_plain_dict(PyTuple_GET_ITEM(spec, 1));
                if (d && PyDict_SetItem(shared, id, d) < 0)
                    Py_CLEAR(d);
            }
            Py_DECREF(id);
            Py_CLEAR(e->spec);
            if (!d)
                return -1;
            e->type = 0;
            e->dict = d;
            return 0;
        }
        Py_DECREF(id);
        if (kind != 2 || PyTuple_GET_SIZE(spec) != 10) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "list_readings: a static group's entry");
            goto fail;
        }
        PyObject *tiles = PyTuple_GET_ITEM(spec, 2), *wild = PyTuple_GET_ITEM(spec, 9);
        if (!PyTuple_Check(tiles) || !PyTuple_Check(wild) ||
            PyTuple_GET_SIZE(tiles) != PyTuple_GET_SIZE(wild) ||
            PyTuple_GET_SIZE(tiles) > LR_PLACES || !PyTuple_Check(PyTuple_GET_ITEM(spec, 8))) {
            PyErr_SetString(PyExc_TypeError, "list_readings: a static group's entry");
            goto fail;
        }
        e->n = (int)PyTuple_GET_SIZE(tiles);
        for (int p = 0; p < e->n; p++) {
            if (lr_tile(PyTuple_GET_ITEM(tiles, p), &e->tiles[p]) < 0)
                goto fail;
            int w = PyObject_IsTrue(PyTuple_GET_ITEM(wild, p));
            if (w < 0)
                goto fail;
            e->wild[p] = w;
        }
        int free = PyObject_IsTrue(PyTuple_GET_ITEM(spec, 4));
        int faces = PyObject_IsTrue(PyTuple_GET_ITEM(g, 4));
        if (free < 0 || faces < 0)
            goto fail;
        e->free = free;
        e->bare = !faces;
        e->type = 2;
        return 0;
    fail:
        Py_CLEAR(e->spec);
        return -1;
    }
    Py_DECREF(id);
    if (PyErr_Occurred())
        return -1;
    int exposed = PyObject_IsTrue(PyTuple_GET_ITEM(g, 3));
    if (exposed < 0)
        return -1;
    if (!exposed)
        return 0;                                               /* the Python twin's */
    PyObject *d = PyDict_GetItemWithError(shared, g);
    if (d)
        Py_INCREF(d);
    else if (!PyErr_Occurred()) {
        d = PyObject_CallMethod(g, "to_dict", NULL);
        if (d && PyDict_SetItem(shared, g, d) < 0)
            Py_CLEAR(d);
    }
    if (!d)
        return -1;
    e->type = 1;
    e->dict = d;
    return 0;
}

/* the entry of group ``g``, made when first met: its index, or -1 on an error */
static int lr_entry(LRTable *t, PyObject *g, PyObject *statics, PyObject *shared) {
    size_t h = lr_hash(g) & (size_t)(t->nslots - 1);
    while (t->slots[h]) {
        if (t->e[t->slots[h] - 1].g == g)
            return t->slots[h] - 1;
        h = (h + 1) & (size_t)(t->nslots - 1);
    }
    if (t->n == t->cap) {
        int cap = t->cap * 2;
        LREntry *e = PyMem_Realloc(t->e, (size_t)cap * sizeof(LREntry));
        if (!e) {
            PyErr_NoMemory();
            return -1;
        }
        t->e = e;
        t->cap = cap;
    }
    if (lr_fill(&t->e[t->n], g, statics, shared) < 0)
        return -1;
    int idx = t->n++;
    if (t->n * 2 > t->nslots) {
        if (lr_rehash(t, t->nslots * 2) < 0)
            return -1;
    } else {
        t->slots[h] = idx + 1;
    }
    return idx;
}

/* the dict of static group ``e`` with a wildcard place whose places show ``faces``, shared
 * per call by the group and its faces (``wcache``) */
static PyObject *lr_wild_dict(LREntry *e, int idx, const int *faces, PyObject *wcache,
                              PyObject *codes) {
    unsigned long long key = (unsigned long long)idx << 24;
    for (int p = 0; p < e->n; p++)
        key |= (unsigned long long)(faces[p] + 1) << (6 * p);
    PyObject *k = PyLong_FromUnsignedLongLong(key);
    if (!k)
        return NULL;
    PyObject *d = PyDict_GetItemWithError(wcache, k);
    if (d || PyErr_Occurred()) {
        Py_DECREF(k);
        Py_XINCREF(d);
        return d;
    }
    PyObject *fc = PyList_New(e->n), *tiles = NULL, *wild = NULL;
    if (!fc)
        goto fail;
    for (int p = 0; p < e->n; p++) {
        PyObject *c = PyTuple_GET_ITEM(codes, faces[p]);
        Py_INCREF(c);
        PyList_SET_ITEM(fc, p, c);
    }
    tiles = e->free ? PyList_GetSlice(fc, 0, e->n) : lr_list(PyTuple_GET_ITEM(e->spec, 8));
    wild = tiles ? lr_list(PyTuple_GET_ITEM(e->spec, 9)) : NULL;
    d = wild ? PyDict_New() : NULL;
    if (!d || PyDict_SetItem(d, k_kind, PyTuple_GET_ITEM(e->spec, 7)) < 0 ||
        PyDict_SetItem(d, k_tiles, tiles) < 0 || PyDict_SetItem(d, k_wild, wild) < 0 ||
        PyDict_SetItem(d, k_exposed, Py_False) < 0 || PyDict_SetItem(d, k_faces, fc) < 0 ||
        PyDict_SetItem(wcache, k, d) < 0)
        Py_CLEAR(d);
fail:
    Py_DECREF(k);
    Py_XDECREF(fc);
    Py_XDECREF(tiles);
    Py_XDECREF(wild);
    return d;
}

#define LR_MAXG 32                  /* groups of a reading the compiled listing takes */

/* one reading's dict, Py_None (a new reference) when the Python listing must list it, or
 * NULL on an error */
static PyObject *lr_reading(LRTable *t, PyObject *r, Py_ssize_t i, const int *pool, int np,
                            PyObject *statics, PyObject *shared, PyObject *wcache,
                            PyObject *codes) {
    if (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) < 2 || !PyTuple_Check(PyTuple_GET_ITEM(r, 1))) {
        PyErr_SetString(PyExc_TypeError, "list_readings: a reading is a Reading");
        return NULL;
    }
    PyObject *groups = PyTuple_GET_ITEM(r, 1);
    Py_ssize_t ng = PyTuple_GET_SIZE(groups);
    if (ng > LR_MAXG)
        Py_RETURN_NONE;
    int idx[LR_MAXG], bare = 0;
    for (Py_ssize_t j = 0; j < ng; j++) {
        int k = lr_entry(t, PyTuple_GET_ITEM(groups, j), statics, shared);
        if (k < 0)
            return NULL;
        LREntry *e = &t->e[k];
        if (e->type < 0)
            Py_RETURN_NONE;
        if (e->type == 2 && e->bare)
            bare = 1;
        idx[j] = k;
    }
    PyObject *list = PyList_New(0);
    if (!list)
        return NULL;
    if (!bare) {
        /* no place takes a wildcard tile: the groups' dicts as they stand */
        for (Py_ssize_t j = 0; j < ng; j++) {
            LREntry *e = &t->e[idx[j]];
            if (e->type == 2) {             /* faces of its own: the Python listing's */
                Py_DECREF(list);
                Py_RETURN_NONE;
            }
            if (PyList_Append(list, e->dict) < 0)
                goto fail;
        }
    } else {
        if (np == 0) {
            Py_DECREF(list);
            Py_RETURN_NONE;
        }
        /* the wildcard places take faces from the pool in order: first a wildcard whose
         * face is what it counts as, then the rest in order; then the melds */
        int used[16] = {0}, faces[LR_MAXG][LR_PLACES];
        for (Py_ssize_t j = 0; j < ng; j++) {
            LREntry *e = &t->e[idx[j]];
            if (e->type != 2)
                continue;
            for (int p = 0; p < e->n; p++) {
                faces[j][p] = e->wild[p] ? -1 : e->tiles[p];
                if (e->wild[p] && !e->free) {
                    for (int q = 0; q < np; q++)
                        if (!used[q] && pool[q] == e->tiles[p]) {
                            used[q] = 1;
                            faces[j][p] = pool[q];
                            break;
                        }
                }
            }
        }
        int next = 0;
        for (Py_ssize_t j = 0; j < ng; j++) {
            LREntry *e = &t->e[idx[j]];
            if (e->type == 1)
                continue;
            if (e->type == 0) {
                if (PyList_Append(list, e->dict) < 0)
                    goto fail;
                continue;
            }
            for (int p = 0; p < e->n; p++) {
                if (faces[j][p] >= 0)
                    continue;
                while (next < np && used[next])
                    next++;
                if (next == np) {           /* no wildcard tile left: the Python listing's */
                    Py_DECREF(list);
                    Py_RETURN_NONE;
                }
                used[next] = 1;
                faces[j][p] = pool[next];
            }
            PyObject *d = lr_wild_dict(e, idx[j], faces[j], wcache, codes);
            if (!d)
                goto fail;
            int bad = PyList_Append(list, d);
            Py_DECREF(d);
            if (bad < 0)
                goto fail;
        }
        for (Py_ssize_t j = 0; j < ng; j++) {
            LREntry *e = &t->e[idx[j]];
            if (e->type == 1 && PyList_Append(list, e->dict) < 0)
                goto fail;
        }
    }
    PyObject *d = PyDict_New();
    if (!d || PyDict_SetItem(d, k_shape, PyTuple_GET_ITEM(r, 0)) < 0 ||
        PyDict_SetItem(d, k_groups, list) < 0 ||
        PyDict_SetItem(d, k_best, i == 0 ? Py_True : Py_False) < 0) {
        Py_XDECREF(d);
        goto fail;
    }
    Py_DECREF(list);
    return d;
fail:
    Py_DECREF(list);
    return NULL;
}

/* list_readings(readings, pool, statics, shared, codes) -> [dict or None per reading] */
PyObject *list_readings(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *readings, *pool_seq, *statics, *shared, *codes;
    if (!PyArg_ParseTuple(args, "OOO!O!O!", &readings, &pool_seq, &PyDict_Type, &statics,
                          &PyDict_Type, &shared, &PyTuple_Type, &codes))
        return NULL;
    if (PyTuple_GET_SIZE(codes) != 34) {
        PyErr_SetString(PyExc_ValueError, "list_readings: 34 tile codes");
        return NULL;
    }
    if (lr_keys() < 0)
        return NULL;
    int pool[16];
    int np = read_ints(pool_seq, pool, 16, "pool");
    if (np < 0)
        return NULL;
    for (int q = 0; q < np; q++)
        if (pool[q] < 0 || pool[q] > 33 || (q && pool[q] < pool[q - 1])) {
            PyErr_SetString(PyExc_ValueError, "list_readings: the pool is sorted tiles");
            return NULL;
        }
    /* a private tuple: the readings (and so their groups) live while it does */
    PyObject *rs = PySequence_Tuple(readings);
    if (!rs)
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(rs);
    LRTable t = {PyMem_Malloc(32 * sizeof(LREntry)), 0, 32, PyMem_Calloc(64, sizeof(int)),
                 64};
    PyObject *out = PyList_New(n), *wcache = PyDict_New();
    if (!t.e || !t.slots) {
        PyErr_NoMemory();
        goto fail;
    }
    if (!out || !wcache)
        goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *d = lr_reading(&t, PyTuple_GET_ITEM(rs, i), i, pool, np, statics, shared,
                                 wcache, codes);
        if (!d)
            goto fail;
        PyList_SET_ITEM(out, i, d);
    }
    goto done;
fail:
    Py_CLEAR(out);
done:
    for (int k = 0; t.e && k < t.n; k++) {
        Py_XDECREF(t.e[k].dict);
        Py_XDECREF(t.e[k].spec);
    }
    PyMem_Free(t.e);
    PyMem_Free(t.slots);
    Py_XDECREF(wcache);
    Py_DECREF(rs);
    return out;
}

/* coded_readings(codes, coded, placeholder, melds, reading) -> [reading("standard", groups
 * + melds) per code tuple], or None when a code's group is not in ``coded`` yet: the twin
 * of decompose.py _coded_readings (which makes the groups met first). ``coded`` holds a
 * group by its code (decompose.py _group_code), a ``free`` one by its code | (placeholder
 * + 1) << 28. */
PyObject *coded_readings(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *codes, *coded, *melds, *rtype, *shape;
    int ph;
    if (!PyArg_ParseTuple(args, "O!O!iO!OU", &PyList_Type, &codes, &PyDict_Type, &coded, &ph,
                          &PyTuple_Type, &melds, &rtype, &shape))
        return NULL;
    if (!PyType_Check(rtype) || !PyType_IsSubtype((PyTypeObject *)rtype, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "coded_readings: a reading is a tuple type");
        return NULL;
    }
    if (ph < 0 || ph > 33) {
        PyErr_SetString(PyExc_ValueError, "coded_readings: the placeholder is 0 to 33");
        return NULL;
    }
    /* a private tuple of the readings' codes: nothing below runs Python code but the
     * dict lookups of ints */
    PyObject *rs = PySequence_Tuple(codes);
    if (!rs)
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(rs), nm = PyTuple_GET_SIZE(melds);
    PyObject *out = PyList_New(n), *free_code[2] = {NULL, NULL}, *free_group[2] = {NULL, NULL};
    if (!out)
        goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *r = PyTuple_GET_ITEM(rs, i);
        if (!PyTuple_Check(r)) {
            PyErr_SetString(PyExc_TypeError, "coded_readings: a reading's codes are a tuple");
            goto fail;
        }
        Py_ssize_t ng = PyTuple_GET_SIZE(r);
        PyObject *groups = PyTuple_New(ng + nm);
        if (!groups)
            goto fail;
        for (Py_ssize_t j = 0; j < ng; j++) {
            PyObject *c = PyTuple_GET_ITEM(r, j), *g;
            if (!PyLong_CheckExact(c)) {
                Py_DECREF(groups);
                PyErr_SetString(PyExc_TypeError, "coded_readings: a group code is an int");
                goto fail;
            }
            long v = PyLong_AsLong(c);
            if (v == -1 && PyErr_Occurred()) {
                Py_DECREF(groups);
                goto fail;
            }
            if (v >> 21 == 3) {                 /* a free group: its placeholder's */
                int s = (v & 127) ? 1 : 0;
                if (free_code[s] != c) {
                    PyObject *key = PyLong_FromLong(v | (long)(ph + 1) << 28);
                    if (!key) {
                        Py_DECREF(groups);
                        goto fail;
                    }
                    /* held: a key's __eq__ in a later lookup may change ``coded`` */
                    Py_XSETREF(free_group[s], PyDict_GetItemWithError(coded, key));
                    Py_XINCREF(free_group[s]);
                    Py_DECREF(key);
                    free_code[s] = free_group[s] ? c : NULL;
                }
                g = free_group[s];
            } else {
                g = PyDict_GetItemWithError(coded, c);
            }
            if (!g) {
                Py_DECREF(groups);
                if (PyErr_Occurred())
                    goto fail;
                Py_CLEAR(out);
                Py_INCREF(Py_None);             /* a group not made yet: the twin's */
                out = Py_None;
                goto done;
            }
            Py_INCREF(g);
            PyTuple_SET_ITEM(groups, j, g);
        }
        for (Py_ssize_t j = 0; j < nm; j++) {
            PyObject *m = PyTuple_GET_ITEM(melds, j);
            Py_INCREF(m);
            PyTuple_SET_ITEM(groups, ng + j, m);
        }
        PyObject *reading = ((PyTypeObject *)rtype)->tp_alloc((PyTypeObject *)rtype, 2);
        if (!reading) {
            Py_DECREF(groups);
            goto fail;
        }
        Py_INCREF(shape);
        PyTuple_SET_ITEM(reading, 0, shape);
        PyTuple_SET_ITEM(reading, 1, groups);
        PyList_SET_ITEM(out, i, reading);
    }
    goto done;
fail:
    Py_CLEAR(out);
done:
    Py_XDECREF(free_group[0]);
    Py_XDECREF(free_group[1]);
    Py_DECREF(rs);
    return out;
}
