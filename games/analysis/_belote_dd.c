/*
 * The search behind games/analysis/belote_solver.py: alpha-beta over Belote's legal cards with a
 * transposition table at the start of each trick. In C because a deal's review asks for some
 * hundred exact searches and pure Python takes seconds for one (`manage.py bench review`).
 *
 * A value is team 0's points minus team 1's points from the remaining play: the cards of the
 * current trick and of every later trick, the last ten, a capot's 90 and belots still to come.
 * The rules' tables (points, strength, higher cards, trumps) come from belote_cards.py; the
 * rules themselves (legal cards, the trick's winner, belot, capot) are those of belote.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define NO_TRUMPS 4
#define ALL_TRUMPS 5
#define INFINITE 10000
#define CAPOT 90
#define BELOT 20
#define KING_QUEEN 0x60u

typedef struct {
    uint64_t key;
    uint32_t generation;
    int16_t low, high;
    int8_t best;
} Entry;

typedef struct {
    PyObject_HEAD
    int contract;
    int points[32];
    int strength[32];
    uint32_t higher[32];
    uint32_t trumps;
    int last_ten;
    int byte_points[4][256]; /* points of the cards of a suit's byte */
    Entry *table;
    uint64_t slots;
    int shift;
    uint32_t generation;
    uint32_t hands[4];
    uint32_t pairs;
    long long nodes;
    long long limit; /* stop once nodes passes it (0: never), and say so */
    int aborted;
} Search;

static inline uint32_t suit_mask(int card) { return 0xFFu << (8 * (card >> 3)); }

static inline int beats(const Search *s, int card, int top) {
    if ((card >> 3) == (top >> 3)) return s->strength[card] > s->strength[top];
    return ((s->trumps >> card) & 1u) && !((s->trumps >> top) & 1u);
}

/* The cards of `hand` the rules let the next player put on `trick` (belote.legal_mask). */
static uint32_t legal_mask(const Search *s, uint32_t hand, const int *trick, int n, int win) {
    if (n == 0) return hand;
    int lead = trick[0];
    uint32_t same = hand & suit_mask(lead);
    if (same) {
        if ((s->trumps >> lead) & 1u) {
            uint32_t higher = same & s->higher[trick[win]];
            return higher ? higher : same;
        }
        return same;
    }
    if (s->contract >= NO_TRUMPS || win == n - 2) return hand;
    uint32_t mine = hand & s->trumps;
    if (!mine) return hand;
    int top = trick[win];
    if ((s->trumps >> top) & 1u) {
        uint32_t higher = mine & s->higher[top];
        return higher ? higher : hand;
    }
    return mine;
}

/* Team 0's margin from the belot `card` announces, if it does (`rest`: the hand without it). */
static inline int belot(const Search *s, int seat, int card, const int *trick, int n, uint32_t rest) {
    if (!((s->pairs >> card) & 1u)) return 0;
    uint32_t pair = KING_QUEEN << (8 * (card >> 3));
    if (!(rest & pair)) return 0; /* the other card went first */
    if (n > 0 && (card >> 3) != (trick[0] >> 3) && s->contract >= NO_TRUMPS) return 0;
    return (seat & 1) ? -BELOT : BELOT;
}

/* Drop from `legal` the cards that play exactly like a kept one: same suit, same points and no
 * card of another seat or of the trick between them in strength. */
static uint32_t distinct(const Search *s, int seat, uint32_t legal, const int *trick, int n) {
    uint32_t others = 0;
    for (int p = 0; p < 4; p++)
        if (p != seat) others |= s->hands[p];
    for (int i = 0; i < n; i++) others |= 1u << trick[i];
    uint32_t kept = 0;
    for (uint32_t rest = legal; rest; rest &= rest - 1) {
        int card = __builtin_ctz(rest);
        int twin = 0;
        for (uint32_t seen = kept & suit_mask(card); seen && !twin; seen &= seen - 1) {
            int other = __builtin_ctz(seen);
            if (s->points[other] != s->points[card]) continue;
            int low = s->strength[card] < s->strength[other] ? s->strength[card] : s->strength[other];
            int high = s->strength[card] ^ s->strength[other] ^ low;
            twin = 1;
            for (uint32_t between = others & suit_mask(card); between; between &= between - 1) {
                int strength = s->strength[__builtin_ctz(between)];
                if (strength > low && strength < high) {
                    twin = 0;
                    break;
                }
            }
        }
        if (!twin) kept |= 1u << card;
    }
    return kept;
}

/* Order the cards of `legal` (into `out`), the likeliest best first; return how many. */
static int order(const Search *s, uint32_t legal, const int *trick, int n, int win, int hint, int *out) {
    int keys[8], count = 0;
    int partner_wins = n >= 2 && win == n - 2;
    int top = n ? trick[win] : -1;
    while (legal) {
        int card = __builtin_ctz(legal);
        legal &= legal - 1;
        int trump = (s->trumps >> card) & 1u;
        int key;
        if (n == 0) {
            key = card == hint ? -100 : -(s->strength[card] + 8 * trump);
        } else {
            int wins = beats(s, card, top);
            if (partner_wins) key = wins ? 100 - s->points[card] : -s->points[card];
            else if (wins) key = s->strength[card] + 8 * trump;
            else key = 100 + s->points[card];
        }
        int i = count++;
        while (i > 0 && keys[i - 1] > key) {
            keys[i] = keys[i - 1];
            out[i] = out[i - 1];
            i--;
        }
        keys[i] = key;
        out[i] = card;
    }
    return count;
}

static int trick_start(Search *s, int leader, int taken, int alpha, int beta);
static int node(Search *s, int leader, int seat, int *trick, int n, int win, int taken, int alpha, int beta);

/* Team 0's margin once `seat` puts `card` on `trick` (n cards, the one at `win` winning): what
 * the card scores (its belot; its trick, when it completes one) and the best play after it. */
static int after_card(Search *s, int leader, int seat, int *trick, int n, int win, int taken, int card,
                      int alpha, int beta) {
    uint32_t hand = s->hands[seat];
    uint32_t rest = hand & ~(1u << card);
    s->hands[seat] = rest;
    int gained = belot(s, seat, card, trick, n, rest);
    int now_win = n && beats(s, card, trick[win]) ? n : win;
    int value;
    trick[n] = card;
    if (n == 3) {
        int taker = (leader + now_win) & 3;
        int team = taker & 1;
        int now_taken = taken | 1 << team;
        int points = s->points[trick[0]] + s->points[trick[1]] + s->points[trick[2]] + s->points[card];
        if (!(s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3])) {
            points += s->last_ten;
            if (now_taken == 1 << team) points += CAPOT;
        }
        gained += team ? -points : points;
        value = gained + trick_start(s, taker, now_taken, alpha - gained, beta - gained);
    } else {
        value = gained + node(s, leader, (seat + 1) & 3, trick, n + 1, now_win, taken, alpha - gained,
                              beta - gained);
    }
    s->hands[seat] = hand;
    return value;
}

/* Team 0's margin with `seat` to put a card on `trick`, trying `count` cards in order; the best
 * card goes to `*chosen`. */
static int best_of(Search *s, int leader, int seat, int *trick, int n, int win, int taken, const int *cards,
                   int count, int alpha, int beta, int *chosen) {
    if (++s->nodes > s->limit && s->limit) s->aborted = 1;
    if (s->aborted) return 0;
    int maximizing = !(seat & 1);
    int best = maximizing ? -INFINITE : INFINITE;
    for (int i = 0; i < count; i++) {
        int value = after_card(s, leader, seat, trick, n, win, taken, cards[i], alpha, beta);
        if (maximizing ? value > best : value < best) {
            best = value;
            *chosen = cards[i];
            if (maximizing && value > alpha) alpha = value;
            if (!maximizing && value < beta) beta = value;
        }
        if (alpha >= beta) break;
    }
    return best;
}

/* Team 0's margin from the start of a trick led by `leader`. */
static int trick_start(Search *s, int leader, int taken, int alpha, int beta) {
    uint32_t left = s->hands[0] | s->hands[1] | s->hands[2] | s->hands[3];
    if (!left) return 0;
    uint64_t key = (uint64_t)left | (uint64_t)leader << 32 | (uint64_t)taken << 34;
    Entry *entry = &s->table[(key * 0x9E3779B97F4A7C15ull) >> s->shift];
    int low = -INFINITE, high = INFINITE, hint = -1;
    if (entry->generation == s->generation && entry->key == key) {
        low = entry->low;
        high = entry->high;
        hint = entry->best;
        if (low >= beta) return low;
        if (high <= alpha) return high;
        if (low == high) return low;
        if (low > alpha) alpha = low;
        if (high < beta) beta = high;
    }
    /* What is left to win bounds the margin: past those bounds the window is out of reach. */
    int points = s->last_ten;
    for (int suit = 0; suit < 4; suit++) points += s->byte_points[suit][(left >> (8 * suit)) & 0xFF];
    int belots[2] = {0, 0};
    for (uint32_t pairs = s->pairs & left; pairs; pairs &= pairs - 1) {
        int card = __builtin_ctz(pairs);
        uint32_t pair = KING_QUEEN << (8 * (card >> 3));
        for (int seat = 0; seat < 4; seat++)
            if ((s->hands[seat] & pair) == pair) belots[seat & 1] += BELOT / 2; /* two bits a pair */
    }
    int most = points + belots[0] + (taken & 2 ? 0 : CAPOT);
    int least = -(points + belots[1] + (taken & 1 ? 0 : CAPOT));
    if (most <= alpha) return most;
    if (least >= beta) return least;
    int trick[4], cards[8], chosen = -1;
    uint32_t hand = s->hands[leader];
    int count = order(s, distinct(s, leader, hand, trick, 0), trick, 0, 0, hint, cards);
    int best = best_of(s, leader, leader, trick, 0, 0, taken, cards, count, alpha, beta, &chosen);
    if (s->aborted) return 0; /* nothing learnt: keep the table as it was */
    if (best <= alpha) {
        if (best < high) high = best;
    } else if (best >= beta) {
        if (best > low) low = best;
    } else {
        low = high = best;
    }
    entry->key = key;
    entry->generation = s->generation;
    entry->low = (int16_t)low;
    entry->high = (int16_t)high;
    entry->best = (int8_t)chosen;
    return best;
}

/* Team 0's margin with `seat` to put a card on `trick` (n cards, the one at `win` winning). */
static int node(Search *s, int leader, int seat, int *trick, int n, int win, int taken, int alpha, int beta) {
    if (n == 0) return trick_start(s, leader, taken, alpha, beta);
    int cards[8], chosen = -1;
    uint32_t legal = legal_mask(s, s->hands[seat], trick, n, win);
    int count = order(s, distinct(s, seat, legal, trick, n), trick, n, win, -1, cards);
    return best_of(s, leader, seat, trick, n, win, taken, cards, count, alpha, beta, &chosen);
}

/* -- the Python type ------------------------------------------------------------------------ */

static int read_ints(PyObject *seq, int *out, int count, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != count) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: expected %d items", what, count);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        long value = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (value == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)value;
    }
    Py_DECREF(fast);
    return 0;
}

static int Search_init(Search *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"contract", "points", "strength", "higher", "trumps", "last_ten", "bits", NULL};
    PyObject *points, *strength, *higher;
    unsigned long trumps;
    int bits = 18;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iOOOki|i", names, &self->contract, &points, &strength,
                                     &higher, &trumps, &self->last_ten, &bits))
        return -1;
    if (self->contract < 0 || self->contract > ALL_TRUMPS || bits < 8 || bits > 26) {
        PyErr_SetString(PyExc_ValueError, "contract must be 0..5 and bits 8..26");
        return -1;
    }
    int higher_ints[32];
    if (read_ints(points, self->points, 32, "points") || read_ints(strength, self->strength, 32, "strength") ||
        read_ints(higher, higher_ints, 32, "higher"))
        return -1;
    for (int i = 0; i < 32; i++) self->higher[i] = (uint32_t)higher_ints[i];
    for (int suit = 0; suit < 4; suit++)
        for (int byte = 0; byte < 256; byte++) {
            int sum = 0;
            for (int rank = 0; rank < 8; rank++)
                if ((byte >> rank) & 1) sum += self->points[8 * suit + rank];
            self->byte_points[suit][byte] = sum;
        }
    self->trumps = (uint32_t)trumps;
    PyMem_Free(self->table);
    self->slots = 1ull << bits;
    self->shift = 64 - bits;
    self->table = PyMem_Calloc(self->slots, sizeof(Entry));
    if (!self->table) {
        PyErr_NoMemory();
        return -1;
    }
    self->generation = 1;
    return 0;
}

static void Search_dealloc(Search *self) {
    PyMem_Free(self->table);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Search_search(Search *self, PyObject *args) {
    PyObject *hands, *trick_seq;
    int leader, taken, alpha, beta, card = -1;
    long long nodes = 0;
    if (!PyArg_ParseTuple(args, "OiOiii|iL", &hands, &leader, &trick_seq, &taken, &alpha, &beta, &card, &nodes))
        return NULL;
    int hand_ints[4];
    if (read_ints(hands, hand_ints, 4, "hands")) return NULL;
    Py_ssize_t n = PySequence_Size(trick_seq);
    if (n < 0 || n > 3 || leader < 0 || leader > 3 || taken < 0 || taken > 3) {
        PyErr_SetString(PyExc_ValueError, "a trick holds 0 to 3 cards, seats are 0..3, taken 0..3");
        return NULL;
    }
    int trick[4] = {0, 0, 0, 0};
    if (read_ints(trick_seq, trick, (int)n, "trick")) return NULL;
    /* Belots still to come: a king and queen of a trump suit held together. */
    self->pairs = 0;
    for (int i = 0; i < 4; i++) {
        self->hands[i] = (uint32_t)hand_ints[i];
        for (int suit = 0; suit < 4; suit++) {
            uint32_t pair = KING_QUEEN << (8 * suit);
            if ((self->trumps & pair) == pair && (self->hands[i] & pair) == pair) self->pairs |= pair;
        }
    }
    int win = 0;
    for (int i = 1; i < n; i++)
        if (beats(self, trick[i], trick[win])) win = i;
    int seat = (leader + (int)n) & 3;
    if (card > 31 || (card >= 0 && !((legal_mask(self, self->hands[seat], trick, (int)n, win) >> card) & 1u))) {
        PyErr_SetString(PyExc_ValueError, "that card may not be played now");
        return NULL;
    }
    self->limit = nodes > 0 ? self->nodes + nodes : 0;
    self->aborted = 0;
    int value = card < 0 ? node(self, leader, seat, trick, (int)n, win, taken, alpha, beta)
                         : after_card(self, leader, seat, trick, (int)n, win, taken, card, alpha, beta);
    if (self->aborted) Py_RETURN_NONE;
    return PyLong_FromLong(value);
}

static PyObject *Search_forget(Search *self, PyObject *Py_UNUSED(ignored)) {
    self->generation++;
    if (self->generation == 0) {
        memset(self->table, 0, self->slots * sizeof(Entry));
        self->generation = 1;
    }
    Py_RETURN_NONE;
}

static PyObject *Search_get_nodes(Search *self, void *Py_UNUSED(closure)) { return PyLong_FromLongLong(self->nodes); }

static PyMethodDef Search_methods[] = {
    {"search", (PyCFunction)Search_search, METH_VARARGS,
     "search(hands, leader, trick, taken, alpha, beta, card=-1, nodes=0) -> team 0's margin, "
     "fail-soft (after `card`, when given); None when it would search more than `nodes` positions"},
    {"forget", (PyCFunction)Search_forget, METH_NOARGS, "Forget every position (another deal follows)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_get_nodes, NULL, "Positions searched so far.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "games.analysis._belote_dd.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Alpha-beta search of one deal's trick play under one contract.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_belote_dd", "Belote's double-dummy search (see belote_solver.py).", -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__belote_dd(void) {
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
