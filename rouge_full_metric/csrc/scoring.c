/* Part of the _core translation unit: csrc/_core.c includes this file after core.h and the
 * files listed before it there; it is not compiled on its own. */

/* ------------------------------------------------------------------------------------------ */
/* scores (scoring.py: score_from_counts, combine, jackknife)                                    */

static ALWAYS_INLINE SC score_from_counts(EngineObject *e, double h, double rc, double pc, double weight) {
    SC s;
    double recall = rc != 0.0 ? h / rc : 0.0;
    double precision = pc != 0.0 ? h / pc : 0.0;
    if (weight != 0.0) {
        recall = pow(recall, 1.0 / weight);
        precision = pow(precision, 1.0 / weight);
    }
    double alpha = e->alpha;
    if (e->rounded) {
        recall = round5(recall);
        precision = round5(precision);
        double den = (1.0 - alpha) * precision + alpha * recall;
        s.f = round5(den > 0.0 ? (precision * recall) / den : 0.0);
    } else if (e->rs_f) {
        double sum = precision + recall;
        s.f = sum > 0.0 ? 2.0 * precision * recall / sum : 0.0;
    } else {
        double den = (1.0 - alpha) * precision + alpha * recall;
        s.f = den > 0.0 ? (precision * recall) / den : 0.0;
    }
    s.p = precision;
    s.r = recall;
    return s;
}

/* F of an already computed (P, R) (scoring.py: _reported_f), for multi_ref "max_rp". */
static double f_of(EngineObject *e, double precision, double recall) {
    double alpha = e->alpha;
    if (e->rounded) {
        double den = (1.0 - alpha) * precision + alpha * recall;
        return round5(den > 0.0 ? (precision * recall) / den : 0.0);
    }
    if (e->rs_f) {
        double sum = precision + recall;
        return sum > 0.0 ? 2.0 * precision * recall / sum : 0.0;
    }
    double den = (1.0 - alpha) * precision + alpha * recall;
    return den > 0.0 ? (precision * recall) / den : 0.0;
}

/* by_recall: flavor paper's ROUGE-N picks the best recall (ties: the better F, then the first). */
static SC combine(EngineObject *e, const PS *s, Py_ssize_t M, double weight, int by_recall) {
    if (e->multi_ref == MR_MAX) {
        SC best = score_from_counts(e, s[0].h, s[0].rc, s[0].pc, weight);
        for (Py_ssize_t k = 1; k < M; k++) {
            SC c = score_from_counts(e, s[k].h, s[k].rc, s[k].pc, weight);
            if (by_recall ? (c.r > best.r || (c.r == best.r && c.f > best.f)) : c.f > best.f) best = c;
        }
        return best;
    }
    if (e->multi_ref == MR_MAX_RP) {   /* Lin & Och 2004 eqs. 7-9 */
        double r = 0.0, p = 0.0;
        for (Py_ssize_t k = 0; k < M; k++) {
            SC c = score_from_counts(e, s[k].h, s[k].rc, s[k].pc, weight);
            if (c.r > r) r = c.r;
            if (c.p > p) p = c.p;
        }
        SC out = {p, r, f_of(e, p, r)};
        return out;
    }
    if (e->multi_ref == MR_BEST) {
        double best = -1.0;
        const PS *chosen = &s[0];
        for (Py_ssize_t k = 0; k < M; k++)
            if (s[k].sel > best) { best = s[k].sel; chosen = &s[k]; }
        return score_from_counts(e, chosen->h, chosen->rc, chosen->pc, weight);
    }
    double h = 0.0, rc = 0.0, pc = 0.0;
    for (Py_ssize_t k = 0; k < M; k++) { h += s[k].h; rc += s[k].rc; pc += s[k].pc; }
    return score_from_counts(e, h, rc, pc, weight);
}

static SC reduce_scores(EngineObject *e, const PS *s, Py_ssize_t M, double weight, PS *tmp, int by_recall) {
    if (!e->jackknife || M < 2) return combine(e, s, M, weight, by_recall);
    double p = 0.0, r = 0.0, f = 0.0;
    for (Py_ssize_t k = 0; k < M; k++) {
        Py_ssize_t q = 0;
        for (Py_ssize_t x = 0; x < M; x++) if (x != k) tmp[q++] = s[x];
        SC c = combine(e, tmp, M - 1, weight, by_recall);
        p += c.p; r += c.r; f += c.f;
    }
    SC out = {p / (double)M, r / (double)M, f / (double)M};
    return out;
}
