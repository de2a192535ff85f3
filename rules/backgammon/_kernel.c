/* The Backgammon evaluation in C: the optional kernel of the fast path.
 *
 * Why: the pure forward pass (rules/backgammon/net.py) costs 55-140 us per position,
 * a third of it the hand-made figures, and a search scores a few thousand positions per
 * decision. This file does the same arithmetic for many positions in one call:
 *
 *  - the figures of rules/backgammon/features.py (counts), over the same bit masks;
 *  - the first layer in the same fixed point as net.PackedLayer: whole numbers
 *    round(w * 2**32) summed in 64-bit integers, exact, so the hidden sums are the
 *    pure path's to the last bit;
 *  - the hidden sigmoids with libm's exp (what math.exp calls), the five output sums
 *    in the same order from the same zero, then consistent() and sane().
 *
 * Built with -ffp-contract=off (setup.py), as the compiled rules are: a fused
 * multiply-add rounds differently. So an equity here is the pure path's, bit for bit
 * (tests/test_backgammon_fast_path.py compares them).
 *
 * Optional: setup.py builds it only with a working C compiler, and without it the
 * rules import and play as before (rules/backgammon/native.py).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define BAR 24
#define PLACES 25
#define CHECKERS 15
#define STACK_PLACES 26 /* 0-23 points, 24 the bar, 25 borne off */
#define COUNTS 16       /* 0-15 checkers */
#define OUTPUTS 5
#define FIGURES 24
#define ROLLS 21
#define HOME_OF_THE_OTHER 18 /* a side's points 19-24 and its bar: 18..24 */
#define BLOCK 16             /* hidden units summed at once in registers */

static const uint64_t FIELD_OFFSET = (uint64_t)1 << 54;
static const uint64_t SIGN = (uint64_t)1 << 63;
static const double FIXED_SCALE = 1.0 / 4294967296.0;

static uint8_t ESCAPES[1 << 12];
static uint32_t ROLL_REACH[ROLLS];
static int ROLL_WEIGHT[ROLLS];

/* features._escape_count */
static int escape_count(int mask) {
    int count = 0;
    for (int n0 = 0; n0 < 6; n0++) {
        for (int n1 = 0; n1 <= n0; n1++) {
            if (!(mask & (1 << (n0 + n1 + 1))) && !((mask & (1 << n0)) && (mask & (1 << n1)))) {
                count += n0 == n1 ? 1 : 2;
            }
        }
    }
    return count;
}

/* features._roll_reach, in its order */
static void init_tables(void) {
    for (int mask = 0; mask < (1 << 12); mask++) {
        ESCAPES[mask] = (uint8_t)escape_count(mask);
    }
    int r = 0;
    for (int d1 = 1; d1 <= 6; d1++) {
        for (int d2 = 1; d2 <= d1; d2++) {
            uint32_t reach = 0;
            if (d1 == d2) {
                for (int k = 1; k <= 4; k++) reach |= (uint32_t)1 << (k * d1);
            } else {
                reach = ((uint32_t)1 << d1) | ((uint32_t)1 << d2) | ((uint32_t)1 << (d1 + d2));
            }
            ROLL_REACH[r] = reach;
            ROLL_WEIGHT[r] = d1 == d2 ? 1 : 2;
            r++;
        }
    }
}

static int bit_length(uint32_t x) { return x ? 32 - __builtin_clz(x) : 0; }

/* features._Board */
typedef struct {
    uint32_t made, blots, hitters;
    int rearmost;
} Side;

static void side_of(const int *board, Side *s) {
    uint32_t made = 0, blots = 0, occupied = 0;
    for (int place = 0; place < BAR; place++) {
        int n = board[place];
        if (n) {
            uint32_t bit = (uint32_t)1 << place;
            occupied |= bit;
            if (n == 1) blots |= bit; else made |= bit;
        }
    }
    int on_bar = board[BAR] > 0;
    s->made = made;
    s->blots = blots;
    s->rearmost = on_bar ? BAR : bit_length(occupied) - 1;
    s->hitters = on_bar ? (uint32_t)1 << BAR : occupied;
}

static int escapes_from(int place, uint32_t blocks) {
    /* place -1 (no checker left) shifts everything out, as Python's >> 25 does */
    return ESCAPES[(blocks >> (24 - place)) & 0xFFF];
}

/* For every pattern of 12 distances (bits 0-11, and 12-23 shifted down): the rolls
 * (bit r: the r-th of ROLL_REACH) that reach one of them. */
static uint32_t NEAR_ROLLS[1 << 12], FAR_ROLLS[1 << 13];
static uint32_t DOUBLES_OUT; /* the rolls of weight 2 (not a double), as bits */

static void init_roll_sets(void) {
    for (uint32_t pattern = 0; pattern < (1 << 13); pattern++) {
        uint32_t near = 0, far = 0;
        for (int r = 0; r < ROLLS; r++) {
            if ((pattern & 0xFFF) & ROLL_REACH[r]) near |= (uint32_t)1 << r;
            if ((pattern << 12) & ROLL_REACH[r]) far |= (uint32_t)1 << r;
        }
        if (pattern < (1 << 12)) NEAR_ROLLS[pattern] = near;
        FAR_ROLLS[pattern] = far;
    }
    for (int r = 0; r < ROLLS; r++) {
        if (ROLL_WEIGHT[r] == 2) DOUBLES_OUT |= (uint32_t)1 << r;
    }
}

/* The weight of 36 of a set of rolls. */
static inline int weight(uint32_t rolls) {
    return __builtin_popcount(rolls) + __builtin_popcount(rolls & DOUBLES_OUT);
}

/* features._hits: shots, pips lost (rounded down), double shots. Per roll, the rearmost
 * blot it reaches counts for the shots and the pips lost, a second for the double
 * shots; here as sets of rolls, the blots taken from the rearmost down. */
static void hits(const Side *side, const Side *other, int out[3]) {
    uint32_t seen = 0, twice = 0;
    int lost = 0;
    uint32_t left = side->blots;
    while (left) {
        int place = bit_length(left) - 1;
        left ^= (uint32_t)1 << place;
        uint32_t d = (other->hitters >> (23 - place)) & ~(uint32_t)1;
        if (!d) continue;
        uint32_t rolls = NEAR_ROLLS[d & 0xFFF] | FAR_ROLLS[d >> 12];
        lost += (place + 1) * weight(rolls & ~seen);
        twice |= rolls & seen;
        seen |= rolls;
    }
    out[0] = weight(seen);
    out[1] = lost / 36;
    out[2] = weight(twice);
}

/* features._timing */
static int timing(const int *board, int line) {
    int total = BAR * board[BAR];
    int free_ = board[BAR];
    for (int place = BAR - 1; place > 5; place--) {
        int n = board[place];
        if (!n) continue;
        if (place >= 12 && place > line) n = n == 1 ? 1 : n - 2;
        free_ += n;
        total += place * n;
    }
    for (int place = 5; place >= 0; place--) {
        int n = board[place];
        if (n > 2) {
            total += place * (n - 2);
            free_ += n - 2;
        } else if (n < 2 && free_ >= 2 - n) {
            total -= place * (2 - n);
            free_ -= 2 - n;
        }
    }
    return total > 0 ? total : 0;
}

static void first_block(const Side *side, const Side *other, int shot, int *out) {
    uint32_t run = side->made;
    int prime = 0;
    while (run) {
        run &= run << 1;
        prime++;
    }
    out[0] = escapes_from(side->rearmost, other->made);
    out[1] = shot;
    out[2] = __builtin_popcount(side->made & 0x3F);
    out[3] = prime;
}

static void second_block(const Side *side, const Side *other, const int *board, int lost, int all,
                         int *out) {
    int behind = 0;
    if (other->rearmost >= 0) {
        int line = 23 - other->rearmost;
        for (int place = line + 1; place <= BAR; place++) behind += board[place] * (place - line);
    }
    int fewest = 36;
    for (int place = 12; all && place <= BAR; place++) {
        int e = escapes_from(place, other->made);
        if (e < fewest) fewest = e;
    }
    out[0] = fewest;
    out[1] = bit_length(side->made);
    out[2] = behind;
    out[3] = lost;
}

static void third_block(const Side *side, const Side *other, const int *board, int dbl, int *out) {
    uint32_t anchors = (side->made >> 18) & 0x3F;
    int back = 0;
    for (int place = HOME_OF_THE_OTHER; place <= BAR; place++) back += board[place];
    out[0] = dbl;
    out[1] = back;
    out[2] = anchors ? 6 - __builtin_ctz(anchors) : 0;
    out[3] = timing(board, 23 - other->rearmost);
}

/* features.counts(on_roll, other, blocks) into out (4 * 2 * blocks values); without
 * ``all`` the containment is left out (36), which forward() takes from the sides' sums */
static void counts(const int *mine_board, const int *theirs_board, int blocks, int all, int *out) {
    Side mine, theirs;
    side_of(mine_board, &mine);
    side_of(theirs_board, &theirs);
    int mine_hit[3], theirs_hit[3];
    hits(&mine, &theirs, mine_hit);
    hits(&theirs, &mine, theirs_hit);
    first_block(&mine, &theirs, mine_hit[0], out);
    first_block(&theirs, &mine, theirs_hit[0], out + 4);
    if (blocks <= 1) return;
    second_block(&mine, &theirs, mine_board, mine_hit[1], all, out + 8);
    second_block(&theirs, &mine, theirs_board, theirs_hit[1], all, out + 12);
    if (blocks == 2) return;
    third_block(&mine, &theirs, mine_board, mine_hit[2], out + 16);
    third_block(&theirs, &mine, theirs_board, theirs_hit[2], out + 20);
}

/* engine.has_contact */
static int has_contact(const int *side, const int *other) {
    int back = -1;
    for (int i = BAR; i >= 0; i--) {
        if (side[i]) {
            back = i;
            break;
        }
    }
    int front = 24;
    for (int k = BAR; k >= 0; k--) {
        if (other[k]) {
            front = 23 - k;
            break;
        }
    }
    return back > front;
}

/* ------------------------------------------------------------------ the network */

typedef struct {
    int hidden;
    int blocks;   /* blocks of figures read (0: none, a race network) */
    int figures;  /* figures read: 8 * blocks */
    int64_t *bias;                 /* hidden */
    int64_t *stacks;               /* [side][place][n][hidden] */
    int64_t *contact;              /* hidden */
    int64_t *figure_rows;          /* concatenated [k][count][hidden] */
    Py_ssize_t figure_start[FIGURES];
    int figure_maxima[FIGURES];
    double *out_rows;              /* [output][hidden] */
    double out_bias[OUTPUTS];
    int64_t *sums;                 /* scratch: hidden */
    double *hs;                    /* scratch: hidden */
    uint64_t id;                   /* this network's number, never reused (SideCache) */
} Net;

static const char *CAPSULE = "spieltisch.backgammon.kernel.Net";
static uint64_t NETS; /* the network ids handed out so far */

static void net_free(Net *net) {
    if (!net) return;
    PyMem_Free(net->bias);
    PyMem_Free(net->stacks);
    PyMem_Free(net->contact);
    PyMem_Free(net->figure_rows);
    PyMem_Free(net->out_rows);
    PyMem_Free(net->sums);
    PyMem_Free(net->hs);
    PyMem_Free(net);
}

static void capsule_free(PyObject *capsule) {
    net_free((Net *)PyCapsule_GetPointer(capsule, CAPSULE));
}

/* Little-endian 64-bit fields less their offset, as net.PackedLayer.unpack reads them. */
static int64_t *fixed_rows(const Py_buffer *buf, Py_ssize_t rows, int hidden, uint64_t offset) {
    Py_ssize_t count = rows * hidden;
    if (buf->len != count * 8) {
        PyErr_Format(PyExc_ValueError, "packed rows: %zd bytes, expected %zd", buf->len, count * 8);
        return NULL;
    }
    int64_t *out = PyMem_Malloc(count * sizeof(int64_t));
    if (!out) {
        PyErr_NoMemory();
        return NULL;
    }
    const unsigned char *p = buf->buf;
    for (Py_ssize_t i = 0; i < count; i++) {
        uint64_t v = 0;
        for (int b = 7; b >= 0; b--) v = (v << 8) | p[8 * i + b];
        out[i] = (int64_t)(v - offset);
    }
    return out;
}

/* load(hidden, blocks, maxima, bias, stacks, contact, figures, out_rows, out_bias) */
static PyObject *load(PyObject *self, PyObject *args) {
    int hidden, blocks;
    PyObject *maxima;
    Py_buffer bias = {0}, stacks = {0}, contact = {0}, figures = {0}, out_rows = {0}, out_bias = {0};
    if (!PyArg_ParseTuple(args, "iiOy*y*y*y*y*y*", &hidden, &blocks, &maxima, &bias, &stacks,
                          &contact, &figures, &out_rows, &out_bias)) {
        return NULL;
    }
    PyObject *result = NULL;
    Net *net = PyMem_Calloc(1, sizeof(Net));
    if (!net) {
        PyErr_NoMemory();
        goto done;
    }
    if (hidden < 1 || hidden % BLOCK || blocks < 0 || blocks > 3) {
        PyErr_SetString(PyExc_ValueError, "bad network shape (hidden units: a multiple of 16)");
        goto done;
    }
    net->hidden = hidden;
    net->blocks = blocks;
    net->figures = 8 * blocks;
    PyObject *seq = PySequence_Fast(maxima, "maxima must be a sequence");
    if (!seq) goto done;
    if (PySequence_Fast_GET_SIZE(seq) != net->figures) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "maxima: one per figure read");
        goto done;
    }
    Py_ssize_t rows = 0;
    for (int k = 0; k < net->figures; k++) {
        long m = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
        if (m < 0 || m > 100000) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad figure maximum");
            goto done;
        }
        net->figure_maxima[k] = (int)m;
        net->figure_start[k] = rows;
        rows += m + 1;
    }
    Py_DECREF(seq);
    if (!(net->bias = fixed_rows(&bias, 1, hidden, SIGN))) goto done;
    if (!(net->stacks = fixed_rows(&stacks, 2 * STACK_PLACES * COUNTS, hidden, FIELD_OFFSET))) goto done;
    if (!(net->contact = fixed_rows(&contact, 1, hidden, FIELD_OFFSET))) goto done;
    if (!(net->figure_rows = fixed_rows(&figures, rows, hidden, FIELD_OFFSET))) goto done;
    if (out_rows.len != (Py_ssize_t)(OUTPUTS * hidden * sizeof(double)) ||
        out_bias.len != (Py_ssize_t)(OUTPUTS * sizeof(double))) {
        PyErr_SetString(PyExc_ValueError, "output layer: wrong size");
        goto done;
    }
    net->out_rows = PyMem_Malloc(out_rows.len);
    net->sums = PyMem_Malloc(hidden * sizeof(int64_t));
    net->hs = PyMem_Malloc(hidden * sizeof(double));
    if (!net->out_rows || !net->sums || !net->hs) {
        PyErr_NoMemory();
        goto done;
    }
    memcpy(net->out_rows, out_rows.buf, out_rows.len);
    memcpy(net->out_bias, out_bias.buf, out_bias.len);
    net->id = ++NETS;
    result = PyCapsule_New(net, CAPSULE, capsule_free);
    if (result) net = NULL;
done:
    net_free(net);
    PyBuffer_Release(&bias);
    PyBuffer_Release(&stacks);
    PyBuffer_Release(&contact);
    PyBuffer_Release(&figures);
    PyBuffer_Release(&out_rows);
    PyBuffer_Release(&out_bias);
    return result;
}

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
/* wider vector additions where the processor has them (the sums are whole numbers, so
 * every width gives the same) */
#define VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define VECTOR_CLONES
#endif


/* net._sigmoid. Beyond SATURATED, exp(-x) is below half a unit in the last place of
 * 1.0, so 1.0 + exp(-x) rounds to 1.0 and the sigmoid is 1.0 exactly: no exp needed. */
#define SATURATED 37.0
static inline double sigmoid(double x) {
    if (x < -40.0) return 0.0;
    if (x > SATURATED) return 1.0;
    return 1.0 / (1.0 + exp(-x));
}

/* One side's board rows summed (its occupied places and its borne-off count), with the
 * rows of the figures that depend on this board alone (ONE_BOARD), kept from the
 * position before: the plays of a roll leave the side on roll as it was (unless a
 * checker is hit) and move a few checkers of the other, the replies to a play the same
 * the other way round. So the sum is updated by what changed, a row taken out and one
 * put in for each changed place or figure. Whole numbers: the sum is the same in
 * whatever order and grouping it is added, to the last bit. */
#define ONE_BOARD 6
typedef struct {
    uint64_t net;            /* the Net's id the sum belongs to, 0: none */
    int board[STACK_PLACES]; /* the 25 places and the borne-off count */
    int figure[ONE_BOARD];   /* the counts of the figures below, 0 where not read */
    int64_t *sum;            /* hidden */
} SideCache;

#define FEW_CHANGES 8 /* beyond this many changed places the sum is made afresh */


/* Which of the figures (features.counts' order) side ``side``'s board alone decides:
 * its home points, prime, back anchor, checkers back, forward anchor, and the
 * containment the other side faces (the fewest escapes past this board's points). */
static void one_board_indices(int side, int index[ONE_BOARD]) {
    index[0] = 2 + 4 * side;
    index[1] = 3 + 4 * side;
    index[2] = 9 + 4 * side;
    index[3] = 17 + 4 * side;
    index[4] = 18 + 4 * side;
    index[5] = 8 + 4 * (1 - side);
}

static int is_one_board(int k) {
    switch (k) {
        case 2: case 3: case 6: case 7: case 8: case 9: case 12: case 13:
        case 17: case 18: case 21: case 22:
            return 1;
        default:
            return 0;
    }
}

/* The ONE_BOARD counts of a board, as features.counts finds them. */
static void one_board_counts(const int *board, int out[ONE_BOARD]) {
    Side s;
    side_of(board, &s);
    uint32_t run = s.made;
    int prime = 0;
    while (run) {
        run &= run << 1;
        prime++;
    }
    uint32_t anchors = (s.made >> 18) & 0x3F;
    int back = 0;
    for (int place = HOME_OF_THE_OTHER; place <= BAR; place++) back += board[place];
    int fewest = 36;
    for (int place = 12; place <= BAR; place++) {
        int e = escapes_from(place, s.made);
        if (e < fewest) fewest = e;
    }
    out[0] = __builtin_popcount(s.made & 0x3F);
    out[1] = prime;
    out[2] = bit_length(s.made);
    out[3] = back;
    out[4] = anchors ? 6 - __builtin_ctz(anchors) : 0;
    out[5] = fewest;
}

static const int64_t *figure_row(const Net *net, int k, int count) {
    return net->figure_rows + (net->figure_start[k] + count) * net->hidden;
}

/* The rows that bring a side's kept sum to its board now: put in and taken out, or, when
 * ``fresh``, the whole sum from zero. */
#define MOST_ROWS (2 * (STACK_PLACES + ONE_BOARD))
typedef struct {
    const int64_t *plus[MOST_ROWS];
    const int64_t *minus[MOST_ROWS];
    int plus_count, minus_count, fresh;
} Changes;

static void side_changes(const Net *net, int side, const int *board, SideCache *c, Changes *d) {
    const int hidden = net->hidden;
    const int64_t *stack = net->stacks + (Py_ssize_t)side * STACK_PLACES * COUNTS * hidden;
    d->plus_count = d->minus_count = d->fresh = 0;
    int now[STACK_PLACES];
    int total = 0;
    for (int place = 0; place < PLACES; place++) {
        now[place] = board[place];
        total += board[place];
    }
    now[STACK_PLACES - 1] = CHECKERS - total;
    int changed = 0;
    if (c->net == net->id) {
        for (int place = 0; place < STACK_PLACES; place++) changed += now[place] != c->board[place];
        if (!changed) return;
    }
    int index[ONE_BOARD], figure[ONE_BOARD] = {0};
    one_board_indices(side, index);
    if (net->blocks) {
        one_board_counts(board, figure);
        for (int f = 0; f < ONE_BOARD; f++) {
            if (index[f] >= net->figures) figure[f] = 0; /* a block the network does not read */
        }
    }
    if (c->net == net->id && changed <= FEW_CHANGES) {
        for (int place = 0; place < STACK_PLACES; place++) {
            int was = c->board[place], n = now[place];
            if (was == n) continue;
            if (was) d->minus[d->minus_count++] = stack + ((Py_ssize_t)place * COUNTS + was) * hidden;
            if (n) d->plus[d->plus_count++] = stack + ((Py_ssize_t)place * COUNTS + n) * hidden;
        }
        for (int f = 0; f < ONE_BOARD; f++) {
            int was = c->figure[f], n = figure[f];
            if (was == n) continue;
            if (was) d->minus[d->minus_count++] = figure_row(net, index[f], was);
            if (n) d->plus[d->plus_count++] = figure_row(net, index[f], n);
        }
    } else {
        d->fresh = 1;
        for (int place = 0; place < STACK_PLACES; place++) {
            if (now[place]) d->plus[d->plus_count++] = stack + ((Py_ssize_t)place * COUNTS + now[place]) * hidden;
        }
        for (int f = 0; f < ONE_BOARD; f++) {
            if (figure[f]) d->plus[d->plus_count++] = figure_row(net, index[f], figure[f]);
        }
        c->net = net->id;
    }
    memcpy(c->board, now, sizeof(now));
    memcpy(c->figure, figure, sizeof(figure));
}

/* A block of BLOCK hidden units of a side's kept sum brought up to date, into t. */
static inline void side_block(int64_t *restrict t, SideCache *c, const Changes *d, int j) {
    if (d->fresh) {
        for (int i = 0; i < BLOCK; i++) t[i] = 0;
    } else {
        for (int i = 0; i < BLOCK; i++) t[i] = c->sum[j + i];
    }
    for (int r = 0; r < d->plus_count; r++) {
        const int64_t *restrict row = d->plus[r] + j;
        for (int i = 0; i < BLOCK; i++) t[i] += row[i];
    }
    for (int r = 0; r < d->minus_count; r++) {
        const int64_t *restrict row = d->minus[r] + j;
        for (int i = 0; i < BLOCK; i++) t[i] -= row[i];
    }
    for (int i = 0; i < BLOCK; i++) c->sum[j + i] = t[i];
}

/* Network.probabilities: 0 or -1 with an exception set */
VECTOR_CLONES
static int forward(Net *net, const int *mine, const int *theirs, int contact, SideCache cache[2],
                   double p[OUTPUTS]) {
    const int hidden = net->hidden;
    int64_t *sums = net->sums;
    Changes changes[2];
    side_changes(net, 0, mine, &cache[0], &changes[0]);
    side_changes(net, 1, theirs, &cache[1], &changes[1]);
    /* the rows to add beyond the sides' sums: the bias, contact, one per figure */
    const int64_t *rows[2 + FIGURES];
    int added = 0;
    rows[added++] = net->bias;
    if (contact) rows[added++] = net->contact;
    if (net->blocks) {
        int figures[FIGURES];
        counts(mine, theirs, net->blocks, 0, figures);
        for (int k = 0; k < net->figures; k++) {
            int count = figures[k];
            if (!count || is_one_board(k)) continue; /* in the sides' sums */
            if (count < 0 || count > net->figure_maxima[k]) {
                PyErr_Format(PyExc_IndexError, "figure %d: count %d out of range", k, count);
                return -1;
            }
            rows[added++] = figure_row(net, k, count);
        }
    }
    /* one pass over the hidden units, BLOCK at a time, the sums kept in registers
     * rather than loaded and stored once per row (load() checks hidden % BLOCK == 0) */
    for (int j = 0; j < hidden; j += BLOCK) {
        int64_t a[BLOCK], b[BLOCK], t[BLOCK];
        side_block(a, &cache[0], &changes[0], j);
        side_block(b, &cache[1], &changes[1], j);
        for (int i = 0; i < BLOCK; i++) t[i] = a[i] + b[i];
        for (int r = 0; r < added; r++) {
            const int64_t *restrict row = rows[r] + j;
            for (int i = 0; i < BLOCK; i++) t[i] += row[i];
        }
        memcpy(sums + j, t, sizeof(t));
    }
    /* Network._output: five running sums over the hidden units, in order */
    const double *w0 = net->out_rows, *w1 = w0 + hidden, *w2 = w1 + hidden, *w3 = w2 + hidden,
                 *w4 = w3 + hidden;
    /* the sigmoids first, so that the sums' loop calls nothing and keeps its five
     * running sums in registers */
    double *hs = net->hs;
    for (int j = 0; j < hidden; j++) hs[j] = sigmoid((double)sums[j] * FIXED_SCALE);
    double o0 = 0.0, o1 = 0.0, o2 = 0.0, o3 = 0.0, o4 = 0.0;
    for (int j = 0; j < hidden; j++) {
        double h = hs[j];
        o0 += h * w0[j];
        o1 += h * w1[j];
        o2 += h * w2[j];
        o3 += h * w3[j];
        o4 += h * w4[j];
    }
    const double *b = net->out_bias;
    double r0 = sigmoid(b[0] + o0), r1 = sigmoid(b[1] + o1), r2 = sigmoid(b[2] + o2),
           r3 = sigmoid(b[3] + o3), r4 = sigmoid(b[4] + o4);
    /* net.consistent */
    double win = fmin(fmax(r0, 0.0), 1.0);
    double win_g = fmin(fmax(r1, 0.0), win);
    double win_bg = fmin(fmax(r2, 0.0), win_g);
    double lose_g = fmin(fmax(r3, 0.0), 1.0 - win);
    double lose_bg = fmin(fmax(r4, 0.0), lose_g);
    /* net.sane */
    int mine_total = 0, theirs_total = 0, mine_back = 0, theirs_back = 0;
    for (int i = 0; i < PLACES; i++) {
        mine_total += mine[i];
        theirs_total += theirs[i];
        if (i >= HOME_OF_THE_OTHER) {
            mine_back |= mine[i];
            theirs_back |= theirs[i];
        }
    }
    if (mine_total < CHECKERS) {
        lose_g = lose_bg = 0.0;
    } else if (!contact && !mine_back) {
        lose_bg = 0.0;
    }
    if (theirs_total < CHECKERS) {
        win_g = win_bg = 0.0;
    } else if (!contact && !theirs_back) {
        win_bg = 0.0;
    }
    p[0] = win;
    p[1] = win_g;
    p[2] = win_bg;
    p[3] = lose_g;
    p[4] = lose_bg;
    return 0;
}

/* One board of 25 places, 0-15 checkers each, at most 15 in all. */
static int read_board(PyObject *obj, int *board) {
    PyObject *seq = PySequence_Fast(obj, "a board must be a sequence");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != PLACES) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a board has 25 places");
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    int total = 0;
    for (int i = 0; i < PLACES; i++) {
        long n = PyLong_AsLong(items[i]);
        if (n < 0 || n > CHECKERS) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "0-15 checkers per place");
            return -1;
        }
        board[i] = (int)n;
        total += (int)n;
    }
    Py_DECREF(seq);
    if (total > CHECKERS) {
        PyErr_SetString(PyExc_ValueError, "more than 15 checkers on a board");
        return -1;
    }
    return 0;
}

/* bearoff.probabilities' test: both sides home (nothing on 7-24 or the bar), neither done */
static int bearoff_position(const int *mine, const int *theirs) {
    int mine_any = 0, theirs_any = 0;
    for (int i = 0; i < PLACES; i++) {
        if (i >= 6 && (mine[i] || theirs[i])) return 0;
        mine_any |= mine[i];
        theirs_any |= theirs[i];
    }
    return mine_any && theirs_any;
}

/* The sides' kept sums, from one call to the next too (a search asks for a roll's plays
 * a call at a time, and the side on roll stays the same across them). Only ever used
 * with the GIL held, so one pair serves the module. */
static SideCache CACHE[2];
static int64_t *CACHE_SUMS;
static int CACHE_HIDDEN;

static int cache_room(int hidden) {
    if (hidden <= CACHE_HIDDEN) return 0;
    int64_t *sums = PyMem_Realloc(CACHE_SUMS, 2 * (size_t)hidden * sizeof(int64_t));
    if (!sums) return -1;
    CACHE_SUMS = sums;
    CACHE_HIDDEN = hidden;
    CACHE[0].net = CACHE[1].net = 0;
    CACHE[0].sum = sums;
    CACHE[1].sum = sums + hidden;
    return 0;
}

/* evaluate(main, race, positions, exact_bearoff, equities) -> list
 *
 * For each (on roll, other) position: None where both sides bear off and exact_bearoff
 * (the caller asks the database), else the race network's answer without contact and
 * the main network's with it: the equity (net.equity) if equities, else the five
 * chances as a tuple. */
static PyObject *evaluate(PyObject *self, PyObject *args) {
    PyObject *main_capsule, *race_capsule, *positions;
    int exact_bearoff, equities;
    if (!PyArg_ParseTuple(args, "OOOpp", &main_capsule, &race_capsule, &positions, &exact_bearoff,
                          &equities)) {
        return NULL;
    }
    Net *main_net = PyCapsule_GetPointer(main_capsule, CAPSULE);
    if (!main_net) return NULL;
    Net *race_net = PyCapsule_GetPointer(race_capsule, CAPSULE);
    if (!race_net) return NULL;
    PyObject *seq = PySequence_Fast(positions, "positions must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyList_New(n);
    int hidden = main_net->hidden > race_net->hidden ? main_net->hidden : race_net->hidden;
    if (!out || cache_room(hidden) < 0) {
        Py_DECREF(seq);
        Py_XDECREF(out);
        return out ? PyErr_NoMemory() : NULL;
    }
    SideCache *cache = CACHE;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *pair = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_TypeError, "a position is a tuple (on roll, other)");
            goto fail;
        }
        int mine[PLACES], theirs[PLACES];
        if (read_board(PyTuple_GET_ITEM(pair, 0), mine) < 0) goto fail;
        if (read_board(PyTuple_GET_ITEM(pair, 1), theirs) < 0) goto fail;
        PyObject *item;
        if (exact_bearoff && bearoff_position(mine, theirs)) {
            item = Py_NewRef(Py_None);
        } else {
            int contact = has_contact(mine, theirs);
            double p[OUTPUTS];
            if (forward(contact ? main_net : race_net, mine, theirs, contact, cache, p) < 0) goto fail;
            if (equities) {
                item = PyFloat_FromDouble(2 * p[0] - 1 + p[1] - p[3] + p[2] - p[4]);
            } else {
                item = PyTuple_New(OUTPUTS);
                for (int k = 0; item && k < OUTPUTS; k++) {
                    PyObject *v = PyFloat_FromDouble(p[k]);
                    if (!v) Py_CLEAR(item);
                    else PyTuple_SET_ITEM(item, k, v);
                }
            }
            if (!item) goto fail;
        }
        PyList_SET_ITEM(out, i, item);
    }
    Py_DECREF(seq);
    return out;
fail:
    /* a side's kept board may be ahead of its sum now: start afresh next time */
    CACHE[0].net = CACHE[1].net = 0;
    Py_DECREF(seq);
    Py_DECREF(out);
    return NULL;
}

/* counts(on_roll, other, blocks) -> tuple: features.counts, for the tests */
static PyObject *py_counts(PyObject *self, PyObject *args) {
    PyObject *a, *b;
    int blocks = 3;
    if (!PyArg_ParseTuple(args, "OO|i", &a, &b, &blocks)) return NULL;
    if (blocks < 1 || blocks > 3) {
        PyErr_SetString(PyExc_ValueError, "blocks: 1, 2 or 3");
        return NULL;
    }
    int mine[PLACES], theirs[PLACES], figures[FIGURES];
    if (read_board(a, mine) < 0 || read_board(b, theirs) < 0) return NULL;
    counts(mine, theirs, blocks, 1, figures);
    PyObject *out = PyTuple_New(8 * blocks);
    if (!out) return NULL;
    for (int k = 0; k < 8 * blocks; k++) {
        PyObject *v = PyLong_FromLong(figures[k]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, k, v);
    }
    return out;
}

static PyMethodDef METHODS[] = {
    {"load", load, METH_VARARGS, "A network's packed first layer and output layer, kept in C."},
    {"evaluate", evaluate, METH_VARARGS, "The chances or equities of many positions."},
    {"counts", py_counts, METH_VARARGS, "features.counts of one position."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_kernel", "The Backgammon evaluation in C (optional).", -1, METHODS,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    init_tables();
    init_roll_sets();
    return PyModule_Create(&MODULE);
}
